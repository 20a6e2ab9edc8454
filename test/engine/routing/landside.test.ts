/**
 * RAIL/TRUCK from a port whose point the modality cannot reach (issue 20: CNCTU -> CNSHA by RAIL
 * was 404 because the CNSHA point is on Yangshan island, joined to the mainland by a road bridge
 * only). The trip starts at the port's landside, the far end of the fixed link, and the move is
 * reported in snapDistance. Checked on the lane and as properties over the real port list.
 */
import fc from "fast-check";
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { geodesicMetersBetween } from "../../../src/engine/geo/geodesy";
import { loadEngine } from "../../../src/data/load-engine";
import { loadPlaces } from "../../../src/data/places";
import { DEFAULT_MAX_LANDSIDE_METERS } from "../../../src/engine/routing/overland/overland-router";
import { DistanceResult, LatLng, Port } from "../../../src/engine/types";

const engine = loadEngine({});
/**
 * The curated ports (sea-ports, overlays) and every 20th place the UN/LOCODE list adds: the list
 * holds 20k places, and routing each of them twice by land would take minutes of every test run.
 */
const ports = loadPlaces()
  .ports.all()
  .filter((p, i) => !p.source.startsWith("UN/LOCODE 2024-2, UNECE") || i % 20 === 0);
/** The two ends of every fixed link (data/land-links.csv). */
const LINKS: LatLng[][] = (
  parse(fs.readFileSync(path.join(__dirname, "../../../data/land-links.csv"), "utf8"), {
    columns: true,
  }) as Array<Record<string, string>>
).map((r) => [
  { lat: Number(r.lat1), lng: Number(r.lng1) },
  { lat: Number(r.lat2), lng: Number(r.lng2) },
]);
const CHENGDU: LatLng = { lat: 30.66, lng: 104.07 };

function tryRoute(a: LatLng, b: LatLng, modality: "RAIL" | "TRUCK"): DistanceResult | null {
  try {
    return engine.distanceBetween(a, b, modality);
  } catch (e) {
    if ((e as { kind?: string }).kind === "no-route") return null;
    throw e;
  }
}

test("CNCTU -> CNSHA by RAIL answers: the train ends at Luchao, the landside of the Donghai Bridge", () => {
  const rail = engine.distance({ origin: "CNCTU", destination: "CNSHA", modality: "RAIL" });
  // Real run: 2,236 km along the corridors; Yangshan is 29.7 km from the bridge's mainland end.
  expect(Math.round(rail.distance / 1000)).toBe(2236);
  expect(rail.basis).toBe("network");
  expect(rail.snapDistance).toEqual({ origin: 0, destination: 29684 });
  // The path shows the move: it ends at the CNSHA point itself.
  const end = rail.path[rail.path.length - 1];
  expect([end.lat, end.lng]).toEqual([30.617, 122.067]);
  // Reversed, the same trip; emissions answer over the same distance.
  const back = engine.distance({ origin: "CNSHA", destination: "CNCTU", modality: "RAIL" });
  expect(back.distance).toBe(rail.distance);
  expect(back.snapDistance).toEqual({ origin: 29684, destination: 0 });
  const e = engine.emissions({ origin: "CNCTU", destination: "CNSHA", modality: "RAIL" });
  expect(e.distance).toBe(rail.distance);
  expect(e.co2eTeu).toBeGreaterThan(0);
  // TRUCK crosses the bridge itself: no move.
  const truck = engine.distance({ origin: "CNCTU", destination: "CNSHA", modality: "TRUCK" });
  expect(truck.snapDistance).toBeUndefined();
});

test("no landside across open sea: Dublin - London by TRUCK stays no route", () => {
  expect(() =>
    engine.distance({ origin: "IEDUB", destination: "GBLON", modality: "TRUCK" })
  ).toThrow(/No TRUCK route/);
});

const CONTINENTS = [
  // Eurasia (with Africa), reached from Chengdu; road-only islands: Yangshan, Zhoushan, Geoje, Bahrain.
  { name: "Eurasia", from: CHENGDU, size: 1000, movedByRail: ["CNSHA", "CNZOS", "KRKJE", "BHBAH"] },
  // North America, reached from Chicago; Prince Edward Island has a road-only bridge.
  { name: "North America", from: { lat: 41.88, lng: -87.63 }, size: 400, movedByRail: ["CASUM"] },
];

describe.each(CONTINENTS)("properties over the port list: $name", ({ from, size, movedByRail }) => {
  // The ports a land modality reaches from the continent's inland point: its ports and those on
  // islands joined to it by a fixed link.
  const reach = ports
    .map((p) => ({ p, rail: tryRoute(p, from, "RAIL"), truck: tryRoute(p, from, "TRUCK") }))
    .filter((x) => x.rail || x.truck);

  test("every port a truck reaches, a train reaches too (at its landside when rail ends short)", () => {
    expect(reach.length).toBeGreaterThan(size);
    // Only a port on a road-only island farther than the landside bound from every fixed link's
    // ends may be reached by truck alone (Grankullavik on Oland, 88 km from the bridge; Key West,
    // 141 km of Overseas Highway): a landside is a short hop, not a long truck leg.
    const truckOnly = reach.filter((x) => x.truck && !x.rail).map((x) => x.p);
    // (Which end is the far one depends on the port's side, so: no link has both ends in reach.)
    for (const p of truckOnly)
      for (const ends of LINKS)
        expect(Math.max(...ends.map((end) => geodesicMetersBetween(p, end)))).toBeGreaterThan(
          DEFAULT_MAX_LANDSIDE_METERS
        );
    expect(truckOnly.length).toBeLessThanOrEqual(2);
    // Before the fix these had no RAIL route at all (road-only links to the mainland).
    for (const code of movedByRail) {
      const x = reach.find((r) => r.p.locode === code)!;
      expect(x.rail!.snapDistance!.origin).toBeGreaterThan(0);
      expect(x.rail!.snapDistance!.origin).toBeLessThanOrEqual(DEFAULT_MAX_LANDSIDE_METERS);
    }
  });

  const withRail = reach.filter((x) => x.rail).map((x) => x.p);
  const withTruck = reach.filter((x) => x.truck).map((x) => x.p);

  test.each([
    ["RAIL", withRail],
    ["TRUCK", withTruck],
  ] as const)(
    "%s: any two ports that each reach the continent reach each other (no 404), symmetric, moves bounded",
    (modality, set: Port[]) => {
      fc.assert(
        fc.property(fc.constantFrom(...set), fc.constantFrom(...set), (a, b) => {
          fc.pre(a.locode !== b.locode);
          const r = tryRoute(a, b, modality);
          expect(r).not.toBeNull();
          const back = tryRoute(b, a, modality)!;
          expect(back.distance).toBeCloseTo(r!.distance, -1);
          const snap = r!.snapDistance ?? { origin: 0, destination: 0 };
          expect(snap.origin).toBeLessThanOrEqual(DEFAULT_MAX_LANDSIDE_METERS);
          expect(snap.destination).toBeLessThanOrEqual(DEFAULT_MAX_LANDSIDE_METERS);
          // Land is never shorter than the straight line between where the trip runs.
          const straight = geodesicMetersBetween(a, b) - snap.origin - snap.destination;
          expect(r!.distance).toBeGreaterThanOrEqual(straight - 1);
        }),
        { numRuns: 60 }
      );
    }
  );
});
