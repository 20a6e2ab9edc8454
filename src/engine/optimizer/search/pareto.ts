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
