/** UnionFind against labels merged by brute force, over random unions. */
import { UnionFind } from "../../../src/engine/graph/union-find";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe("UnionFind", () => {
  it("puts together exactly what the unions join, and finds the largest set", () => {
    const r = rng(3);
    for (let round = 0; round < 50; round++) {
      const n = 1 + Math.floor(r() * 200);
      const sets = new UnionFind(n);
      const label = Array.from({ length: n }, (_, i) => i);
      for (let k = 0; k < Math.floor(r() * n * 1.2); k++) {
        const a = Math.floor(r() * n);
        const b = Math.floor(r() * n);
        const joined = sets.union(a, b);
        expect(joined).toBe(label[a] !== label[b]);
        const from = label[a];
        for (let i = 0; i < n; i++) if (label[i] === from) label[i] = label[b];
      }
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j += 7)
          expect(sets.find(i) === sets.find(j)).toBe(label[i] === label[j]);
      const counts = new Map<number, number>();
      for (const l of label) counts.set(l, (counts.get(l) ?? 0) + 1);
      const biggest = Math.max(...counts.values());
      const root = sets.largestRoot();
      expect(counts.get(label[root])).toBe(biggest);
    }
  });
});
