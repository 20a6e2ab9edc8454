/**
 * The project's one binary min-heap: (key, value) pairs on typed arrays, a number key and an
 * integer value (a vertex, a junction, an index into the caller's own list of items). Duplicates
 * allowed: searches push again on improvement and skip stale entries when they pop them (lazy
 * deletion). Pure, no I/O. Ties leave in the order of the classic sift-up / sift-down (smaller
 * child first, the left one on equal keys), so a search's result does not depend on which heap it
 * was given.
 */
import { doubled } from "./typed-arrays";

export class MinHeap {
  private keys: Float64Array;
  private values: Int32Array;
  size = 0;

  constructor(capacity = 64) {
    const n = Math.max(1, capacity);
    this.keys = new Float64Array(n);
    this.values = new Int32Array(n);
  }

  clear(): void {
    this.size = 0;
  }

  push(key: number, value: number): void {
    if (this.size === this.keys.length) this.grow();
    let i = this.size++;
    const keys = this.keys;
    const values = this.values;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent] <= key) break;
      keys[i] = keys[parent];
      values[i] = values[parent];
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Key of the minimum (undefined behaviour when empty: check size first). */
  peekKey(): number {
    return this.keys[0];
  }

  /** Value of the minimum, without removing it. */
  peekValue(): number {
    return this.values[0];
  }

  /** Removes the minimum and returns its value; read peekKey() first for its key. */
  pop(): number {
    const keys = this.keys;
    const values = this.values;
    const top = values[0];
    const n = --this.size;
    if (n > 0) {
      const key = keys[n];
      const value = values[n];
      let i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && keys[child + 1] < keys[child]) child++;
        if (keys[child] >= key) break;
        keys[i] = keys[child];
        values[i] = values[child];
        i = child;
      }
      keys[i] = key;
      values[i] = value;
    }
    return top;
  }

  private grow(): void {
    this.keys = doubled(this.keys);
    this.values = doubled(this.values);
  }
}
