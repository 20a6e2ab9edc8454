/**
 * The geodesy module against GeographicLib (npm geographiclib-geodesic, Karney's algorithms, exact
 * to nanometres on WGS84): deterministic pseudo-random pairs at every scale, from a harbour to
 * antipodes.
 */
import { Geodesic } from "geographiclib-geodesic";
import {
  angleBetween,
  fastGeodesicMeters,
  geodesicMeters,
  geodesicMetersBetween,
  geodesicPath,
  greatCircleMeters,
  LOWER_BOUND_RADIUS_M,
  lowerBoundMeters,
  MEAN_RADIUS_KM,
  MEAN_RADIUS_M,
  nearestOnArc,
  slerp,
  toLatLng,
  toUnit,
  WGS84_A,
  WGS84_F,
} from "../../../src/engine/geo/geodesy";

const WGS84 = Geodesic.WGS84;

interface Pair {
  lat1: number;
  lng1: number;
  lat2: number;
  lng2: number;
  /** GeographicLib's distance, metres. */
  s12: number;
}

/** Pairs at distances up to `maxKm`, built with GeographicLib's direct problem (fixed seed). */
function pairs(n: number, maxKm: number, seed: number): Pair[] {
  const rnd = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const out: Pair[] = [];
  for (let i = 0; i < n; i++) {
    const lat1 = rnd() * 170 - 85;
    const lng1 = rnd() * 360 - 180;
    const d = rnd() * maxKm * 1000;
    const p = WGS84.Direct(lat1, lng1, rnd() * 360 - 180, d);
    const lat2 = p.lat2!;
    const lng2 = p.lon2!;
    out.push({ lat1, lng1, lat2, lng2, s12: WGS84.Inverse(lat1, lng1, lat2, lng2).s12! });
  }
  return out;
}

function worst(list: Pair[], f: (p: Pair) => number): number {
  return Math.max(...list.map((p) => Math.abs(f(p) - p.s12)));
}

describe("earth constants", () => {
  it("are WGS84's and the IUGG mean radius", () => {
    expect(WGS84_A).toBe(WGS84.a);
    expect(WGS84_F).toBe(WGS84.f);
    expect(MEAN_RADIUS_M).toBe(6_371_008.8);
    // (2a + b) / 3 of WGS84, to the decimetre.
    expect(Math.abs((2 * WGS84.a + WGS84.a * (1 - WGS84.f)) / 3 - MEAN_RADIUS_M)).toBeLessThan(0.1);
    expect(MEAN_RADIUS_KM * 1000).toBe(MEAN_RADIUS_M);
  });
});

describe("geodesicMeters", () => {
  it("is GeographicLib's inverse distance", () => {
    const list = pairs(500, 20_000, 1);
    expect(worst(list, (p) => geodesicMeters(p.lat1, p.lng1, p.lat2, p.lng2))).toBe(0);
    expect(
      worst(list, (p) =>
        geodesicMetersBetween({ lat: p.lat1, lng: p.lng1 }, { lat: p.lat2, lng: p.lng2 })
      )
    ).toBe(0);
    expect(geodesicMeters(10, 20, 10, 20)).toBe(0);
  });

  it("knows a published figure: one degree of longitude on the equator is 111,319.491 m", () => {
    expect(geodesicMeters(0, 0, 0, 1)).toBeCloseTo(111_319.491, 3);
  });
});

describe("fastGeodesicMeters (Andoyer-Lambert)", () => {
  it("is within 0.25 m of GeographicLib up to 100 km", () => {
    expect(
      worst(pairs(2000, 100, 2), (p) => fastGeodesicMeters(p.lat1, p.lng1, p.lat2, p.lng2))
    ).toBeLessThan(0.25);
  });

  it("is within 5 m up to 2,000 km and 100 m (1e-5 relative) up to 15,000 km", () => {
    expect(
      worst(pairs(2000, 2000, 3), (p) => fastGeodesicMeters(p.lat1, p.lng1, p.lat2, p.lng2))
    ).toBeLessThan(5);
    const far = pairs(2000, 15_000, 4);
    expect(worst(far, (p) => fastGeodesicMeters(p.lat1, p.lng1, p.lat2, p.lng2))).toBeLessThan(100);
    for (const p of far)
      expect(
        Math.abs(fastGeodesicMeters(p.lat1, p.lng1, p.lat2, p.lng2) - p.s12)
      ).toBeLessThanOrEqual(1e-5 * p.s12 + 0.5);
  });

  it("is 0 for the same point and symmetric", () => {
    expect(fastGeodesicMeters(51.95, 4.05, 51.95, 4.05)).toBe(0);
    expect(fastGeodesicMeters(51.95, 4.05, 1.26, 103.84)).toBeCloseTo(
      fastGeodesicMeters(1.26, 103.84, 51.95, 4.05),
      6
    );
  });
});

describe("great circle and bounds", () => {
  it("greatCircleMeters (haversine, mean radius) stays within 0.6 % of the ellipsoid", () => {
    for (const p of pairs(2000, 20_000, 5)) {
      if (p.s12 < 1000) continue;
      const gc = greatCircleMeters({ lat: p.lat1, lng: p.lng1 }, { lat: p.lat2, lng: p.lng2 });
      expect(Math.abs(gc - p.s12) / p.s12).toBeLessThan(0.006);
    }
  });

  it("LOWER_BOUND_RADIUS_M × the angle between unit vectors never exceeds the geodesic (admissible A* bound)", () => {
    for (const p of pairs(5000, 20_000, 6)) {
      const a = toUnit(p.lat1, p.lng1);
      const b = toUnit(p.lat2, p.lng2);
      expect(
        LOWER_BOUND_RADIUS_M * angleBetween(a[0], a[1], a[2], b[0], b[1], b[2])
      ).toBeLessThanOrEqual(p.s12);
    }
  });

  it("lowerBoundMeters never exceeds the geodesic and is the great circle scaled to its radius", () => {
    for (const p of pairs(5000, 20_000, 7)) {
      const a = { lat: p.lat1, lng: p.lng1 };
      const b = { lat: p.lat2, lng: p.lng2 };
      expect(lowerBoundMeters(a, b)).toBeLessThanOrEqual(p.s12);
      expect(lowerBoundMeters(a, b)).toBeCloseTo(
        (greatCircleMeters(a, b) * LOWER_BOUND_RADIUS_M) / MEAN_RADIUS_M,
        6
      );
    }
  });
});

describe("unit vectors and arcs", () => {
  it("round-trips lat/lng through unit vectors", () => {
    for (const [lat, lng] of [
      [0, 0],
      [51.95, 4.05],
      [-33.9, 151.2],
      [89.9, -179.9],
    ]) {
      const back = toLatLng(toUnit(lat, lng));
      expect(back.lat).toBeCloseTo(lat, 10);
      expect(back.lng).toBeCloseTo(lng, 10);
    }
  });

  it("slerp's midpoint and the nearest point on an arc agree with GeographicLib's sphere-free checks", () => {
    const a = toUnit(0, 0);
    const b = toUnit(0, 90);
    const mid = toLatLng(slerp(a, b, 0.5));
    expect(mid.lat).toBeCloseTo(0, 12);
    expect(mid.lng).toBeCloseTo(45, 12);
    // A point 1° north of the arc's middle: nearest at the middle, 1° away.
    const hit = nearestOnArc(toUnit(1, 45), a, b);
    expect(toLatLng(hit.point).lng).toBeCloseTo(45, 9);
    expect(hit.angle).toBeCloseTo(Math.PI / 180, 12);
    // Beyond the arc's end: nearest is the end point.
    expect(nearestOnArc(toUnit(0, 100), a, b).point).toBe(b);
  });

  it("geodesicPath runs along the geodesic: end points exact, the middle at half GeographicLib's length", () => {
    const a = { lat: 51.95, lng: 4.05 };
    const b = { lat: 40.67, lng: -74.04 };
    const path = geodesicPath(a, b, 10);
    expect(path).toHaveLength(11);
    expect(path[0]).toEqual(a);
    expect(path[10]).toEqual(b);
    const total = geodesicMetersBetween(a, b);
    expect(geodesicMetersBetween(a, path[5])).toBeCloseTo(total / 2, 3);
  });
});
