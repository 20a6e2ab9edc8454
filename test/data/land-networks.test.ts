/**
 * The land networks' lazy loading (src/data/land-networks.ts): the box test never hides a node the
 * network would find, lazy networks answer as the parsed ones do, and a network is not parsed for
 * trips far from it.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { beyondBox, lazyLandNetworks, summarise } from "../../src/data/land-networks";
import { LandNetwork, LandNetworkFile } from "../../src/engine/routing/overland/land-network";
import { DATA_DIR } from "../../src/data/inland";

const LAND = path.join(DATA_DIR, "land");
const files = fs.readdirSync(LAND).filter((f) => f.endsWith(".json")).sort();
const read = (f: string) =>
  JSON.parse(fs.readFileSync(path.join(LAND, f), "utf8")) as LandNetworkFile;

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

let tmp: string;
const saved = process.env.ROUTE_SHEETS_CACHE_DIR;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-land-networks-"));
  process.env.ROUTE_SHEETS_CACHE_DIR = path.join(tmp, "cache");
});
afterAll(() => {
  if (saved === undefined) delete process.env.ROUTE_SHEETS_CACHE_DIR;
  else process.env.ROUTE_SHEETS_CACHE_DIR = saved;
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("land networks, parsed on first need", () => {
  it("ships networks to test against", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)("%s: the box test never hides a node nearNodes finds (random points and radii)", (f) => {
    const json = read(f);
    const net = new LandNetwork(json);
    const box = summarise(f, json);
    const r = rng(7);
    let hidden = 0;
    let near = 0;
    let skipped = 0;
    for (let i = 0; i < 900; i++) {
      // Half the points around the box (near its edges), half anywhere on Earth.
      const p =
        i % 2
          ? {
              lat: box.minLat - 5 + r() * (box.maxLat - box.minLat + 10),
              lng: box.minLng - 5 + r() * (box.maxLng - box.minLng + 10),
            }
          : { lat: -85 + r() * 170, lng: -180 + r() * 360 };
      const meters = [10_000, 100_000, 300_000][i % 3];
      const found = net.nearNodes(p, meters, 1).length > 0;
      if (found) near++;
      if (beyondBox(p, meters, box)) {
        skipped++;
        if (found) hidden++;
      }
    }
    expect(hidden).toBe(0);
    // The test is worth something: both cases occur often.
    expect(near).toBeGreaterThan(50);
    expect(skipped).toBeGreaterThan(100);
  });

  it("answer as the parsed networks do, and parse a file only for trips near it", () => {
    const dir = path.join(tmp, "land");
    fs.mkdirSync(dir);
    for (const f of files) fs.copyFileSync(path.join(LAND, f), path.join(dir, f));
    const lazy = lazyLandNetworks(dir);
    expect(lazy.map((n) => n.name)).toEqual(files.map((f) => read(f).name));
    expect(lazy.every((n) => n instanceof LandNetwork)).toBe(true);

    // Far from every network (Rotterdam, Duisburg): answered without the files.
    for (const f of files) fs.renameSync(path.join(dir, f), path.join(dir, `${f}.away`));
    for (const net of lazy) {
      expect(net.nearNodes({ lat: 51.95, lng: 4.05 }, 100_000, 16)).toEqual([]);
      expect(net.nearNodes({ lat: 51.43, lng: 6.76 }, 10_000, 1)).toEqual([]);
      expect(net.countries.size).toBeGreaterThan(0);
    }
    // Near one (Chicago): it needs its file.
    expect(() => lazy[0].nearNodes({ lat: 41.88, lng: -87.63 }, 100_000, 16)).toThrow();
    for (const f of files) fs.renameSync(path.join(dir, `${f}.away`), path.join(dir, f));

    const again = lazyLandNetworks(dir);
    const r = rng(11);
    for (const [i, f] of files.entries()) {
      const real = new LandNetwork(read(f));
      for (let k = 0; k < 200; k++) {
        const p = { lat: 20 + r() * 45, lng: -130 + r() * 70 };
        const a = again[i].nearNodes(p, 100_000, 4);
        expect(a).toEqual(real.nearNodes(p, 100_000, 4));
        const b = real.nearNodes(p, 300_000, 2);
        if (b.length) {
          const c = again[i].nearNodes(p, 300_000, 2);
          expect(again[i].route(c, b)).toEqual(real.route(c, b));
        }
      }
      expect(again[i].size).toBe(real.size);
      expect(again[i].node(3)).toEqual(real.node(3));
    }
  });
});
