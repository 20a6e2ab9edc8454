/**
 * The water round a point inside land (LandIndex.watersAround), on seeded random points that
 * Natural Earth 1:50m draws inside land near its coasts: the nearest side is nearestWater's point,
 * every side is water within the reach asked, and the sides lie in different directions.
 */
import { coastalPoints, seeded } from "../../../src/bench/open-water";
import { loadCoastIndex } from "../../../src/data/sea";
import { loadSeaLandPolygons } from "../../../src/data/inland";
import { geodesicMeters } from "../../../src/engine/geo/geodesy";
import { LandIndex } from "../../../src/engine/routing/sea/land-crossing";
import { WATER_MOVE_MAX_M, WATER_SIDES } from "../../../src/engine/routing/sea/tuning";

const land = loadCoastIndex();
const random = seeded(2929);
// Points 0.5-8 km from a coast vertex that fall inside land (the negation of coastalPoints' test).
const inland = coastalPoints(loadSeaLandPolygons(), invert(land), 600, random, {
  offsetM: [500, 8_000],
});

function invert(index: LandIndex): LandIndex {
  return new Proxy(index, {
    get(target, key) {
      if (key === "isLand") return (lat: number, lng: number) => !target.isLand(lat, lng);
      const v = Reflect.get(target, key);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

describe("watersAround", () => {
  it("draws 600 points inside land", () => {
    expect(inland.length).toBe(600);
    expect(inland.every((p) => land.isLand(p.lat, p.lng))).toBe(true);
  });

  it("starts with nearestWater's point; every side is water within its reach", () => {
    let several = 0;
    for (const p of inland) {
      const sides = land.watersAround(p.lat, p.lng, WATER_MOVE_MAX_M, WATER_SIDES);
      const nearest = land.nearestWater(p.lat, p.lng, WATER_MOVE_MAX_M);
      expect(sides.length > 0).toBe(nearest !== null);
      if (!nearest) continue;
      expect(sides[0].lat).toBeCloseTo(nearest.lat, 9);
      expect(sides[0].lng).toBeCloseTo(nearest.lng, 9);
      const first = geodesicMeters(p.lat, p.lng, sides[0].lat, sides[0].lng);
      for (const w of sides) {
        expect(land.isLand(w.lat, w.lng)).toBe(false);
        const m = geodesicMeters(p.lat, p.lng, w.lat, w.lng);
        // The reach is on the coast; the point lies up to 1 km (5 x 200 m) beyond it.
        expect(m).toBeLessThanOrEqual(WATER_SIDES.reach * first + WATER_SIDES.slackM + 1_100);
        expect(m).toBeLessThanOrEqual(WATER_MOVE_MAX_M + 1_100);
      }
      // No two sides in the same direction from the point (one per sector).
      const bearings = sides.map((w) => Math.atan2(w.lat - p.lat, w.lng - p.lng));
      expect(new Set(bearings.map((b) => b.toFixed(6))).size).toBe(sides.length);
      if (sides.length > 1) several++;
    }
    // Most coastal points have water on more than one side (the measure, not a bound on it).
    expect(several).toBeGreaterThan(100);
  });
});
