/** The project's one binary heap: order, growth, duplicates, and the same tie order as the heaps it replaced. */
import fc from "fast-check";
import { MinHeap } from "../../src/engine/heap";

/** The array heap the barge router and the optimizer had before (swap-based sift up / down). */
class ReplacedHeap {
  readonly items: Array<{ key: number; value: number }> = [];
  push(key: number, value: number): void {
    const h = this.items;
    h.push({ key, value });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p].key <= h[i].key) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }
  pop(): number {
    const h = this.items;
    const top = h[0];
    const last = h.pop()!;
    if (h.length) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l].key < h[m].key) m = l;
        if (r < h.length && h[r].key < h[m].key) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i], h[m]];
        i = m;
      }
    }
    return top.value;
  }
}

describe("MinHeap", () => {
  it("pops every pushed pair in key order (any keys, duplicates, from a tiny capacity)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ noNaN: true }), fc.integer()), { maxLength: 300 }),
        (items) => {
          const heap = new MinHeap(1);
          items.forEach(([k], i) => heap.push(k, i));
          expect(heap.size).toBe(items.length);
          const out: number[] = [];
          let last = -Infinity;
          while (heap.size > 0) {
            const k = heap.peekKey();
            expect(k).toBeGreaterThanOrEqual(last);
            last = k;
            const v = heap.peekValue();
            expect(heap.pop()).toBe(v);
            expect(items[v][0]).toBe(k);
            out.push(v);
          }
          expect(out.sort((a, b) => a - b)).toEqual(items.map((_, i) => i));
        }
      )
    );
  });

  it("pops in exactly the order of the heaps it replaced, ties included (searches give the same results)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 0, max: 5 }), fc.constant(-1)), { maxLength: 400 }),
        (ops) => {
          const heap = new MinHeap(2);
          const old = new ReplacedHeap();
          ops.forEach((op, i) => {
            if (op >= 0) {
              heap.push(op, i);
              old.push(op, i);
            } else if (heap.size) {
              expect(heap.pop()).toBe(old.pop());
            }
          });
          while (heap.size) expect(heap.pop()).toBe(old.pop());
          expect(old.items).toHaveLength(0);
        }
      )
    );
  });

  it("clears", () => {
    const heap = new MinHeap();
    heap.push(1, 1);
    heap.clear();
    expect(heap.size).toBe(0);
    heap.push(2, 7);
    expect(heap.pop()).toBe(7);
  });
});
