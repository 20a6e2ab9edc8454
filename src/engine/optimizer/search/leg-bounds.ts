/**
 * What the search can say about a pattern's leg emissions without riding every board→alight pair.
 * A leg's grams (`legGrams`) depend on both its ends (trade lane, region), so they are not a sum of
 * per-hop values; the search still needs:
 *
 * - per-hop lower bounds `h` whose sum over any stretch of calls never exceeds the grams of the
 *   leg over that stretch (Σ h[i..j-1] ≤ legGrams(i, j) for every i < j), for the additive
 *   pruning bounds of the backward scan (arrival-bound.ts);
 * - the dominance of one on-board label over another that boarded at a different call: better or
 *   equal at every call both can still get off at.
 */
import { Pattern } from "../network";

/**
 * Per hop x (call x to x + 1): a whole-gram lower bound. Each hop gets its weight (its metres,
 * plus one so that no weight is zero) times the least grams per weight of any leg over it:
 * for a leg i→j, Σ_{x in [i, j)} w(x)·ratio(x) ≤ Σ w(x)·L(i, j)/W(i, j) = L(i, j), since ratio(x)
 * is at most the leg's own L(i, j)/W(i, j). Rounding down keeps the integers below that.
 */
export function hopLowerBounds(p: Pattern): Int32Array {
  const n = p.calls.length;
  const hops = Math.max(0, n - 1);
  const w = new Float64Array(hops);
  const prefix = new Float64Array(n);
  for (let x = 0; x < hops; x++) {
    w[x] = Math.max(0, p.cumMeters[x + 1] - p.cumMeters[x]) + 1;
    prefix[x + 1] = prefix[x] + w[x];
  }
  const ratio = new Float64Array(hops).fill(Infinity);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const r = p.legGrams[i * n + j] / (prefix[j] - prefix[i]);
      for (let x = i; x < j; x++) if (r < ratio[x]) ratio[x] = r;
    }
  }
  const h = new Int32Array(hops);
  // The margin absorbs floating-point error in w·ratio (grams are far below 2^31).
  for (let x = 0; x < hops; x++) h[x] = Math.floor(w[x] * ratio[x] - 1e-6);
  return h;
}

/**
 * Per pair of boarding calls (a, b), at [a * n + b]: the largest head start in grams at boarding
 * (emissions at boarding at a minus at b) with which riding from a is still no worse than riding
 * from b at every call after both: min over x > max(a, b) of legGrams(b, x) − legGrams(a, x).
 * Infinity when no call is left after both. The diagonal is 0 (same boarding: compare directly).
 */
export function rideGaps(p: Pattern): Float64Array {
  const n = p.calls.length;
  const g = p.legGrams;
  const gaps = new Float64Array(n * n);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      let gap = Infinity;
      for (let x = Math.max(a, b) + 1; x < n; x++) {
        const d = g[b * n + x] - g[a * n + x];
        if (d < gap) gap = d;
      }
      gaps[a * n + b] = gap;
    }
  }
  return gaps;
}
