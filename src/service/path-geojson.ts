/**
 * The routed path of a distance query as a GeoJSON Feature (RFC 7946), thinned for transport.
 * Pure: no I/O, so it is tested directly as well as through the /path route.
 */
import type { LatLng, Modality, Passage, RouteBasis } from "../engine/types";

/** Most points a path answer carries; a deep-sea path has a few thousand before thinning. */
export const MAX_PATH_POINTS = 500;
/** Points closer than this (degrees) to the line through their neighbours are dropped anyway. */
const MIN_DEVIATION_DEG = 0.001;

export interface PathFeature {
  type: "Feature";
  geometry: { type: "LineString"; coordinates: [number, number][] };
  properties: {
    distance: number;
    modality: Modality;
    passages: Passage[];
    basis?: RouteBasis;
    /** Sea routes: metres each end was moved onto the sea network. */
    snapDistance?: { origin: number; destination: number };
  };
}

/**
 * Builds the Feature. Longitudes are normalised to [-180, 180]; consecutive points are always
 * joined the short way round (the router never makes a step of 180° or more), so a viewer that
 * draws segments as great circles (d3-geo) or unwraps by the shorter step crosses ±180° correctly.
 */
export function pathFeature(
  result: {
    distance: number;
    passages: Passage[];
    path: LatLng[];
    basis?: RouteBasis;
    snapDistance?: { origin: number; destination: number };
  },
  modality: Modality,
  maxPoints = MAX_PATH_POINTS
): PathFeature {
  const thinned = simplifyPath(
    result.path.map((p): [number, number] => [p.lng, p.lat]),
    maxPoints
  );
  return {
    type: "Feature",
    geometry: {
      type: "LineString",
      coordinates: thinned.map(([lng, lat]) => [round6(normaliseLongitude(lng)), round6(lat)]),
    },
    properties: {
      distance: result.distance,
      modality,
      passages: [...result.passages],
      ...(result.basis ? { basis: result.basis } : {}),
      ...(result.snapDistance && { snapDistance: { ...result.snapDistance } }),
    },
  };
}

/**
 * Douglas–Peucker by priority: starting from the two ends, repeatedly adds the point that lies
 * farthest from the current simplified line, until `maxPoints` are kept or every remaining point
 * is within MIN_DEVIATION_DEG. The ends are always kept, and the result is the best `maxPoints`
 * approximation this greedy order gives. Works on unwrapped longitudes, so ±180° is no edge.
 */
export function simplifyPath(
  points: [number, number][],
  maxPoints = MAX_PATH_POINTS
): [number, number][] {
  const unwrapped = unwrapLongitudes(points);
  if (unwrapped.length <= 2) return unwrapped;
  const limit = Math.max(2, maxPoints);
  const keep = new Uint8Array(unwrapped.length);
  keep[0] = 1;
  keep[unwrapped.length - 1] = 1;
  let kept = 2;
  // Open segments [from, to] with their farthest inner point; small enough for a linear scan.
  const segments: { from: number; to: number; at: number; deviation: number }[] = [];
  const open = (from: number, to: number) => {
    if (to - from < 2) return;
    const far = farthest(unwrapped, from, to);
    if (far.deviation > MIN_DEVIATION_DEG) segments.push({ from, to, ...far });
  };
  open(0, unwrapped.length - 1);
  while (kept < limit && segments.length) {
    let best = 0;
    for (let i = 1; i < segments.length; i++)
      if (segments[i].deviation > segments[best].deviation) best = i;
    const s = segments[best];
    segments[best] = segments[segments.length - 1];
    segments.pop();
    keep[s.at] = 1;
    kept++;
    open(s.from, s.at);
    open(s.at, s.to);
  }
  return unwrapped.filter((_, i) => keep[i]);
}

/** Removes jumps of more than 180° between consecutive longitudes (a path given in [-180, 180]). */
export function unwrapLongitudes(points: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [lng, lat] of points) {
    if (!out.length) {
      out.push([lng, lat]);
      continue;
    }
    const prev = out[out.length - 1][0];
    let l = lng;
    while (l - prev > 180) l -= 360;
    while (prev - l > 180) l += 360;
    out.push([l, lat]);
  }
  return out;
}

export function normaliseLongitude(lng: number): number {
  const l = ((((lng + 180) % 360) + 360) % 360) - 180;
  // Keep +180 as given rather than turning it into -180.
  return l === -180 && lng > 0 ? 180 : l;
}

function farthest(
  points: [number, number][],
  from: number,
  to: number
): { at: number; deviation: number } {
  const [ax, ay] = points[from];
  const [bx, by] = points[to];
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  let at = from + 1;
  let deviation = -1;
  for (let i = from + 1; i < to; i++) {
    const [px, py] = points[i];
    // Distance to the segment (not the infinite line), so a path doubling back is not lost.
    const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
    const d = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
    if (d > deviation) {
      deviation = d;
      at = i;
    }
  }
  return { at, deviation };
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}
