/**
 * Corner tightening (src/engine/routing/sea/tighten.ts) on seeded random worlds of round islands:
 * the ends stay, no leg crosses an island, the path never grows, the metres it says it saved are
 * what the path lost, and round a single island it comes within the offing of the shortest way.
 */
import { fastGeodesicMeters, nearestOnArc, RAD, toUnit } from "../../../src/engine/geo/geodesy";
import { PathBuffer } from "../../../src/engine/routing/sea/path-buffer";
import { tightenCorners, TightenOptions } from "../../../src/engine/routing/sea/tighten";
import { LatLng } from "../../../src/engine/types";

const OPTIONS: TightenOptions = {
  passes: 3,
  bisections: 7,
  minSaveM: 300,
  offingM: 1_000,
  maxTests: 400,
};

function rng(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** An island: a round cap of the sphere, its radius in degrees of arc. */
interface Disc {
  lat: number;
  lng: number;
  radiusDeg: number;
}

/** Longitudes to the local plane at 40°N (for the shortest way's planar estimate). */
const K = Math.cos(40 * RAD);

/** Whether the great-circle leg a→b passes within the disc (a cap of the sphere, as legs are arcs). */
function hits(a: LatLng, b: LatLng, d: Disc): boolean {
  const near = nearestOnArc(toUnit(d.lat, d.lng), toUnit(a.lat, a.lng), toUnit(b.lat, b.lng));
  return near.angle < d.radiusDeg * RAD;
}

function metres(path: PathBuffer): number {
  let m = 0;
  for (let k = 1; k < path.length; k++)
    m += fastGeodesicMeters(path.lat(k - 1), path.lng(k - 1), path.lat(k), path.lng(k));
  return m;
}

function pathOf(points: LatLng[]): PathBuffer {
  const p = new PathBuffer();
  for (const q of points) p.add(q.lat, q.lng);
  return p;
}

describe("tightenCorners", () => {
  it("on 300 random worlds: ends kept, no leg across an island, saved = what the path lost", () => {
    const r = rng(29_3);
    let tightened = 0;
    for (let world = 0; world < 300; world++) {
      const discs: Disc[] = Array.from({ length: 1 + Math.floor(r() * 4) }, () => ({
        lat: 40 + r() * 1.6 - 0.8,
        lng: r() * 1.6 - 0.8,
        radiusDeg: 0.05 + r() * 0.2,
      }));
      const clear = (a: LatLng, b: LatLng): boolean => !discs.some((d) => hits(a, b, d));
      // A clear zigzag from west to east: random corners far off the straight line, kept only
      // while each leg is clear.
      const points: LatLng[] = [{ lat: 40 + r() - 0.5, lng: -1.5 }];
      for (let i = 1; i <= 4; i++) {
        const q = { lat: 40 + (r() - 0.5) * 3, lng: -1.5 + (3 * i) / 5 };
        if (clear(points[points.length - 1], q)) points.push(q);
      }
      const end = { lat: 40 + r() - 0.5, lng: 1.5 };
      if (!clear(points[points.length - 1], end)) continue;
      points.push(end);
      const path = pathOf(points);
      const before = metres(path);
      const saved = tightenCorners(path, (a, b) => clear(a, b), OPTIONS);
      expect(path.point(0)).toEqual(points[0]);
      expect(path.point(path.length - 1)).toEqual(end);
      for (let k = 1; k < path.length; k++)
        expect(clear(path.point(k - 1), path.point(k))).toBe(true);
      expect(saved).toBeGreaterThanOrEqual(0);
      expect(metres(path)).toBeCloseTo(before - saved, 3);
      if (saved > 0) tightened++;
    }
    // Most zigzags have a corner to pull in (the measure of the property, not a bound on it).
    expect(tightened).toBeGreaterThan(200);
  });

  it("round one island, comes within the offing of the shortest way (two tangents and the arc)", () => {
    const r = rng(29_4);
    for (let i = 0; i < 50; i++) {
      const d: Disc = { lat: 40, lng: 0, radiusDeg: 0.1 + 0.2 * r() };
      const clear = (a: LatLng, b: LatLng): boolean => !hits(a, b, d);
      // Ends west and east of the island, the straight line through it; a corner far to the north.
      const a = { lat: 40 + (r() - 0.5) * 0.1, lng: -1 };
      const b = { lat: 40 + (r() - 0.5) * 0.1, lng: 1 };
      const path = pathOf([a, { lat: 41.2, lng: r() - 0.5 }, b]);
      tightenCorners(path, clear, OPTIONS);
      // Shortest way on the plane round the disc's north side (radius ρ, ends at distance ℓ):
      // two tangents √(ℓ² − ρ²) and the arc between the tangent points.
      const km = 111.195;
      const way = (p: LatLng): { tangent: number; angle: number } => {
        const l = Math.hypot((p.lng - d.lng) * K, p.lat - d.lat);
        return {
          tangent: Math.sqrt(l * l - d.radiusDeg ** 2),
          angle: Math.acos(d.radiusDeg / l),
        };
      };
      const wa = way(a);
      const wb = way(b);
      const angA = Math.atan2(a.lat - d.lat, (a.lng - d.lng) * K);
      const angB = Math.atan2(b.lat - d.lat, (b.lng - d.lng) * K);
      // The north side's angle between the ends, from b's direction counter-clockwise to a's.
      const north = (((angA - angB) % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
      const arc = Math.max(0, north - wa.angle - wb.angle);
      const shortestKm = (wa.tangent + wb.tangent + d.radiusDeg * arc) * km;
      const gotKm = metres(path) / 1000;
      expect(gotKm).toBeGreaterThanOrEqual(shortestKm * 0.995);
      // One corner cannot follow the arc: the two tangents meeting above it, plus the offing.
      const cornerKm = (wa.tangent + wb.tangent + d.radiusDeg * 2 * Math.tan(arc / 2)) * km;
      expect(gotKm).toBeLessThan(cornerKm * 1.01 + 2 * (OPTIONS.offingM / 1000));
    }
  });
});
