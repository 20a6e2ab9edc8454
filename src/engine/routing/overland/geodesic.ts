/** Ellipsoidal (WGS84) distances and great-circle polylines, shared by the barge and overland routers. */
import { Geodesic } from "geographiclib-geodesic";
import { LatLng } from "../../types";

const WGS84 = Geodesic.WGS84;

/** Geodesic distance in metres on the WGS84 ellipsoid. */
export function geodesicMeters(a: LatLng, b: LatLng): number {
  if (a.lat === b.lat && a.lng === b.lng) return 0;
  return WGS84.Inverse(a.lat, a.lng, b.lat, b.lng).s12 ?? 0;
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

const RAD = Math.PI / 180;
const MEAN_RADIUS_M = 6_371_008.8;

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
