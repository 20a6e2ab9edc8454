/**
 * The fallback model where no network answers: great circle × circuity by distance band, with the
 * stretches through high mountains and over open water priced on their own (terrain.ts). Checked
 * by properties (no reference table), against the shipped networks on random pairs, and on the one
 * published high-Andes crossing.
 */
import { loadCircuityFactors, loadOverlandRouter } from "../../../src/data/inland";
import { geodesicMetersBetween } from "../../../src/engine/geo/geodesy";
import { CircuityTable } from "../../../src/engine/routing/overland/circuity";
import { Terrain } from "../../../src/engine/routing/overland/terrain";
import { LatLng } from "../../../src/engine/types";
import { seededRandom as random } from "../../support/seeded-random";

const at = (lat: number, lng: number): LatLng => ({ lat, lng });
const withNetworks = loadOverlandRouter();
const model = loadOverlandRouter({ landNetworks: false, railCorridors: false });
const plain = loadOverlandRouter({ landNetworks: false, railCorridors: false, terrain: false });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

describe("distance bands", () => {
  const table = new CircuityTable(loadCircuityFactors());

  test.each(["TRUCK", "RAIL"] as const)(
    "%s: the DEFAULT factor never grows with distance and stays within [1.05, 1.5)",
    (m) => {
      let last = Infinity;
      for (let km = 0; km <= 5000; km += 25) {
        const f = table.lookup(m, "DEFAULT", km).factor;
        expect(f).toBeLessThanOrEqual(last);
        expect(f).toBeGreaterThanOrEqual(1.05);
        expect(f).toBeLessThan(1.5);
        last = f;
      }
    }
  );

  test("a table whose bands do not start at 0 km is refused", () => {
    expect(
      () =>
        new CircuityTable([
          { modality: "TRUCK", region: "DEFAULT", factor: 1.2, minKm: 100, source: "x" },
          { modality: "RAIL", region: "DEFAULT", factor: 1.2, source: "x" },
        ])
    ).toThrow(/first band must start at 0 km/);
  });
});

describe("Terrain", () => {
  const peak = (name: string, lat: number, lng: number, m: number) => ({
    name,
    lat,
    lng,
    elevationMeters: m,
  });

  test("a range is two high peaks near each other; a lone volcano is not a barrier", () => {
    const t = new Terrain(
      [
        peak("a", 0, 0, 6000),
        peak("b", 0.5, 0, 5500),
        peak("lone", 10, 10, 5800),
        peak("low", 0, 0.3, 4000),
      ],
      () => false
    );
    expect(t.barriers.map((p) => p.name).sort()).toEqual(["a", "b"]);
  });

  test("stretches add up to at most the line, and follow the water test", () => {
    const t = new Terrain([], (p) => p.lng > 0);
    const { mountainMeters, highlandMeters, waterMeters } = t.stretches(
      at(0, -1),
      at(0, 1),
      222_000
    );
    expect(mountainMeters).toBe(0);
    expect(highlandMeters).toBe(0);
    expect(waterMeters / 222_000).toBeCloseTo(0.5, 1);
  });
});

describe("the model on random pairs", () => {
  test("never shorter than the geodesic; terrain only ever adds to the plain estimate", () => {
    const next = random(5);
    let pairs = 0;
    while (pairs < 300) {
      const a = at(-50 + next() * 110, -170 + next() * 340);
      const b = at(a.lat + (next() - 0.5) * 30, a.lng + (next() - 0.5) * 30);
      if (!model.connected(a, b, "TRUCK")) continue;
      pairs++;
      for (const m of ["TRUCK", "RAIL"] as const) {
        const withTerrain = model.route(a, b, m);
        const without = plain.route(a, b, m);
        if (!withTerrain || !without) continue;
        expect(withTerrain.meters).toBeGreaterThanOrEqual(without.meters - 1);
        expect(withTerrain.meters).toBeGreaterThanOrEqual(geodesicMetersBetween(a, b));
      }
    }
  });

  // Measured (seed 11, 120 pairs each): TRUCK median |error| 6.2 % (6.7 % before the relief
  // term; the model runs short: the network is freeways only, long for random points), RAIL 8.4 %
  // (pairs the corridors miss).
  test.each([
    ["TRUCK", "road network (US freeways)", 0.1],
    ["RAIL", "rail network (North American Class I)", 0.1],
  ] as const)(
    "%s in North America: the model's median error against the %s is under %s",
    (m, basis, limit) => {
      const next = random(11);
      const errors: number[] = [];
      for (let tries = 0; errors.length < 120 && tries < 20_000; tries++) {
        const a = at(25 + next() * 25, -124 + next() * 57);
        const b = at(25 + next() * 25, -124 + next() * 57);
        if (!withNetworks.connected(a, b, m)) continue;
        const net = withNetworks.route(a, b, m);
        if (net?.basis !== basis) continue;
        errors.push(Math.abs(model.route(a, b, m)!.meters / net.meters - 1));
      }
      expect(errors.length).toBe(120);
      console.log(`${m}: model vs ${basis}, median |error| ${(median(errors) * 100).toFixed(1)} %`);
      expect(median(errors)).toBeLessThan(limit);
    }
  );
});

describe("mountain crossings", () => {
  // Mendoza -> Santiago over the Cristo Redentor pass (RN7 / Ruta 60): 380 km, as the issue cites
  // it; the great circle is 181 km. The plain estimate was 237 km (-38 %).
  test("Mendoza -> Santiago by TRUCK is not more than 15 % short of the published 380 km", () => {
    const r = withNetworks.route(at(-32.89, -68.85), at(-33.45, -70.67), "TRUCK")!;
    expect(r.basis).toBe("great circle × circuity");
    expect(r.meters / 1000).toBeGreaterThan(380 * 0.85);
    expect(r.meters / 1000).toBeLessThan(380 * 1.15);
  });
});
