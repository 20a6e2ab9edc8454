/**
 * Edges of a polygon grouped by the latitude bands they span, so a test at one latitude (a ray
 * cast, a snap radius) visits the few edges there instead of every edge of a long coast: Eurasia's
 * outer ring has 11,000 points, and a point-in-polygon test on it cost ~40 µs.
 *
 * Each band lists its edges in ascending order, so a caller that merges bands and sorts visits
 * the edges in the order a full loop would (ties resolve alike).
 */

/** Band height in degrees. */
export const BAND_DEGREES = 0.25;

export interface LatitudeBands {
  /** Band index of the first band held (bands count from 90° S). */
  first: number;
  /** Edges of held band b: items[start[b - first] .. start[b - first + 1]). */
  start: Int32Array;
  /** Edge ids, as the caller numbered them. */
  items: Int32Array;
}

export function bandOf(lat: number): number {
  return Math.floor((lat + 90) / BAND_DEGREES);
}

/** Bands of edges given in ascending id order: edge `ids[e]` spans latitudes [lo[e], hi[e]]. */
export function latitudeBands(
  ids: ArrayLike<number>,
  lo: ArrayLike<number>,
  hi: ArrayLike<number>
): LatitudeBands {
  let first = Infinity;
  let last = -Infinity;
  for (let e = 0; e < ids.length; e++) {
    first = Math.min(first, bandOf(lo[e]));
    last = Math.max(last, bandOf(hi[e]));
  }
  if (!(first <= last)) return { first: 0, start: new Int32Array(1), items: new Int32Array(0) };
  const n = last - first + 1;
  const start = new Int32Array(n + 1);
  for (let e = 0; e < ids.length; e++)
    for (let b = bandOf(lo[e]); b <= bandOf(hi[e]); b++) start[b - first + 1]++;
  for (let b = 0; b < n; b++) start[b + 1] += start[b];
  const fill = start.slice(0, n);
  const items = new Int32Array(start[n]);
  for (let e = 0; e < ids.length; e++)
    for (let b = bandOf(lo[e]); b <= bandOf(hi[e]); b++) items[fill[b - first]++] = ids[e];
  return { first, start, items };
}

/** The edges of band `b` as [from, to) into items; empty when the bands hold no such band. */
export function bandRange(bands: LatitudeBands, b: number): [number, number] {
  const k = b - bands.first;
  if (!(k >= 0 && k + 1 < bands.start.length)) return [0, 0];
  return [bands.start[k], bands.start[k + 1]];
}
