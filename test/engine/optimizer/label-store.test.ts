/**
 * Properties of the search's label stores, on random labels:
 * - insertUndominated (used after the search has checked that nothing on board dominates the new
 *   label) and insertPareto leave the bag as a model does: the elements the new label does not
 *   dominate, in order and the same objects, then the new label; insertPareto refuses a
 *   dominated label and leaves the bag as it was;
 * - WaitingRows keeps every row's values through its growth, and clear() starts numbering again.
 */
import fc from "fast-check";
import { insertPareto, insertUndominated } from "../../../src/engine/optimizer/search/pareto";
import { WaitingRows } from "../../../src/engine/optimizer/search/waiting-rows";

/** The search's four criteria, as plain numbers. */
interface Criteria {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
}

/** a is at least as good as b in every criterion (later departure, earlier arrival, fewer, less). */
function weaklyDominates(a: Criteria, b: Criteria): boolean {
  return a.dep0 >= b.dep0 && a.arr <= b.arr && a.tr <= b.tr && a.em <= b.em;
}

/** What inserting an undominated x must leave. */
function model(bag: Criteria[], x: Criteria): Criteria[] {
  return [...bag.filter((b) => !weaklyDominates(x, b)), x];
}

const small = fc.integer({ min: 0, max: 6 });
const criteriaArb: fc.Arbitrary<Criteria> = fc.record({
  dep0: small,
  arr: small,
  tr: fc.integer({ min: 0, max: 3 }),
  em: small,
});

describe("insertUndominated and insertPareto", () => {
  test("leave the bag as the model does", () => {
    let undominated = 0;
    let dominated = 0;
    fc.assert(
      fc.property(fc.array(criteriaArb, { maxLength: 30 }), criteriaArb, (items, x) => {
        const bag: Criteria[] = [];
        for (const it of items) insertPareto(bag, it, weaklyDominates);
        const viaPareto = bag.slice();
        const inserted = insertPareto(viaPareto, x, weaklyDominates);
        if (bag.some((b) => weaklyDominates(b, x))) {
          dominated++;
          expect(inserted).toBe(false);
          viaPareto.forEach((b, i) => expect(b).toBe(bag[i]));
          expect(viaPareto).toHaveLength(bag.length);
          return;
        }
        undominated++;
        const expected = model(bag, x);
        const viaUndominated = bag.slice();
        insertUndominated(viaUndominated, x, weaklyDominates);
        expect(inserted).toBe(true);
        // Object identity too: the search keeps references into the bag.
        for (const got of [viaUndominated, viaPareto]) {
          expect(got).toHaveLength(expected.length);
          got.forEach((b, i) => expect(b).toBe(expected[i]));
        }
      }),
      { numRuns: 400 }
    );
    expect(undominated).toBeGreaterThan(50);
    expect(dominated).toBeGreaterThan(50);
  });
});

describe("WaitingRows", () => {
  test("rows read back as pushed across growth; clear() restarts", () => {
    const rowArb = fc.record({
      em: fc.double({ min: 0, max: 1e9, noNaN: true }),
      dep0: fc.integer({ min: 0, max: 2 ** 30 }),
      tr: fc.integer({ min: 0, max: 10 }),
      bits: fc.integer({ min: 0, max: 2 ** 30 }),
      sea: fc.integer({ min: 0, max: 1 }),
      stop: fc.integer({ min: 0, max: 500 }),
      readyAt: fc.integer({ min: 0, max: 2 ** 30 }),
    });
    const rows = new WaitingRows<string>();
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 0, maxLength: 700 }), (list) => {
        rows.clear();
        list.forEach((r, i) => {
          const n = rows.push(r.em, r.dep0, r.tr, r.bits, r.sea, r.stop, r.readyAt, `L${i}`);
          expect(n).toBe(i);
        });
        expect(rows.size).toBe(list.length);
        list.forEach((r, i) => {
          expect([
            rows.em[i],
            rows.dep0[i],
            rows.tr[i],
            rows.bits[i],
            rows.sea[i],
            rows.stop[i],
            rows.readyAt[i],
            rows.label[i],
          ]).toEqual([r.em, r.dep0, r.tr, r.bits, r.sea, r.stop, r.readyAt, `L${i}`]);
        });
      }),
      { numRuns: 30 }
    );
  });
});
