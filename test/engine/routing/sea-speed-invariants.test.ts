/**
 * What the sea router's speed work (issue 29.1) relies on, checked over random inputs (seeded, no
 * reference table): the spherical distance that settles most detour checks without GeographicLib
 * stays within SPHERE_ERROR of the ellipsoid's; string pulling gives the same answer whatever
 * path it smoothed before (it reuses its buffers from call to call).
 */
import {
  angleBetween,
  fastGeodesicMeters,
  geodesicMeters,
  MEAN_RADIUS_M,
  toUnit,
} from "../../../src/engine/geo/geodesy";
import { PathBuffer } from "../../../src/engine/routing/sea/path-buffer";
import { SPHERE_ERROR } from "../../../src/engine/routing/sea/sea-router";
import { pullStraight, PullOptions } from "../../../src/engine/routing/sea/string-pull";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function sphericalMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const a = toUnit(lat1, lng1);
  const b = toUnit(lat2, lng2);
  return MEAN_RADIUS_M * angleBetween(a[0], a[1], a[2], b[0], b[1], b[2]);
}

describe("sea router speed invariants", () => {
  it("the ellipsoidal distance stays within SPHERE_ERROR of the mean-radius sphere's", () => {
    const r = rng(29_1);
    let worst = 0;
    for (let i = 0; i < 4000; i++) {
      // Short and long legs, anywhere (the short ones near the poles and along meridians are the
      // extremes: the ellipsoid's radii of curvature there are the farthest from the mean).
      const lat1 = Math.asin(2 * r() - 1) * (180 / Math.PI);
      const lng1 = 360 * r() - 180;
      const reach = i % 2 ? 0.01 + 2 * r() : 180 * r();
      const lat2 = Math.max(-90, Math.min(90, lat1 + reach * (2 * r() - 1)));
      const lng2 = lng1 + reach * (2 * r() - 1);
      const s = sphericalMeters(lat1, lng1, lat2, lng2);
      if (s < 1) continue;
      worst = Math.max(worst, Math.abs(geodesicMeters(lat1, lng1, lat2, lng2) / s - 1));
    }
    // The WGS84 flattening puts the worst case near 0.56 % (meridian at the equator).
    expect(worst).toBeGreaterThan(0.004);
    expect(worst).toBeLessThan(SPHERE_ERROR);
  });

  it("string pulling gives the same path and metres after pulling a longer or shorter path", () => {
    const options: PullOptions = {
      window: 8,
      maxLegM: 3_000_000,
      minSaveM: 500,
      minSaveShare: 0.002,
      maxTests: 200,
    };
    const zigzag = (n: number, seed: number): PathBuffer => {
      const r = rng(seed);
      const path = new PathBuffer();
      for (let i = 0; i < n; i++) path.add(10 + 0.2 * i, 20 + (i % 2 ? 0.3 : -0.3) * r());
      return path;
    };
    // A leg is "clear" by a fixed rule of its two ends' coordinates (no land needed here).
    const metres = (path: PathBuffer): number => {
      let m = 0;
      for (let k = 1; k < path.length; k++)
        m += fastGeodesicMeters(path.lat(k - 1), path.lng(k - 1), path.lat(k), path.lng(k));
      return m;
    };
    const pull = (path: PathBuffer): { saved: number; points: number[] } => {
      const clear = (i: number, j: number): boolean =>
        Math.floor(1000 * (path.lat(i) + path.lng(j))) % 3 !== 0;
      const before = metres(path);
      const { saved } = pullStraight(path, 0, path.length - 1, clear, options);
      // What it says it saved is what the path lost: no point dropped or kept by mistake.
      expect(metres(path)).toBeCloseTo(before - saved, 3);
      const points: number[] = [];
      for (let k = 0; k < path.length; k++) points.push(path.lat(k), path.lng(k));
      return { saved, points };
    };
    const long = pull(zigzag(700, 1));
    const short = pull(zigzag(40, 2));
    expect(long.saved).toBeGreaterThan(0);
    expect(short.saved).toBeGreaterThan(0);
    expect(pull(zigzag(40, 2))).toEqual(short);
    expect(pull(zigzag(700, 1))).toEqual(long);
    expect(long.points.length).toBeLessThan(2 * 700);
  });
});
