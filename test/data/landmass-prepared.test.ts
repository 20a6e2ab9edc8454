/**
 * A landmass index's look-up structures built ahead (LandmassIndex.prepared(): boxes, rings cut at
 * ±180° unwrapped, latitude bands), written to a snapshot and read back, answer as an index that
 * builds its own: random polygons with holes and a ring cut at the antimeridian, banded from a few
 * points on so the bands are used, at three snap radii.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import fc from "fast-check";
import { flattenPolygons, PolygonRings } from "../../src/engine/geo/flat-polygons";
import {
  LandmassIndex,
  PreparedLandmassIndex,
} from "../../src/engine/routing/overland/landmass-index";
import { readSnapshot, writeSnapshot } from "../../src/data/snapshot/bundle";
import { picksArb, pickPoint, star, starShapeArb } from "../support/star-worlds";

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-landmass-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Cut at ±180° as Natural Earth cuts Chukotka and Fiji (the index unwraps it). */
const ACROSS_180: PolygonRings = [
  [
    [178, 10],
    [180, 10],
    [-178, 10],
    [-178, 12.5],
    [-179, 13],
    [180, 12],
    [178, 12],
    [178, 10],
  ],
];

describe("prepared landmass index", () => {
  it("answers as an index that builds its own structures, after a snapshot round trip", () => {
    let file = 0;
    fc.assert(
      fc.property(
        fc.array(starShapeArb(30), { minLength: 1, maxLength: 5 }),
        fc.constantFrom(0, 20_000, 150_000),
        picksArb,
        (shapes, snapMeters, picks) => {
          const polygons: PolygonRings[] = shapes.map((s) => {
            const outer = star(s.lat, s.lng, s.r, s.radii);
            return s.hole ? [outer, star(s.lat, s.lng, s.r / 4, [1, 1, 1, 1, 1, 1])] : [outer];
          });
          polygons.push(ACROSS_180);
          const flat = flattenPolygons(polygons);
          // Rings and polygons of more than 5 points go through bands (2,000 when shipped).
          const options = { snapMeters, cacheSize: 0, bandedPoints: 5 };
          const own = new LandmassIndex(flat, options);
          const snap = path.join(tmp, `prepared-${file++}.snap`);
          writeSnapshot(snap, "k", { prepared: new LandmassIndex(flat, options).prepared() });
          const stored = readSnapshot<{ prepared: PreparedLandmassIndex }>(snap, "k");
          expect(stored).toBeDefined();
          const prepared = new LandmassIndex(flat, { ...options, prepared: stored!.prepared });
          for (const pick of picks) {
            const p = pickPoint(shapes, pick, 7);
            expect({ p, answer: prepared.landmassOf(p) }).toEqual({ p, answer: own.landmassOf(p) });
          }
        }
      ),
      { numRuns: 60, seed: 2911 }
    );
  });

  it("holds the bands of every long ring and polygon, and the unwrapped ring cut at ±180°", () => {
    const polygons: PolygonRings[] = [
      [star(0, 0, 2, Array(12).fill(1)), star(0, 0, 0.5, [1, 1, 1, 1])],
      [star(30, 30, 1, [1, 1, 1])],
      ACROSS_180,
    ];
    const flat = flattenPolygons(polygons);
    const p = new LandmassIndex(flat, { bandedPoints: 5 }).prepared();
    // On both sides of ±180° inside the cut ring, and just outside it, without snapping.
    const index = new LandmassIndex(flat, { bandedPoints: 5, snapMeters: 0, prepared: p });
    const points = [
      { lat: 11, lng: 179.5 },
      { lat: 11, lng: -178.5 },
      { lat: 12.9, lng: -178.5 },
      { lat: 9.5, lng: 179 },
      { lat: 0, lng: 1.9 },
      { lat: 0, lng: 0.1 },
    ];
    expect(points.map((q) => index.landmassOf(q))).toEqual([2, 2, null, null, 0, null]);
    // Polygon 0 (13 + 5 points) and its outer ring; the cut ring (8 points) and its polygon.
    expect(Array.from(p.polygonBands.ids)).toEqual([0, 2]);
    expect(Array.from(p.ringBands.ids)).toEqual([0, 3]);
    expect(Array.from(p.unwrappedIds)).toEqual([2]);
    expect(Array.from(p.unwrappedXs.subarray(p.unwrappedAt[0], p.unwrappedAt[1]))).toEqual([
      178, 180, 182, 182, 181, 180, 178, 178,
    ]);
    expect(Array.from(p.boxes.subarray(4, 8))).toEqual([
      29.5, 29.133974596215563, 31, 30.866025403784437,
    ]);
  });
});
