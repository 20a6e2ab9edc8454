import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { isRouteSheetsError, RouteSheetsError } from "../../../src/engine/errors";
import { terminalId } from "../../../src/engine/places";
import {
  importTerminals,
  importUnlocode,
  loadPlaces,
  portOf,
  readTextFile,
  readUnlocodeFiles,
  sharedPlaces,
} from "../../../src/data/places";

const FIXTURES = path.join(__dirname, "../../fixtures");
const UNLOCODE = path.join(FIXTURES, "unlocode-sample.csv");
const TERMINALS = path.join(FIXTURES, "terminals-sample.csv");
const OVERLAY = path.join(FIXTURES, "ports-overlay-sample.csv");
const NONE = path.join(FIXTURES, "does-not-exist.csv");

function errorOf(fn: () => unknown): RouteSheetsError {
  try {
    fn();
  } catch (e) {
    if (isRouteSheetsError(e)) return e;
    throw e;
  }
  throw new Error("expected an error");
}

let dataDir: string;
beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "places-"));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe("built-in ports (sea-ports only)", () => {
  const { resolver, ports } = loadPlaces({
    overlayFile: NONE,
    terminalsFile: NONE,
    unlocodeFile: NONE,
  });

  it("resolves a known LOCODE to sea-ports coordinates ([lng,lat] swapped)", () => {
    expect(resolver.resolve("nl rtm", "origin")).toEqual({
      kind: "LOCODE",
      locode: "NLRTM",
      name: "Rotterdam",
      lat: 51.92,
      lng: 4.5,
    });
    expect(ports.get("DEHAM")).toMatchObject({
      locode: "DEHAM",
      name: "Hamburg",
      country: "DE",
      lat: 53.5510846,
      lng: 9.9936818,
    });
    expect(ports.get("DEHAM")!.source).toMatch(/^sea-ports 0\.0\.9/);
  });

  it("passes coordinates through", () => {
    expect(resolver.resolve("-33.8688, 151.2093", "destination")).toEqual({
      kind: "GEO",
      lat: -33.8688,
      lng: 151.2093,
    });
  });

  it("reports a well-formed unknown LOCODE as Unknown Data naming the parameter", () => {
    const e = errorOf(() => resolver.resolve("ZZZZZ", "destination"));
    expect(e.kind).toBe("unknown-data");
    expect(e.parameter).toBe("destination");
    expect(e.detail).toMatch(/^destination ZZZZZ is not a known UN\/LOCODE/);
  });

  it("reports a sea-ports entry without coordinates as Unknown Data asking for lat,lng", () => {
    const e = errorOf(() => resolver.resolve("TWTPE", "origin"));
    expect(e.kind).toBe("unknown-data");
    expect(e.detail).toMatch(/TWTPE .*: known code, no position; give "lat,lng" instead/);
  });

  it("reports malformed input as Incorrect Values", () => {
    expect(errorOf(() => resolver.resolve("abc", "origin")).kind).toBe("bad-value");
    expect(errorOf(() => resolver.resolve("91,0", "origin")).kind).toBe("bad-value");
  });

  it("has no DEDUI without the overlay (sea-ports lacks it)", () => {
    expect(ports.has("DEDUI")).toBe(false);
  });
});

describe("overlay and terminals", () => {
  const { resolver, ports, terminals } = loadPlaces({
    overlayFile: OVERLAY,
    terminalsFile: TERMINALS,
    unlocodeFile: NONE,
  });

  it("overlay rows replace sea-ports coordinates and add ports", () => {
    expect(resolver.resolve("NLRTM", "origin")).toEqual({
      kind: "LOCODE",
      locode: "NLRTM",
      name: "Rotterdam (Maasvlakte)",
      lat: 51.95,
      lng: 4.05,
    });
    expect(ports.get("DEDUI")).toMatchObject({
      lat: 51.45,
      lng: 6.74,
      country: "DE",
      source: "test fixture (approximate position)",
    });
    expect(ports.get("ZZZZZ")).toMatchObject({ lat: 10.5, lng: -20.25 });
    // Untouched codes keep sea-ports.
    expect(ports.get("CNCKG")).toMatchObject({ lat: 29.56301, lng: 106.551557 });
  });

  it("resolves a terminal id, in any case, to the terminal", () => {
    const id = terminalId("NLRTM", "ECT Euromax Terminal");
    expect(resolver.resolve(id.toUpperCase(), "origin")).toEqual({
      kind: "TERMINAL",
      terminalId: id,
      locode: "NLRTM",
      name: "ECT Euromax Terminal",
      lat: 51.98,
      lng: 4.045,
    });
    expect(terminals.size).toBe(10);
  });

  it("reports an unknown terminal id as Unknown Data", () => {
    const e = errorOf(() =>
      resolver.resolve("f47ac10b-58cc-4372-a567-0e02b2c3d479", "destination")
    );
    expect(e.kind).toBe("unknown-data");
    expect(e.parameter).toBe("destination");
    expect(e.detail).toMatch(/not a known terminal id/);
  });
});

describe("UN/LOCODE import", () => {
  it("reads the fixture with the expected counts", () => {
    const { stats, locations } = readUnlocodeFiles([UNLOCODE]);
    expect(stats).toEqual({
      rows: 35,
      headers: 13,
      deleted: 1,
      malformed: 0,
      duplicates: 1,
      imported: 20,
      withCoordinates: 17,
    });
    const byCode = Object.fromEntries(locations.map((l) => [l.locode, l]));
    expect(byCode.DEMUC.name).toBe("München");
    expect(byCode.PLLOD.name).toBe("Łódź");
    expect(byCode.ADFMO.lat).toBeUndefined();
    expect(byCode.DEZZQ).toBeUndefined();
    expect(byCode.USNYC).toMatchObject({ lat: 40.7, lng: -74 });
  });

  it("reads a Latin-1 copy the same way", () => {
    const latin1 = path.join(dataDir, "latin1.csv");
    // Łódź has no Latin-1 spelling; drop that row so the rest round-trips.
    const text = readTextFile(UNLOCODE)
      .split("\n")
      .filter((l) => !l.includes("Łódź"))
      .join("\n");
    fs.writeFileSync(latin1, Buffer.from(text, "latin1"));
    expect(fs.readFileSync(latin1).includes(Buffer.from("München", "utf8"))).toBe(false);
    const { locations, stats } = readUnlocodeFiles([latin1]);
    expect(stats.imported).toBe(19);
    expect(locations.find((l) => l.locode === "DEMUC")!.name).toBe("München");
    expect(locations.find((l) => l.locode === "DKAAR")!.name).toBe("Århus");
  });

  it("stores the import; precedence is overlay > UN/LOCODE > sea-ports", () => {
    const r = importUnlocode([UNLOCODE], dataDir);
    expect(r).toMatchObject({ imported: 20, withCoordinates: 17 });
    expect(r.file).toBe(path.join(dataDir, "places", "unlocode.json"));
    const { resolver, ports } = loadPlaces({
      dataDir,
      overlayFile: OVERLAY,
      terminalsFile: NONE,
      unlocodeFile: NONE,
    });
    // Overlay beats UN/LOCODE.
    expect(resolver.resolve("NLRTM", "origin")).toMatchObject({ lat: 51.95, lng: 4.05 });
    // UN/LOCODE beats sea-ports (53.5510846, 9.9936818).
    expect(ports.get("DEHAM")).toMatchObject({ lat: 53.55, lng: 9.9667, name: "Hamburg" });
    expect(ports.get("DEHAM")!.source).toMatch(/^UN\/LOCODE code list, UNECE/);
    // Locations only the import knows become resolvable.
    expect(resolver.resolve("ad alv", "origin")).toEqual({
      kind: "LOCODE",
      locode: "ADALV",
      name: "Andorra la Vella",
      lat: 42.5,
      lng: 1.5167,
      functions: "--34-6--",
    });
    expect(ports.get("AUSYD")).toMatchObject({ lat: -33.8667, lng: 151.2167 });
    // Known but without coordinates.
    const e = errorOf(() => resolver.resolve("ADFMO", "destination"));
    expect(e.kind).toBe("unknown-data");
    expect(e.parameter).toBe("destination");
    expect(e.detail).toMatch(
      /^destination ADFMO \(La Farga de Moles\): known code, no position; give "lat,lng" instead\.$/
    );
    // Deleted rows stay unknown.
    expect(errorOf(() => resolver.resolve("DEZZQ", "origin")).detail).toMatch(
      /not a known UN\/LOCODE/
    );
  });

  it("imported terminals extend and override the built-in ones", () => {
    const extra = path.join(dataDir, "more-terminals.csv");
    fs.writeFileSync(
      extra,
      "locode,name,lat,lng,modalities,operator,source\n" +
        "NLRTM,ECT Euromax Terminal,51.99,4.03,DEEPSEA;BARGE,Hutchison Ports,test\n" +
        "BEANR,MPET Deurganck,51.28,4.25,DEEPSEA;barge,PSA/TIL,test\n"
    );
    expect(importTerminals(extra, dataDir)).toMatchObject({ read: 2, stored: 2 });
    expect(importTerminals(extra, dataDir)).toMatchObject({ read: 2, stored: 2 });
    const { terminals } = loadPlaces({ dataDir, overlayFile: OVERLAY, terminalsFile: TERMINALS });
    expect(terminals.size).toBe(11);
    expect(terminals.search("NLRTM", "euromax")).toEqual([
      expect.objectContaining({
        lat: 51.99,
        lng: 4.03,
        modalities: ["DEEPSEA", "BARGE"],
        operator: "Hutchison Ports",
      }),
    ]);
    expect(terminals.search("BEANR").map((t) => t.name)).toEqual(["MPET Deurganck"]);
  });

  it("rejects a terminal file with a bad modality, naming file and line", () => {
    const bad = path.join(dataDir, "bad-terminals.csv");
    fs.writeFileSync(bad, "locode,name,lat,lng,modalities,operator,source\nNLRTM,X,51,4,SHIP,,\n");
    expect(() => importTerminals(bad, dataDir)).toThrow(/bad-terminals\.csv:2: modality "SHIP"/);
  });
});

describe("shipped data (data/ports-overlay.csv, data/terminals.csv when present)", () => {
  const { resolver, ports } = loadPlaces();

  it.each([
    ["DEDUI", 51.43, 6.76],
    ["CNCKG", 29.56, 106.55],
    ["NLRTM", 51.9, 4.1],
  ])("resolves %s near (%d, %d)", (locode, lat, lng) => {
    const p = resolver.resolve(locode, "origin");
    expect(p.kind).toBe("LOCODE");
    expect(p.locode).toBe(locode);
    expect(Math.abs(p.lat - lat)).toBeLessThan(0.3);
    expect(Math.abs(p.lng - lng)).toBeLessThan(0.5);
    expect(ports.get(locode)!.source).toMatch(/^https?:\/\//);
  });

  it("lists every routable port once, sorted", () => {
    const all = ports.all();
    expect(all.length).toBeGreaterThan(1600);
    const codes = all.map((p) => p.locode);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...codes].sort()).toEqual(codes);
    expect(all.every((p) => Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180)).toBe(true);
  });
});

describe("portOf", () => {
  it("gives a port by LOCODE in any spelling, once loaded per data directory", () => {
    expect(portOf("nl-rtm")).toMatchObject({ locode: "NLRTM", country: "NL" });
    expect(portOf("NLRTM")).toEqual(portOf("nl rtm"));
    expect(portOf("ZZZZZ")).toBeUndefined();
    expect(sharedPlaces()).toBe(sharedPlaces());
  });
});

describe("shipped terminals", () => {
  const { terminals, ports, resolver } = loadPlaces();

  it("load with unique ids, each at a known port within ~1.5 degrees of it", () => {
    const all = terminals.all();
    expect(all.length).toBeGreaterThan(100);
    expect(new Set(all.map((t) => t.id)).size).toBe(all.length);
    for (const t of all) {
      const port = ports.get(t.locode);
      expect({ terminal: t.name, port: port?.locode }).toEqual({
        terminal: t.name,
        port: t.locode,
      });
      expect(Math.abs(port!.lat - t.lat)).toBeLessThan(1.5);
      expect(Math.abs(port!.lng - t.lng)).toBeLessThan(1.5);
      expect(t.modalities.length).toBeGreaterThan(0);
    }
  });

  it("are found by name as a user types and resolve by id", () => {
    const [euromax] = terminals.search("NLRTM", "euromax");
    expect(euromax.name).toBe("ECT Euromax Terminal");
    expect(euromax.id).toBe(terminalId("NLRTM", "ECT Euromax Terminal"));
    expect(terminals.search("NLRTM", "delta ect")[0].name).toBe("ECT Delta Terminal");
    expect(terminals.search("NLRTM", "maasvlakte 2")[0].name).toBe("APM Terminals Maasvlakte II");
    expect(resolver.resolve(euromax.id, "origin")).toMatchObject({
      kind: "TERMINAL",
      locode: "NLRTM",
      terminalId: euromax.id,
    });
  });
});
