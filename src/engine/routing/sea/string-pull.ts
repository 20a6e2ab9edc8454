/**
 * Any-angle smoothing of a routed polyline ("string pulling"): from each kept point, the farthest
 * of the next few points that a straight leg reaches in open water replaces the points between,
 * when that saves distance. The network's lines bend where MARNET's tracks meet and where a lane
 * joins another; ships sail straight across such corners wherever the water is open.
 *
 * Whether a leg is open is the caller's test (land, passage areas): a leg that would enter a canal
 * or strait is refused there, so smoothing never skips a passage or the closure of one.
 */
import { fastGeodesicMeters } from "../../geo/geodesy";
import { PathBuffer } from "./path-buffer";

export interface PullOptions {
  /** Points looked ahead from each kept point. */
  window: number;
  /** Longest straight leg tried, metres. */
  maxLegM: number;
  /** A leg is tried only when it saves more than this many metres… */
  minSaveM: number;
  /** …and more than this share of its length. */
  minSaveShare: number;
  /** Leg tests allowed per path (bounds the work on a long coastal route). */
  maxTests: number;
}

/**
 * Smooths `path` between points `first` and `last` (inclusive, both kept), in place; returns the
 * metres saved. `isClear(i, j)` tells whether the straight leg from point i to point j is open
 * (indices of the path as it was when called). `reachedWindow`: a leg went as far ahead as the
 * window lets it, so another pass may go farther.
 */
export function pullStraight(
  path: PathBuffer,
  first: number,
  last: number,
  isClear: (i: number, j: number) => boolean,
  o: PullOptions
): { saved: number; reachedWindow: boolean } {
  if (last - first < 2) return { saved: 0, reachedWindow: false };
  const n = last - first + 1;
  if (n > scratch.along.length) {
    const size = Math.max(n, 2 * scratch.along.length);
    scratch.along = new Float64Array(size);
    scratch.keep = new Uint8Array(size);
  }
  // Along-path metres from `first` (prefix sums, equirectangular: only to choose the legs worth a
  // test; the metres saved are measured on the ellipsoid).
  const along = scratch.along;
  along[0] = 0;
  for (let k = 1; k < n; k++)
    along[k] =
      along[k - 1] +
      roughMeters(
        path.lat(first + k - 1),
        path.lng(first + k - 1),
        path.lat(first + k),
        path.lng(first + k)
      );
  const keep = scratch.keep;
  keep.fill(1, 0, n);
  let saved = 0;
  let tests = 0;
  let reachedWindow = false;
  let i = 0;
  while (i < n - 2 && tests < o.maxTests) {
    let next = i + 1;
    for (let j = Math.min(n - 1, i + o.window); j >= i + 2 && tests < o.maxTests; j--) {
      const straight = roughMeters(
        path.lat(first + i),
        path.lng(first + i),
        path.lat(first + j),
        path.lng(first + j)
      );
      const save = along[j] - along[i] - straight;
      if (straight > o.maxLegM || save <= o.minSaveM || save <= o.minSaveShare * straight) continue;
      tests++;
      if (!isClear(first + i, first + j)) continue;
      let bent = 0;
      for (let k = i; k < j; k++) {
        bent += fastGeodesicMeters(
          path.lat(first + k),
          path.lng(first + k),
          path.lat(first + k + 1),
          path.lng(first + k + 1)
        );
        if (k > i) keep[k] = 0;
      }
      saved +=
        bent -
        fastGeodesicMeters(
          path.lat(first + i),
          path.lng(first + i),
          path.lat(first + j),
          path.lng(first + j)
        );
      if (j === i + o.window) reachedWindow = true;
      next = j;
      break;
    }
    i = next;
  }
  if (saved === 0) return { saved: 0, reachedWindow: false };
  // Compact the kept points (the rest of the path after `last` moves up with them).
  let write = first;
  for (let k = 0; k < n; k++) {
    if (!keep[k]) continue;
    if (write !== first + k) path.set(write, path.lat(first + k), path.lng(first + k));
    write++;
  }
  path.remove(write, first + n - write);
  return { saved, reachedWindow };
}

/** Buffers reused from call to call (smoothing runs for every route; it never nests). */
const scratch = { along: new Float64Array(256), keep: new Uint8Array(256) };

const M_PER_DEG = 111_195;
const RAD = Math.PI / 180;

/** Equirectangular metres (for choosing legs; never for a distance the route reports). */
function roughMeters(lat1: number, lng1: number, lat2: number, lng2: number): number {
  let dLng = lng2 - lng1;
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  const x = dLng * Math.cos((lat1 + lat2) * 0.5 * RAD);
  const y = lat2 - lat1;
  return M_PER_DEG * Math.sqrt(x * x + y * y);
}
