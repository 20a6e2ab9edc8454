/** How long the PostgreSQL store's next group waits for the requests the last commit answered. */
import fc from "fast-check";
import { commitWindow } from "../../src/service/store/postgres";

test("property: the window is the base, or the last commit's time when longer, never over 5 × the base", () => {
  fc.assert(
    fc.property(
      fc.double({ min: 0, max: 100, noNaN: true }),
      fc.double({ min: 0, max: 1000, noNaN: true }),
      fc.double({ min: 0, max: 1000, noNaN: true }),
      (base, last, later) => {
        const w = commitWindow(base, last);
        expect(w).toBeGreaterThanOrEqual(base);
        expect(w).toBeLessThanOrEqual(5 * base);
        if (last >= base && last <= 5 * base) expect(w).toBe(last);
        // Slower commits never shorten it.
        if (later >= last) expect(commitWindow(base, later)).toBeGreaterThanOrEqual(w);
      }
    )
  );
  // The defaults: 1 ms after a fast commit, up to 5 ms after slow ones; 0 never waits.
  expect([0.2, 3, 40].map((last) => commitWindow(1, last))).toEqual([1, 3, 5]);
  expect(commitWindow(0, 40)).toBe(0);
});
