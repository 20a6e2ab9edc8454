/**
 * Binary searches over sorted typed arrays, for the scan's connection range and the stops' departure
 * slots. The loop counts down the width of the range still open, which at least halves every turn,
 * so it ends after a bounded number of turns whatever the arithmetic inside does: a slip such as a
 * fractional midpoint gives a wrong index that tests catch instead of a loop that never ends.
 */

/** Sorted numbers a search can read (Float64Array, Int32Array, plain arrays). */
export interface SortedNumbers {
  readonly [index: number]: number;
}

/** First index in [lo, hi) whose value is at least x (hi when none). */
export function firstAtLeast(arr: SortedNumbers, lo: number, hi: number, x: number): number {
  let width = hi - lo;
  while (width > 0) {
    const half = width >>> 1;
    if (arr[lo + half] < x) {
      lo += half + 1;
      width -= half + 1;
    } else width = half;
  }
  return lo;
}

/** First index in [lo, hi) whose value is above x (hi when none). */
export function firstAbove(arr: SortedNumbers, lo: number, hi: number, x: number): number {
  let width = hi - lo;
  while (width > 0) {
    const half = width >>> 1;
    if (arr[lo + half] <= x) {
      lo += half + 1;
      width -= half + 1;
    } else width = half;
  }
  return lo;
}
