/**
 * Properties of the search's label stores, on random labels:
 * - insertUndominated (used after the search has checked that nothing on board dominates the new
 *   label) leaves the bag exactly as insertPareto does, element for element and in order;
 * - WaitingRows keeps every row's values through its growth, and clear() starts numbering again.
 */
import fc from "fast-check";
import {
  insertPareto,
  insertUndominated,
  weaklyDominates,
  Criteria,
} from "../../../src/engine/optimizer/search/pareto";
import { WaitingRows } from "../../../src/engine/optimizer/search/waiting-rows";

const small = fc.integer({ min: 0, max: 6 });
const criteriaArb: fc.Arbitrary<Criteria> = fc.record({
  dep0: small,
  arr: small,
  tr: fc.integer({ min: 0, max: 3 }),
  em: small,
});

describe("insertUndominated", () => {
  test("same bag as insertPareto whenever no element dominates the new one", () => {
    let undominated = 0;
    fc.assert(
      fc.property(fc.array(criteriaArb, { maxLength: 30 }), criteriaArb, (items, x) => {
        const bag: Criteria[] = [];
        for (const it of items) insertPareto(bag, it, weaklyDominates);
        if (bag.some((b) => weaklyDominates(b, x))) return;
        undominated++;
        const viaPareto = bag.slice();
        const inserted = insertPareto(viaPareto, x, weaklyDominates);
        const viaUndominated = bag.slice();
        insertUndominated(viaUndominated, x, weaklyDominates);
        expect(inserted).toBe(true);
        expect(viaUndominated).toEqual(viaPareto);
        // Object identity too: the search keeps references into the bag.
        viaUndominated.forEach((b, i) => expect(b).toBe(viaPareto[i]));
      }),
      { numRuns: 400 }
    );
    expect(undominated).toBeGreaterThan(50);
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
