/**
 * Properties of the search's view of non-additive leg emissions (leg-bounds.ts), on random
 * board×alight tables (any grams at all, not sums of hops) and on the real sample network:
 * - the per-hop lower bounds summed over any stretch i→j never exceed legGrams(i, j), so the
 *   pruning bounds built from them stay lower bounds;
 * - rideGaps decides "riding from a is never worse than from b at every call after both" exactly
 *   as comparing call by call does.
 */
import fc from "fast-check";
import { Pattern } from "../../../src/engine/optimizer/network";
import { hopLowerBounds, rideGaps } from "../../../src/engine/optimizer/search/leg-bounds";
import { realNetworkOptimizer } from "./real-network";

const patternArb: fc.Arbitrary<Pattern> = fc
  .integer({ min: 2, max: 9 })
  .chain((n) =>
    fc.record({
      hops: fc.array(fc.integer({ min: 0, max: 5_000_000 }), {
        minLength: n - 1,
        maxLength: n - 1,
      }),
      grams: fc.array(fc.integer({ min: 0, max: 3_000_000 }), {
        minLength: n * n,
        maxLength: n * n,
      }),
    })
  )
  .map(({ hops, grams }) => {
    const cumMeters = [0];
    for (const m of hops) cumMeters.push(cumMeters[cumMeters.length - 1] + m);
    return {
      index: 0,
      code: "X",
      serviceCodes: ["X"],
      operator: 0,
      partners: [],
      modality: "DEEPSEA",
      calls: cumMeters.map((_, i) => ({ stop: i })),
      cumMeters,
      legGrams: Int32Array.from(grams),
    } as Pattern;
  });

function checkHopBounds(p: Pattern): void {
  const n = p.calls.length;
  const h = hopLowerBounds(p);
  expect(h).toHaveLength(n - 1);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = i + 1; j < n; j++) {
      sum += h[j - 1];
      expect(sum).toBeLessThanOrEqual(p.legGrams[i * n + j]);
    }
  }
}

function checkGaps(p: Pattern, aEm: number, bEm: number): void {
  const n = p.calls.length;
  const gaps = rideGaps(p);
  for (let a = 0; a < n - 1; a++) {
    for (let b = 0; b < n - 1; b++) {
      if (a === b) continue;
      let byCall = true;
      for (let x = Math.max(a, b) + 1; x < n; x++)
        if (aEm + p.legGrams[a * n + x] > bEm + p.legGrams[b * n + x]) byCall = false;
      expect(aEm - bEm <= gaps[a * n + b]).toBe(byCall);
    }
  }
}

test("hop bounds never exceed any leg's grams, for any (non-additive) table", () => {
  fc.assert(fc.property(patternArb, checkHopBounds), { numRuns: 300 });
});

test("rideGaps agrees with the call-by-call comparison", () => {
  fc.assert(
    fc.property(
      patternArb,
      fc.integer({ min: 0, max: 2_000_000 }),
      fc.integer({ min: 0, max: 2_000_000 }),
      checkGaps
    ),
    { numRuns: 300 }
  );
});

test("on the sample network: hop bounds below every leg, and not trivially zero", () => {
  const net = realNetworkOptimizer().network;
  let bound = 0;
  let exact = 0;
  for (const p of net.patterns) {
    checkHopBounds(p);
    const n = p.calls.length;
    const h = hopLowerBounds(p);
    for (let x = 0; x < n - 1; x++) {
      bound += h[x];
      exact += p.legGrams[x * n + x + 1];
    }
  }
  // The bounds keep most of the single hops' grams (they prune): measured 0.9+ on this data.
  expect(bound / exact).toBeGreaterThan(0.5);
});
