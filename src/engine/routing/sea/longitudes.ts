/**
 * Route longitudes made continuous for maps: a trans-Pacific route eastward from Asia goes on past
 * 180 (e.g. 190 = 170°W) instead of jumping to -180.
 */
import { LatLng } from "../../types";
import { slerp, toLatLng, toUnit } from "../../geo/geodesy";

/**
 * Longitudes made continuous: each point within 180° of the previous one (so they may leave
 * [-180, 180]). Where a leg crosses the antimeridian, the crossing point itself is inserted (at
 * longitude exactly ±180, or the matching unwrapped value), so a map can also split the line there.
 */
export function unwrapLongitudes(path: LatLng[]): LatLng[] {
  let jumps = false;
  for (let i = 1; i < path.length && !jumps; i++)
    jumps = Math.abs(path[i].lng - path[i - 1].lng) > 180;
  if (!jumps) return path; // the common case: nothing to unwrap, no copy
  const out: LatLng[] = path.length ? [path[0]] : [];
  for (let i = 1; i < path.length; i++) {
    const prev = out[out.length - 1];
    let lng = path[i].lng;
    while (lng - prev.lng > 180) lng -= 360;
    while (lng - prev.lng < -180) lng += 360;
    // An odd multiple of 180 strictly between the two longitudes: the leg crosses the antimeridian.
    const k = Math.floor((Math.max(prev.lng, lng) - 180) / 360);
    const meridian = 180 + 360 * k;
    if (meridian > Math.min(prev.lng, lng) && meridian < Math.max(prev.lng, lng)) {
      out.push({ lat: crossingLatitude(prev, { lat: path[i].lat, lng }, meridian), lng: meridian });
    }
    out.push(lng === path[i].lng ? path[i] : { lat: path[i].lat, lng });
  }
  return out;
}

/** Latitude where the great-circle arc a→b crosses the given (unwrapped) meridian (bisection). */
function crossingLatitude(a: LatLng, b: LatLng, meridian: number): number {
  const ua = toUnit(a.lat, a.lng);
  const ub = toUnit(b.lat, b.lng);
  let lo = 0;
  let hi = 1;
  let lat = a.lat;
  for (let it = 0; it < 40; it++) {
    const t = (lo + hi) / 2;
    const p = toLatLng(slerp(ua, ub, t));
    lat = p.lat;
    // Unwrap p's longitude next to a's and compare with the meridian.
    let lng = p.lng;
    while (lng - a.lng > 180) lng -= 360;
    while (lng - a.lng < -180) lng += 360;
    if (lng < meridian === a.lng < meridian) lo = t;
    else hi = t;
  }
  return lat;
}
