/**
 * The optimizer's binary searches (sorted-search.ts: the scan's connection range, the stops'
 * departure slots) against a linear scan, over seeded random sorted arrays with repeated values,
 * sub-ranges and probes below, between, on and above the values. The searches' loops are bounded by
 * construction, so a broken midpoint (say a fractional one) fails here instead of hanging the run.
 */
import fc from "fast-check";
import { firstAbove, firstAtLeast } from "../../../src/engine/optimizer/search/sorted-search";
import {
  firstSlotFrom,
  firstSlotOfConn,
} from "../../../src/engine/optimizer/search/departure-slots";

/** Linear oracle: the first index in [lo, hi) whose value passes, hi when none. */
function firstWhere(
  values: number[],
  lo: number,
  hi: number,
  pass: (v: number) => boolean
): number {
  for (let i = lo; i < hi; i++) if (pass(values[i])) return i;
  return hi;
}

const caseArb = fc
  .array(fc.integer({ min: -50, max: 50 }), { maxLength: 70 })
  .map((values) => values.sort((a, b) => a - b))
  .chain((values) =>
    fc.record({
      values: fc.constant(values),
      lo: fc.integer({ min: 0, max: values.length }),
      span: fc.integer({ min: 0, max: values.length }),
      // Probes on the values, between them (halves) and outside their range.
      x: fc.oneof(
        fc.integer({ min: -60, max: 60 }),
        fc.integer({ min: -120, max: 120 }).map((v) => v / 2)
      ),
    })
  )
  .map(({ values, lo, span, x }) => ({ values, lo, hi: Math.min(values.length, lo + span), x }));

test("property: firstAtLeast and firstAbove agree with a linear scan on any sorted range", () => {
  fc.assert(
    fc.property(caseArb, ({ values, lo, hi, x }) => {
      const f64 = Float64Array.from(values);
      const i32 = Int32Array.from(values);
      const atLeast = firstWhere(values, lo, hi, (v) => v >= x);
      const above = firstWhere(values, lo, hi, (v) => v > x);
      expect(firstAtLeast(f64, lo, hi, x)).toBe(atLeast);
      expect(firstAtLeast(i32, lo, hi, x)).toBe(atLeast);
      expect(firstAbove(f64, lo, hi, x)).toBe(above);
      expect(firstAbove(values, lo, hi, x)).toBe(above);
      expect(firstSlotFrom(f64, lo, hi, x)).toBe(atLeast);
      expect(firstSlotOfConn(i32, lo, hi, x)).toBe(atLeast);
    }),
    { seed: 3101, numRuns: 2_000 }
  );
});

test("whole-array searches as the scan uses them: the first departure at the window's start, the end after its last", () => {
  // Departure minutes with repeats, as the connections' cDep array holds them.
  const dep = Float64Array.from([0, 0, 15, 15, 15, 30, 45, 45, 60]);
  expect(firstAtLeast(dep, 0, dep.length, 15)).toBe(2);
  expect(firstAbove(dep, 0, dep.length, 45)).toBe(8);
  expect(firstAtLeast(dep, 0, dep.length, 61)).toBe(9);
  expect(firstAbove(dep, 0, dep.length, -1)).toBe(0);
  expect(firstAtLeast(dep, 0, 0, 15)).toBe(0);
});
