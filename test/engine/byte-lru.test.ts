/**
 * ByteLru against a plain model (an array in recency order) over random operations: the same
 * entries held, the total within the budget after every operation (but for a lone newest entry),
 * the least recently used leaving first.
 */
import { ByteLru } from "../../src/engine/byte-lru";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe("ByteLru", () => {
  it("matches a recency-ordered model and keeps within its budget", () => {
    const r = rng(31);
    for (let round = 0; round < 20; round++) {
      const budget = 200 + Math.floor(r() * 2000);
      const lru = new ByteLru<number, string>(budget);
      let model: Array<{ key: number; value: string; bytes: number }> = [];
      const evict = (): void => {
        let total = model.reduce((s, e) => s + e.bytes, 0);
        while (total > budget && model.length > 1) total -= model.shift()!.bytes;
      };
      for (let op = 0; op < 2000; op++) {
        const key = Math.floor(r() * 40);
        const x = r();
        if (x < 0.45) {
          const bytes = 1 + Math.floor(r() * 300);
          model = model.filter((e) => e.key !== key);
          model.push({ key, value: `v${op}`, bytes });
          evict();
          lru.set(key, `v${op}`, bytes);
        } else if (x < 0.85) {
          const at = model.findIndex((e) => e.key === key);
          if (at >= 0) model.push(...model.splice(at, 1));
          expect(lru.get(key)).toBe(at >= 0 ? model[model.length - 1].value : undefined);
        } else {
          const grow = Math.floor(r() * 400);
          const e = model.find((m) => m.key === key);
          if (e) {
            e.bytes += grow;
            evict();
          }
          lru.grew(key, grow);
        }
        const total = model.reduce((s, e) => s + e.bytes, 0);
        expect(lru.bytes).toBe(total);
        expect(lru.size).toBe(model.length);
        if (model.length > 1) expect(total).toBeLessThanOrEqual(budget);
      }
      for (const e of model) expect(lru.get(e.key)).toBe(e.value);
    }
  });
});
