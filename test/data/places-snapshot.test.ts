/**
 * The shipped places from their snapshot: the first load reads the CSV files (and sea-ports) and
 * writes the snapshot, the next one reads it back; both give exactly what the files say.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  DATA_ROOT,
  loadPlaces,
  readPortOverlay,
  readTerminalsCsv,
  seaPortsLayer,
  shippedUnlocodeTable,
} from "../../src/data/places";
import { makeTerminal } from "../../src/engine/places";

let tmp: string;
const saved = process.env.ROUTE_SHEETS_CACHE_DIR;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-places-snapshot-"));
  process.env.ROUTE_SHEETS_CACHE_DIR = tmp;
});
afterAll(() => {
  if (saved === undefined) delete process.env.ROUTE_SHEETS_CACHE_DIR;
  else process.env.ROUTE_SHEETS_CACHE_DIR = saved;
  fs.rmSync(tmp, { recursive: true, force: true });
});

const snapshots = (): string[] =>
  fs.readdirSync(tmp).filter((f) => f.startsWith("places-") && f.endsWith(".snap"));

describe("shipped places snapshot", () => {
  it("is written by the first load and gives the files' ports and terminals back", () => {
    expect(snapshots()).toEqual([]);
    const built = loadPlaces();
    expect(snapshots()).toHaveLength(1);
    const read = loadPlaces();

    const overlay = readPortOverlay(path.join(DATA_ROOT, "ports-overlay.csv"));
    const terminals = readTerminalsCsv(path.join(DATA_ROOT, "terminals.csv")).map(makeTerminal);
    expect(overlay.length).toBeGreaterThan(200);
    expect(terminals.length).toBeGreaterThan(250);
    for (const places of [built, read]) {
      expect(places.ports.all()).toEqual(built.ports.all());
      for (const p of overlay) expect(places.ports.lookup(p.locode).known).toMatchObject(p);
      for (const t of terminals) expect(places.terminals.byId(t.id)).toEqual(t);
      expect(places.terminals.size).toBe(new Set(terminals.map((t) => t.id)).size);
    }
    // A code only sea-ports knows, with its name and coordinates.
    const seaPorts = seaPortsLayer();
    const onlyThere = [...seaPorts.values()].find(
      (r) => r.lat !== undefined && !overlay.some((o) => o.locode === r.locode)
    )!;
    expect(read.ports.lookup(onlyThere.locode).port).toMatchObject({
      locode: onlyThere.locode,
      name: onlyThere.name,
      lat: onlyThere.lat,
      lng: onlyThere.lng,
      source: onlyThere.source,
    });
    // sea-ports entries without coordinates anywhere stay known but not routable.
    const unplaced = [...seaPorts.values()].find(
      (r) =>
        r.lat === undefined &&
        !overlay.some((o) => o.locode === r.locode) &&
        shippedUnlocodeTable().get(r.locode)?.lat === undefined
    );
    if (unplaced) {
      expect(read.ports.lookup(unplaced.locode).port).toBeUndefined();
      expect(read.ports.has(unplaced.locode)).toBe(true);
    }
  });

  it("files a caller names are read as they are, not from the snapshot", () => {
    const dir = fs.mkdtempSync(path.join(tmp, "files-"));
    const overlay = path.join(dir, "overlay.csv");
    fs.writeFileSync(
      overlay,
      "locode,name,country,lat,lng,kind,source\nNLRTM,Somewhere else,NL,10,20,seaport,test\n"
    );
    const places = loadPlaces({ overlayFile: overlay, terminalsFile: path.join(dir, "none.csv") });
    expect(places.ports.get("NLRTM")).toMatchObject({ lat: 10, lng: 20, name: "Somewhere else" });
    expect(places.terminals.size).toBe(0);
  });
});
