/**
 * The project's one geodesy module: earth constants, distances on the WGS84 ellipsoid (exact, by
 * GeographicLib, and a fast first-order approximation), the spherical great-circle distance, unit
 * vectors and arcs on the sphere (for snapping and lower bounds), and small local helpers. Pure: no
 * I/O. Used by the sea, barge, overland and optimizer code.
 */
import { Geodesic } from "geographiclib-geodesic";
import { LatLng } from "../types";

const WGS84 = Geodesic.WGS84;

/** WGS84 semi-major axis (metres) and flattening. */
export const WGS84_A = 6_378_137;
export const WGS84_F = 1 / 298.257223563;

/**
 * Mean earth radius (IUGG R1 = (2a + b) / 3), for spherical figures only: ranking snap candidates,
 * sampling steps, cheap bounds. Reported distances are ellipsoidal.
 */
export const MEAN_RADIUS_M = 6_371_008.8;
export const MEAN_RADIUS_KM = MEAN_RADIUS_M / 1000;

/** Radians per degree. */
export const RAD = Math.PI / 180;

/** Geodesic distance in metres on the WGS84 ellipsoid (GeographicLib, exact to the nanometre). */
export function geodesicMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  if (lat1 === lat2 && lng1 === lng2) return 0;
  return WGS84.Inverse(lat1, lng1, lat2, lng2).s12 ?? 0;
}

/**
 * Smallest radius of curvature of the WGS84 ellipsoid, a(1 - e²) (meridian at the equator). Any
 * geodesic is at least this radius times the angle between the end points' normals, so a spherical
 * distance with this radius (on geodetic coordinates) never overestimates: an admissible A* bound.
 */
export const LOWER_BOUND_RADIUS_M = 6_335_439 * 0.9999;

export type Vec3 = [number, number, number];

export function toUnit(lat: number, lng: number): Vec3 {
  const phi = lat * RAD;
  const lam = lng * RAD;
  const c = Math.cos(phi);
  return [c * Math.cos(lam), c * Math.sin(lam), Math.sin(phi)];
}

/**
 * toUnit(lat, lng) written into out[at .. at + 2]: the same arithmetic, no array made (for the
 * land tests that run for every leg tried).
 */
export function unitInto(out: Float64Array, at: number, lat: number, lng: number): void {
  const phi = lat * RAD;
  const lam = lng * RAD;
  const c = Math.cos(phi);
  out[at] = c * Math.cos(lam);
  out[at + 1] = c * Math.sin(lam);
  out[at + 2] = Math.sin(phi);
}

export function toLatLng(v: Vec3): { lat: number; lng: number } {
  return { lat: unitLat(v[0], v[1], v[2]), lng: unitLng(v[0], v[1]) };
}

/**
 * Latitude and longitude (degrees) of the unit vector (x, y, z), as two plain numbers: for the
 * loops that sample legs point by point and must not allocate an object per point.
 */
export function unitLat(x: number, y: number, z: number): number {
  return Math.atan2(z, Math.sqrt(x * x + y * y)) / RAD;
}

export function unitLng(x: number, y: number): number {
  return Math.atan2(y, x) / RAD;
}

/** Angle in radians between unit vectors, stable for small angles. */
export function angleBetween(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number
): number {
  const cx = ay * bz - az * by;
  const cy = az * bx - ax * bz;
  const cz = ax * by - ay * bx;
  // Math.sqrt, not Math.hypot: the builtin boxes its result (a hot path of snapping and routing).
  return Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ax * bx + ay * by + az * bz);
}

/**
 * Nearest point to P on the great-circle arc A→B (all unit vectors).
 * Returns the point and its angular distance to P (radians).
 */
export function nearestOnArc(p: Vec3, a: Vec3, b: Vec3): { point: Vec3; angle: number } {
  // n = a × b, the arc's pole.
  let nx = a[1] * b[2] - a[2] * b[1];
  let ny = a[2] * b[0] - a[0] * b[2];
  let nz = a[0] * b[1] - a[1] * b[0];
  const nn = Math.hypot(nx, ny, nz);
  if (nn > 1e-12) {
    nx /= nn;
    ny /= nn;
    nz /= nn;
    const d = p[0] * nx + p[1] * ny + p[2] * nz;
    let cx = p[0] - d * nx;
    let cy = p[1] - d * ny;
    let cz = p[2] - d * nz;
    const cn = Math.hypot(cx, cy, cz);
    if (cn > 1e-12) {
      cx /= cn;
      cy /= cn;
      cz /= cn;
      // C lies on the arc when it is on the A→B side of both end points.
      const s1 =
        (a[1] * cz - a[2] * cy) * nx + (a[2] * cx - a[0] * cz) * ny + (a[0] * cy - a[1] * cx) * nz;
      const s2 =
        (cy * b[2] - cz * b[1]) * nx + (cz * b[0] - cx * b[2]) * ny + (cx * b[1] - cy * b[0]) * nz;
      if (s1 >= 0 && s2 >= 0) {
        return { point: [cx, cy, cz], angle: angleBetween(p[0], p[1], p[2], cx, cy, cz) };
      }
    }
  }
  const da = angleBetween(p[0], p[1], p[2], a[0], a[1], a[2]);
  const db = angleBetween(p[0], p[1], p[2], b[0], b[1], b[2]);
  return da <= db ? { point: a, angle: da } : { point: b, angle: db };
}

/** Point on the great-circle arc A→B at fraction t (slerp). */
export function slerp(a: Vec3, b: Vec3, t: number): Vec3 {
  const omega = angleBetween(a[0], a[1], a[2], b[0], b[1], b[2]);
  if (omega < 1e-12) return a;
  const s = Math.sin(omega);
  const wa = Math.sin((1 - t) * omega) / s;
  const wb = Math.sin(t * omega) / s;
  return [wa * a[0] + wb * b[0], wa * a[1] + wb * b[1], wa * a[2] + wb * b[2]];
}

/**
 * Andoyer-Lambert distance on the WGS84 ellipsoid: a spherical distance with a first-order
 * flattening correction, within a few metres of the exact geodesic over hundreds of kilometres
 * (and about 10 m over thousands). Cheap, for snap offsets and leg lengths on the hot path.
 */
export function fastGeodesicMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  if (lat1 === lat2 && lng1 === lng2) return 0;
  const f = WGS84_F;
  // Reduced latitudes.
  const b1 = Math.atan((1 - f) * Math.tan(lat1 * RAD));
  const b2 = Math.atan((1 - f) * Math.tan(lat2 * RAD));
  const P = (b1 + b2) / 2;
  const Q = (b2 - b1) / 2;
  const dl = (lng2 - lng1) * RAD;
  const sinQ = Math.sin(Q);
  const cosP = Math.cos(P);
  const sinDl2 = Math.sin(dl / 2);
  const h = sinQ * sinQ + Math.cos(b1) * Math.cos(b2) * sinDl2 * sinDl2;
  const sigma = 2 * Math.asin(Math.min(1, Math.sqrt(h)));
  if (sigma < 1e-12) return 0;
  const sinS = Math.sin(sigma);
  const sinP = Math.sin(P);
  const cosQ = Math.cos(Q);
  const sinS2 = Math.sin(sigma / 2);
  const cosS2 = Math.cos(sigma / 2);
  const X = sinS2 === 0 ? 0 : ((sigma - sinS) * (sinP * cosQ) ** 2) / (cosS2 * cosS2);
  const Y = cosS2 === 0 ? 0 : ((sigma + sinS) * (cosP * sinQ) ** 2) / (sinS2 * sinS2);
  return WGS84_A * (sigma - (f / 2) * (X + Y));
}

/** geodesicMeters between two points. */
export function geodesicMetersBetween(a: LatLng, b: LatLng): number {
  return geodesicMeters(a.lat, a.lng, b.lat, b.lng);
}

/**
 * Great-circle (haversine) distance on the sphere of the mean radius: up to ~0.5 % off the
 * ellipsoid, for bounds and prefilters only.
 */
export function greatCircleMeters(a: LatLng, b: LatLng): number {
  return MEAN_RADIUS_M * centralAngle(a, b);
}

/**
 * The great circle on the sphere of LOWER_BOUND_RADIUS_M: never above the geodesic between the
 * points, so never above any way between them (an admissible bound for A* and for skipping work).
 */
export function lowerBoundMeters(a: LatLng, b: LatLng): number {
  return LOWER_BOUND_RADIUS_M * centralAngle(a, b);
}

/** Angle in radians between two points seen from the sphere's centre (haversine). */
function centralAngle(a: LatLng, b: LatLng): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLng = (b.lng - a.lng) * RAD;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** `segments + 1` points along the geodesic from a to b (both ends included), for map paths. */
export function geodesicPath(a: LatLng, b: LatLng, segments: number): LatLng[] {
  const line = WGS84.InverseLine(a.lat, a.lng, b.lat, b.lng);
  const total = line.s13;
  const out: LatLng[] = [{ lat: a.lat, lng: a.lng }];
  for (let i = 1; i < segments; i++) {
    const p = line.Position((total * i) / segments);
    out.push({ lat: p.lat2 ?? a.lat, lng: normaliseLng(p.lon2 ?? a.lng) });
  }
  out.push({ lat: b.lat, lng: b.lng });
  return out;
}

export function normaliseLng(lng: number): number {
  return ((((lng + 180) % 360) + 360) % 360) - 180;
}

/**
 * Metres from p to the segment a–b in a local equirectangular projection centred on p. Only for
 * snapping within a few tens of kilometres, where the projection error is far below the snap radius.
 */
export function localSegmentMeters(p: LatLng, a: LatLng, b: LatLng): { meters: number; t: number } {
  const k = Math.cos(p.lat * RAD);
  const ax = wrapDelta(a.lng - p.lng) * k;
  const ay = a.lat - p.lat;
  const bx = wrapDelta(b.lng - p.lng) * k;
  const by = b.lat - p.lat;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  const x = ax + t * dx;
  const y = ay + t * dy;
  return { meters: Math.hypot(x, y) * RAD * MEAN_RADIUS_M, t };
}

function wrapDelta(d: number): number {
  if (d > 180) return d - 360;
  if (d < -180) return d + 360;
  return d;
}

/** Degrees of latitude spanned by `meters` (for bounding-box prefilters). */
export function metersToDegrees(meters: number): number {
  return meters / (RAD * MEAN_RADIUS_M);
}
