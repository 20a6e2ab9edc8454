/**
 * Properties of the search's label stores, on random labels:
 * - insertUndominated (used after the search has checked that nothing on board dominates the new
 *   label) and insertPareto leave the bag as a model does: the elements the new label does not
 *   dominate, in order and the same objects, then the new label; insertPareto refuses a
 *   dominated label and leaves the bag as it was;
 * - WaitingRows keeps every row's values through its growth, and clear() starts numbering again;
 * - Runs (many small integer lists in one array) reads back like plain arrays through growth and
 *   clear();
 * - TripBags (trip labels as typed rows, a bag per trip) and TargetBag (journeys found) decide
 *   dominance and keep their bags exactly as the object model of the search did: the same labels
 *   in the same order.
 */
import fc from "fast-check";
import {
  covers,
  insertPareto,
  insertUndominated,
  TargetBag,
} from "../../../src/engine/optimizer/search/pareto";
import { Runs } from "../../../src/engine/optimizer/search/runs";
import { TripBags } from "../../../src/engine/optimizer/search/trip-bags";
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
    const rows = new WaitingRows();
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 0, maxLength: 700 }), (list) => {
        rows.clear();
        list.forEach((r, i) => {
          const n = rows.push(r.em, r.dep0, r.tr, r.bits, r.sea, r.stop, r.readyAt, 3 * i + 1);
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
          ]).toEqual([r.em, r.dep0, r.tr, r.bits, r.sea, r.stop, r.readyAt, 3 * i + 1]);
        });
      }),
      { numRuns: 30 }
    );
  });
});

describe("Runs", () => {
  test("lists read back like arrays through growth and clear()", () => {
    const LISTS = 7;
    const runs = new Runs(LISTS);
    const opArb = fc.oneof(
      {
        arbitrary: fc.record({ push: fc.integer({ min: 0, max: LISTS - 1 }), x: fc.integer() }),
        weight: 20,
      },
      {
        arbitrary: fc.record({ truncate: fc.integer({ min: 0, max: LISTS - 1 }), to: fc.nat(8) }),
        weight: 2,
      },
      { arbitrary: fc.constant({ clear: true }), weight: 1 }
    );
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 400 }), (ops) => {
        runs.clear();
        const model: number[][] = Array.from({ length: LISTS }, () => []);
        for (const op of ops) {
          if ("push" in op) {
            runs.push(op.push, op.x);
            model[op.push].push(op.x);
          } else if ("truncate" in op) {
            const to = Math.min(op.to, model[op.truncate].length);
            runs.len[op.truncate] = to;
            model[op.truncate].length = to;
          } else {
            runs.clear();
            for (const m of model) m.length = 0;
          }
        }
        model.forEach((m, b) => {
          const s = runs.start[b];
          expect(Array.from(runs.items.subarray(s, s + runs.len[b]))).toEqual(m);
        });
      }),
      { numRuns: 200 }
    );
  });
});

/** A trip label of the object model (one pattern: boarding calls 0..CALLS-2). */
interface Label {
  dep0: number;
  tr: number;
  emBoard: number;
  board: number;
  bits: number;
  sea: number;
}
const CALLS = 5;

/** The search's former tripDominates on objects, with the pattern's per-call leg grams. */
function tripDominates(g: number[], sea: boolean, a: Label, b: Label): boolean {
  if (!(a.dep0 >= b.dep0 && a.tr <= b.tr && covers(a.bits, b.bits) && (!sea || a.sea <= b.sea)))
    return false;
  if (a.board === b.board) return a.emBoard <= b.emBoard;
  for (let x = Math.max(a.board, b.board) + 1; x < CALLS; x++)
    if (a.emBoard + g[a.board * CALLS + x] > b.emBoard + g[b.board * CALLS + x]) return false;
  return true;
}

/** rideGaps of legGrams g (as leg-bounds.ts computes them). */
function gapsOf(g: number[]): Float64Array {
  const gaps = new Float64Array(CALLS * CALLS);
  for (let a = 0; a < CALLS; a++)
    for (let b = 0; b < CALLS; b++) {
      if (a === b) continue;
      let gap = Infinity;
      for (let x = Math.max(a, b) + 1; x < CALLS; x++)
        gap = Math.min(gap, g[b * CALLS + x] - g[a * CALLS + x]);
      gaps[a * CALLS + b] = gap;
    }
  return gaps;
}

describe("TripBags", () => {
  test("dominated() and add() keep each trip's bag as the object model does", () => {
    const labelArb: fc.Arbitrary<Label & { trip: number }> = fc.record({
      trip: fc.integer({ min: 0, max: 2 }),
      dep0: fc.integer({ min: 0, max: 2 }),
      tr: fc.integer({ min: 0, max: 1 }),
      emBoard: fc.integer({ min: 0, max: 12 }),
      board: fc.integer({ min: 0, max: CALLS - 2 }),
      bits: fc.integer({ min: 0, max: 1 }),
      sea: fc.integer({ min: 0, max: 1 }),
    });
    const gramsArb = fc.array(fc.integer({ min: 0, max: 8 }), {
      minLength: CALLS * CALLS,
      maxLength: CALLS * CALLS,
    });
    const bags = new TripBags(3);
    let dominated = 0;
    let added = 0;
    fc.assert(
      fc.property(
        gramsArb,
        fc.boolean(),
        fc.array(labelArb, { minLength: 20, maxLength: 60 }),
        (g, sea, list) => {
          bags.clear();
          bags.seaDominance = sea;
          const gaps = gapsOf(g);
          const model: Array<Array<Label & { id: number }>> = [[], [], []];
          for (const l of list) {
            const bag = model[l.trip];
            const want = bag.some((a) => tripDominates(g, sea, a, l));
            const got = bags.dominated(
              l.trip,
              gaps,
              0,
              CALLS,
              l.dep0,
              l.tr,
              l.emBoard,
              l.board,
              l.bits,
              l.sea
            );
            expect(got).toBe(want);
            if (got) {
              dominated++;
              continue;
            }
            added++;
            const id = bags.add(
              l.trip,
              gaps,
              0,
              CALLS,
              l.dep0,
              l.tr,
              l.emBoard,
              l.emBoard - 1,
              l.board,
              l.bits,
              l.sea,
              7,
              -1
            );
            insertUndominated(bag, { ...l, id }, (a, b) => tripDominates(g, sea, a, b));
          }
          model.forEach((bag, t) => {
            const s = bags.bags.start[t];
            const ids = Array.from(bags.bags.items.subarray(s, s + bags.bags.len[t]));
            expect(ids).toEqual(bag.map((l) => l.id));
            for (const l of bag)
              expect([
                bags.dep0[l.id],
                bags.tr[l.id],
                bags.emBoard[l.id],
                bags.board[l.id],
                bags.bits[l.id],
                bags.sea[l.id],
                bags.trip[l.id],
              ]).toEqual([l.dep0, l.tr, l.emBoard, l.board, l.bits, l.sea, t]);
          });
        }
      ),
      { numRuns: 300 }
    );
    expect(dominated).toBeGreaterThan(1000);
    expect(added).toBeGreaterThan(1000);
  });
});

describe("TargetBag", () => {
  test("keeps the journeys the former object bag kept, in its order, and answers dominance alike", () => {
    const dominates = (a: Criteria, b: Criteria) => weaklyDominates(a, b);
    fc.assert(
      fc.property(
        fc.array(criteriaArb, { maxLength: 60 }),
        fc.array(criteriaArb, { maxLength: 20 }),
        (list, probes) => {
          const bag = new TargetBag();
          bag.reset({
            maxTransfers: Infinity,
            maxGrams: Infinity,
            maxLeadMinutes: Infinity,
            maxArrival: Infinity,
          });
          const model: Array<Criteria & { id: number }> = [];
          list.forEach((x, id) => {
            const want = model.some((d) => dominates(d, x));
            expect(bag.dominated(x.dep0, x.arr, x.tr, x.em)).toBe(want);
            if (want) return;
            bag.add(x.dep0, x.arr, x.tr, x.em, id, 2 * id);
            // The former addTarget: insertPareto, then into place by descending departure.
            const y = { ...x, id };
            insertPareto(model, y, dominates);
            let i = model.length - 1;
            while (i > 0 && model[i - 1].dep0 < y.dep0) {
              model[i] = model[i - 1];
              i--;
            }
            model[i] = y;
          });
          expect(bag.count).toBe(model.length);
          model.forEach((m, i) => {
            expect([
              bag.dep0[i],
              bag.arr[i],
              bag.tr[i],
              bag.em[i],
              bag.last[i],
              bag.egress[i],
            ]).toEqual([m.dep0, m.arr, m.tr, m.em, m.id, 2 * m.id]);
          });
          for (const p of probes)
            expect(bag.dominated(p.dep0, p.arr, p.tr, p.em)).toBe(
              model.some((d) => dominates(d, p))
            );
        }
      ),
      { numRuns: 400 }
    );
  });

  test("hopeless: beyond a limit or dominated", () => {
    const bag = new TargetBag();
    bag.reset({ maxTransfers: 2, maxGrams: 100, maxLeadMinutes: 50, maxArrival: 1000 });
    expect(bag.hopeless(0, 10, 0, 0)).toBe(false);
    expect(bag.hopeless(0, Infinity, 0, 0)).toBe(true);
    expect(bag.hopeless(0, 10, 3, 0)).toBe(true);
    expect(bag.hopeless(0, 10, 0, 101)).toBe(true);
    expect(bag.hopeless(0, 51, 0, 0)).toBe(true);
    expect(bag.hopeless(990, 1001, 0, 0)).toBe(true);
    bag.add(5, 20, 1, 50, 0, 0);
    expect(bag.hopeless(5, 20, 1, 50)).toBe(true);
    expect(bag.hopeless(6, 20, 1, 50)).toBe(false);
    expect(bag.hopeless(4, 21, 2, 60)).toBe(true);
    expect(bag.hopeless(4, 19, 2, 60)).toBe(false);
  });
});
