/**
 * The engine's one union-find (disjoint sets) over integers 0..n-1, on a typed array: path
 * halving, and a union hangs the first root under the second (so which root a set ends with, and
 * which of two equal-sized sets counts as the larger, is the same as it always was for the graphs
 * built with it).
 */
export class UnionFind {
  private readonly parent: Int32Array;

  constructor(readonly n: number) {
    this.parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(x: number): number {
    const parent = this.parent;
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  }

  /** Joins the sets of a and b; false when they were one already. */
  union(a: number, b: number): boolean {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return false;
    this.parent[ra] = rb;
    return true;
  }

  /** The root of the largest set (the lowest such root on a tie). */
  largestRoot(): number {
    const size = new Int32Array(this.n);
    for (let v = 0; v < this.n; v++) size[this.find(v)]++;
    let largest = 0;
    for (let v = 0; v < this.n; v++) if (size[v] > size[largest]) largest = v;
    return largest;
  }
}
