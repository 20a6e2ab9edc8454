/**
 * Corners pulled in round the land that makes them ("tightening"). String pulling (string-pull.ts)
 * only drops points, so where the network turns 10-20 km off a cape or an island next to a port,
 * the route turns there too, though a ship rounds the cape itself. Here each corner slides along
 * its legs towards its neighbours as far as the land lets it (found by bisection), then back by an
 * offing; a corner whose neighbours see each other is dropped. Passes repeat while they save, so a
 * run of corners settles round the coast.
 *
 * Whether a leg is clear is the caller's test (exact land, passage areas), as in string pulling.
 */
import { LatLng } from "../../types";
import {
  angleBetween,
  fastGeodesicMeters,
  MEAN_RADIUS_M,
  slerp,
  toUnit,
  unitLat,
  unitLng,
} from "../../geo/geodesy";
import { PathBuffer } from "./path-buffer";

export interface TightenOptions {
  /** Passes over the path (a pass that saves nothing ends it). */
  passes: number;
  /** Halvings of the move towards the straight line. */
  bisections: number;
  /** A corner is worked on only when its two legs exceed its straight line by this many metres. */
  minSaveM: number;
  /** The moved corner keeps this far back (metres, along its move) from where a leg touches land. */
  offingM: number;
  /** Leg tests allowed per path. */
  maxTests: number;
}

/**
 * Tightens the corners of `path` strictly between its first and last points, in place; returns
 * the metres saved. `isClear(a, b, ia, ib)` tells whether the straight leg a→b is open, where ia
 * and ib are the path indices the two ends stand at (so the caller knows a query point).
 *
 * A corner v between u and w slides along its leg towards u as far as the leg to w stays clear,
 * then along its other leg towards w as far as the leg from u stays clear: the leg it slides along
 * only gets shorter (a part of a clear leg is clear) and by the triangle inequality so does the
 * path. Repeated, the corner settles where both legs touch the land round which it turns.
 */
export function tightenCorners(
  path: PathBuffer,
  isClear: (a: LatLng, b: LatLng, ia: number, ib: number) => boolean,
  o: TightenOptions
): number {
  let saved = 0;
  const budget = { tests: o.maxTests };
  for (let pass = 0; pass < o.passes && budget.tests > 0; pass++) {
    let passSaved = 0;
    for (let k = 1; k < path.length - 1 && budget.tests > 0; k++) {
      const legU = fastGeodesicMeters(path.lat(k - 1), path.lng(k - 1), path.lat(k), path.lng(k));
      const legW = fastGeodesicMeters(path.lat(k), path.lng(k), path.lat(k + 1), path.lng(k + 1));
      const chord = fastGeodesicMeters(
        path.lat(k - 1),
        path.lng(k - 1),
        path.lat(k + 1),
        path.lng(k + 1)
      );
      if (legU + legW - chord <= o.minSaveM) continue;
      budget.tests--;
      if (isClear(path.point(k - 1), path.point(k + 1), k - 1, k + 1)) {
        path.remove(k, 1);
        passSaved += legU + legW - chord;
        k--;
        continue;
      }
      // Towards u keeping the leg to w clear, then towards w keeping the leg from u clear.
      slide(path, k, k - 1, k + 1, isClear, o, budget);
      slide(path, k, k + 1, k - 1, isClear, o, budget);
      const gain =
        legU +
        legW -
        fastGeodesicMeters(path.lat(k - 1), path.lng(k - 1), path.lat(k), path.lng(k)) -
        fastGeodesicMeters(path.lat(k), path.lng(k), path.lat(k + 1), path.lng(k + 1));
      passSaved += gain;
    }
    saved += passSaved;
    if (passSaved < o.minSaveM) break;
  }
  return saved;
}

/**
 * Moves corner k along its leg towards point `toward` as far as the leg between it and point
 * `other` stays clear (bisection), less the offing; leaves it when no move is clear.
 */
function slide(
  path: PathBuffer,
  k: number,
  toward: number,
  other: number,
  isClear: (a: LatLng, b: LatLng, ia: number, ib: number) => boolean,
  o: TightenOptions,
  budget: { tests: number }
): void {
  const V = toUnit(path.lat(k), path.lng(k));
  const T = toUnit(path.lat(toward), path.lng(toward));
  const lengthM = MEAN_RADIUS_M * angleBetween(V[0], V[1], V[2], T[0], T[1], T[2]);
  if (lengthM <= 2 * o.offingM) return;
  const far = path.point(other);
  const p: LatLng = { lat: 0, lng: 0 };
  const at = (s: number): LatLng => {
    const q = slerp(V, T, s);
    p.lat = unitLat(q[0], q[1], q[2]);
    p.lng = unitLng(q[0], q[1]);
    return p;
  };
  const clearAt = (s: number): boolean => {
    budget.tests--;
    const q = at(s);
    return other < k ? isClear(far, q, other, k) : isClear(q, far, k, other);
  };
  // s = 1 is the corner's neighbour itself, whose straight leg to `other` is the chord (blocked).
  let lo = 0;
  let hi = 1;
  for (let b = 0; b < o.bisections && budget.tests > 0; b++) {
    const mid = (lo + hi) / 2;
    if (clearAt(mid)) lo = mid;
    else hi = mid;
  }
  let s = lo - o.offingM / lengthM;
  if (s <= 0) return;
  if (!clearAt(s)) s = lo;
  const q = at(s);
  path.set(k, q.lat, q.lng);
}
