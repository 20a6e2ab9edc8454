/**
 * Pareto dominance for the search's labels. Criteria: departure from the origin (later is better),
 * arrival (earlier), transfers (fewer), emissions (lower); plus the constraint state — satisfied
 * requirement bits (a superset is better) and whether a sea leg was used (for directSeaOnly).
 */

/** True when bits `a` contain every bit of `b`. */
export function covers(a: number, b: number): boolean {
  return (a & b) === b;
}

/**
 * Inserts `x` into `bag` unless an element weakly dominates it (`dominates(existing, x)`);
 * removes the elements `x` weakly dominates. Returns whether `x` was inserted.
 */
export function insertPareto<T>(bag: T[], x: T, dominates: (a: T, b: T) => boolean): boolean {
  for (let i = 0; i < bag.length; i++) if (dominates(bag[i], x)) return false;
  insertUndominated(bag, x, dominates);
  return true;
}

/**
 * Inserts `x`, which the caller knows no element of `bag` dominates, and removes the elements `x`
 * weakly dominates: insertPareto without its first pass.
 */
export function insertUndominated<T>(bag: T[], x: T, dominates: (a: T, b: T) => boolean): void {
  let w = 0;
  for (let i = 0; i < bag.length; i++) {
    if (!dominates(x, bag[i])) bag[w++] = bag[i];
  }
  // Setting an array's length is slow in V8: only when something was removed.
  if (w !== bag.length) bag.length = w;
  bag.push(x);
}

/**
 * The complete journeys found so far, as typed columns kept in descending order of departure, so
 * that a dominance check reads only the prefix departing no earlier. The search asks it for every
 * label whether a journey already beats the label's bounds (`hopeless`), so it is the hottest
 * check of the scan. Reused by the next search.
 */
export class TargetBag {
  count = 0;
  dep0 = new Float64Array(64);
  arr = new Float64Array(64);
  tr = new Float64Array(64);
  em = new Float64Array(64);
  /** The journey's last stop label and its egress (the caller's numbers). */
  last = new Int32Array(64);
  egress = new Int32Array(64);
  /** The query's limits (set per search): beyond them a label is hopeless too. */
  maxTransfers = Infinity;
  maxGrams = Infinity;
  maxLeadMinutes = Infinity;
  maxArrival = Infinity;

  /** Empties the bag and sets the limits of the next search. */
  reset(limits: {
    maxTransfers: number;
    maxGrams: number;
    maxLeadMinutes: number;
    maxArrival: number;
  }): void {
    this.count = 0;
    this.maxTransfers = limits.maxTransfers;
    this.maxGrams = limits.maxGrams;
    this.maxLeadMinutes = limits.maxLeadMinutes;
    this.maxArrival = limits.maxArrival;
  }

  /** Whether a journey found weakly dominates (dep0, arr, tr, em). */
  dominated(dep0: number, arr: number, tr: number, em: number): boolean {
    const d = this.dep0;
    for (let i = 0, n = this.count; i < n; i++) {
      if (d[i] < dep0) return false;
      if (this.arr[i] <= arr && this.tr[i] <= tr && this.em[i] <= em) return true;
    }
    return false;
  }

  /**
   * Whether a label with these bounds can never lead to a new journey: out of the query's limits,
   * or beaten by a journey already found (its extensions only get worse). `arr`, `tr` and `em` are
   * lower bounds of the final values (so far plus the bounds of what is left).
   */
  hopeless(dep0: number, arr: number, tr: number, em: number): boolean {
    return (
      arr === Infinity ||
      tr > this.maxTransfers ||
      em > this.maxGrams ||
      arr - dep0 > this.maxLeadMinutes ||
      arr > this.maxArrival ||
      this.dominated(dep0, arr, tr, em)
    );
  }

  /**
   * Adds a journey that the caller knows no journey found dominates: those it dominates leave, the
   * others keep their order, and it goes in before the first that departs earlier.
   */
  add(dep0: number, arr: number, tr: number, em: number, last: number, egress: number): void {
    let w = 0;
    for (let i = 0; i < this.count; i++) {
      if (dep0 >= this.dep0[i] && arr <= this.arr[i] && tr <= this.tr[i] && em <= this.em[i])
        continue;
      if (w !== i) this.move(i, w);
      w++;
    }
    if (w === this.dep0.length) this.grow();
    let i = w;
    while (i > 0 && this.dep0[i - 1] < dep0) {
      this.move(i - 1, i);
      i--;
    }
    this.dep0[i] = dep0;
    this.arr[i] = arr;
    this.tr[i] = tr;
    this.em[i] = em;
    this.last[i] = last;
    this.egress[i] = egress;
    this.count = w + 1;
  }

  private move(from: number, to: number): void {
    this.dep0[to] = this.dep0[from];
    this.arr[to] = this.arr[from];
    this.tr[to] = this.tr[from];
    this.em[to] = this.em[from];
    this.last[to] = this.last[from];
    this.egress[to] = this.egress[from];
  }

  private grow(): void {
    const n = 2 * this.dep0.length;
    const f = (a: Float64Array) => {
      const b = new Float64Array(n);
      b.set(a);
      return b;
    };
    const g = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    this.dep0 = f(this.dep0);
    this.arr = f(this.arr);
    this.tr = f(this.tr);
    this.em = f(this.em);
    this.last = g(this.last);
    this.egress = g(this.egress);
  }
}
