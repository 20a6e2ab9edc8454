/**
 * Many small lists of integers (the search's Pareto bags, holding label numbers) in one shared
 * Int32Array: list `b` is items[start[b], start[b] + len[b]), with room for cap[b]. A list that
 * outgrows its room moves to a run twice as long at the end. clear() empties every list at once
 * and keeps the memory for the next search: no array object per bag, nothing to collect.
 */
export class Runs {
  readonly start: Int32Array;
  readonly len: Int32Array;
  readonly cap: Int32Array;
  items = new Int32Array(1024);
  private top = 0;
  /** Lists given room since the last clear(). */
  private roomed: number[] = [];

  constructor(lists: number) {
    this.start = new Int32Array(lists);
    this.len = new Int32Array(lists);
    this.cap = new Int32Array(lists);
  }

  /** Appends x to list b. */
  push(b: number, x: number): void {
    const n = this.len[b];
    if (n === this.cap[b]) this.makeRoom(b);
    this.items[this.start[b] + n] = x;
    this.len[b] = n + 1;
  }

  /** Empties every list. */
  clear(): void {
    const roomed = this.roomed;
    for (let i = 0; i < roomed.length; i++) {
      this.len[roomed[i]] = 0;
      this.cap[roomed[i]] = 0;
    }
    roomed.length = 0;
    this.top = 0;
  }

  /** Moves list b to a run twice as long at the end of `items` (items may be a new array after). */
  private makeRoom(b: number): void {
    const cap = Math.max(4, 2 * this.cap[b]);
    if (this.cap[b] === 0) this.roomed.push(b);
    if (this.top + cap > this.items.length) {
      const items = new Int32Array(Math.max(2 * this.items.length, this.top + cap));
      items.set(this.items);
      this.items = items;
    }
    this.items.copyWithin(this.top, this.start[b], this.start[b] + this.len[b]);
    this.start[b] = this.top;
    this.cap[b] = cap;
    this.top += cap;
  }
}
