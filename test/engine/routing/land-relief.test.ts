/**
 * Relief in the fallback model (terrain.ts, elevation-grid.ts): the elevation grid, the climb
 * along a line, the multiplier, and the model with and without relief against road networks on
 * random pairs of their nodes (no reference table): the US freeways (data/land/) and the
 * Trans-African roads (data/land-validation/, a check only: its routes run through city points).
 */
import * as fs from "fs";
import * as path from "path";
import { loadOverlandRouter } from "../../../src/data/inland";
import { geodesicMetersBetween } from "../../../src/engine/geo/geodesy";
import {
  ElevationGrid,
  ElevationGridFile,
} from "../../../src/engine/routing/overland/elevation-grid";
import { LandNetwork, LandNetworkFile } from "../../../src/engine/routing/overland/land-network";
import {
  DEFAULT_TERRAIN,
  reliefMultiplier,
  Terrain,
} from "../../../src/engine/routing/overland/terrain";
import { LatLng } from "../../../src/engine/types";
import { seededRandom as random } from "../../support/seeded-random";

const DATA = path.join(__dirname, "..", "..", "..", "data");
const at = (lat: number, lng: number): LatLng => ({ lat, lng });
const readJson = <T>(...parts: string[]) =>
  JSON.parse(fs.readFileSync(path.join(DATA, ...parts), "utf8")) as T;

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length * q)];

describe("ElevationGrid", () => {
  // 4 columns of 90° (centres at 45, 135, 225, 315° E) and 3 rows of 90° is not a real grid, but
  // shows the interpolation and the wrap round the date line.
  const tiny = new ElevationGrid({
    source: "test",
    licence: "test",
    firstLat: -45,
    firstLng: 45,
    stepDegrees: 90,
    rows: 2,
    columns: 4,
    unitMeters: 10,
    heights: [0, 10, 20, 30, 40, 50, 60, 70],
  });

  test("interpolates between centres and wraps round the date line", () => {
    expect(tiny.at(at(-45, 45))).toBeCloseTo(0);
    expect(tiny.at(at(-45, 90))).toBeCloseTo(50);
    expect(tiny.at(at(0, 45))).toBeCloseTo(200);
    // Between 315° E (300 m) and 45° E (0 m), across 0°: halfway is 150 m.
    expect(tiny.at(at(-45, 0))).toBeCloseTo(150);
    expect(tiny.at(at(-45, -45))).toBeCloseTo(300);
  });

  test("the shipped grid: ETOPO at 20', sea at 0, the high ranges where they are", () => {
    const file = readJson<ElevationGridFile>("land", "terrain", "elevation-20min.json");
    expect(file.source).toMatch(/ETOPO/);
    expect(file.licence).toMatch(/public domain/);
    expect([file.rows, file.columns]).toEqual([540, 1080]);
    const grid = new ElevationGrid(file);
    expect(grid.at(at(27.99, 86.93))).toBeGreaterThan(5000); // Everest (a 37 km cell's mean)
    expect(grid.at(at(29.65, 91.13))).toBeGreaterThan(4000); // Lhasa
    expect(grid.at(at(39.74, -104.99))).toBeGreaterThan(1500); // Denver
    expect(grid.at(at(39.74, -104.99))).toBeLessThan(2000);
    expect(grid.at(at(52.37, 4.9))).toBeLessThan(20); // Amsterdam
    expect(grid.at(at(30, -40))).toBe(0); // the Atlantic
  });
});

describe("relief", () => {
  test("the multiplier is 1 up to the hinge, grows with the climb, and stops at the cap", () => {
    const s = DEFAULT_TERRAIN;
    const top = 1 + s.reliefSlope.TRUCK * (s.reliefCapClimb - s.reliefHingeClimb);
    let previous = 1;
    for (let c = 0; c <= 10; c += 0.25) {
      const m = reliefMultiplier(s, "TRUCK", c);
      expect(m).toBeGreaterThanOrEqual(previous);
      expect(m).toBeLessThanOrEqual(top + 1e-12);
      if (c <= s.reliefHingeClimb) expect(m).toBe(1);
      previous = m;
    }
    expect(previous).toBeCloseTo(top);
    // No relief term for RAIL: the Class I network did not support one (docs/land.md).
    expect(reliefMultiplier(s, "RAIL", 5)).toBe(1);
  });

  test("climb counts ups and downs, not a steady grade", () => {
    const never = () => false;
    const grade = new Terrain([], never, never, {}, (p) => (p.lng + 10) * 100);
    const bump = new Terrain([], never, never, {}, (p) =>
      Math.max(0, 1000 - Math.abs(p.lng) * 500)
    );
    const a = at(0, -5);
    const b = at(0, 5);
    const meters = geodesicMetersBetween(a, b);
    expect(grade.stretches(a, b, meters).climbMeters).toBeCloseTo(0, 6);
    // Up to about 1,000 m at the middle and down again: twice the height, less what the samples miss.
    const climb = bump.stretches(a, b, meters).climbMeters;
    expect(climb).toBeGreaterThan(1800);
    expect(climb).toBeLessThanOrEqual(2000);
  });
});

describe("the model with relief against road networks, random pairs of their nodes", () => {
  const withRelief = loadOverlandRouter({ landNetworks: false, railCorridors: false });
  const withoutRelief = loadOverlandRouter({
    landNetworks: false,
    railCorridors: false,
    relief: false,
  });

  /** |model / network − 1| with and without relief, over `count` pairs 50-2,000 km apart. */
  function errors(file: LandNetworkFile, seed: number, count: number) {
    const net = new LandNetwork(file);
    const next = random(seed);
    const out = { with: [] as number[], without: [] as number[], added: [] as number[] };
    for (let tries = 0; out.with.length < count && tries < 20_000; tries++) {
      const i = Math.floor(next() * net.size);
      const j = Math.floor(next() * net.size);
      const a = net.node(i);
      const b = net.node(j);
      const g = geodesicMetersBetween(a, b);
      if (g < 50_000 || g > 2_000_000 || !withRelief.connected(a, b, "TRUCK")) continue;
      const road = net.route([{ node: i, meters: 0 }], [{ node: j, meters: 0 }]);
      const m0 = withoutRelief.route(a, b, "TRUCK")!;
      if (!road || m0.basis !== "great circle × circuity") continue;
      const m1 = withRelief.route(a, b, "TRUCK")!;
      out.with.push(Math.abs(m1.meters / road.meters - 1));
      out.without.push(Math.abs(m0.meters / road.meters - 1));
      out.added.push(m1.meters / m0.meters - 1);
    }
    return out;
  }

  // Measured (seed 17, 400 pairs each): US freeways median 5.0 -> 5.3 %, p90 17.9 -> 16.5 %;
  // Trans-African roads median 19.3 -> 16.6 %, p90 30.0 -> 28.4 % (that network runs long).
  test.each([
    ["US freeways", ["land", "us-freeway.json"], 0.004],
    ["Trans-African roads", ["land-validation", "africa-roads.json"], -0.01],
  ] as const)(
    "%s: relief only adds, never more than its cap, and narrows the worst tenth",
    (name, file, medianSlack) => {
      const e = errors(readJson<LandNetworkFile>(...file), 17, 400);
      expect(e.with.length).toBe(400);
      const cap = DEFAULT_TERRAIN.reliefSlope.TRUCK;
      for (const x of e.added) {
        expect(x).toBeGreaterThanOrEqual(-1e-9);
        expect(x).toBeLessThanOrEqual(cap * (DEFAULT_TERRAIN.reliefCapClimb - 1) + 1e-9);
      }
      const [m0, m1] = [quantile(e.without, 0.5), quantile(e.with, 0.5)];
      const [p0, p1] = [quantile(e.without, 0.9), quantile(e.with, 0.9)];
      console.log(
        `${name}: median |error| ${(m0 * 100).toFixed(1)} -> ${(m1 * 100).toFixed(1)} %, ` +
          `p90 ${(p0 * 100).toFixed(1)} -> ${(p1 * 100).toFixed(1)} %`
      );
      expect(p1).toBeLessThan(p0 - 0.01);
      expect(m1).toBeLessThan(m0 + medianSlack);
    }
  );
});
