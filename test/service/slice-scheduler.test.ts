/**
 * Batches computed in slices share one slice per event-loop turn, in turn order (issue 21: large
 * paid batches must not delay other callers by a slice per running batch). Turns are counted by a
 * setImmediate that re-queues itself (it runs once per loop iteration), not by time.
 */
import * as fc from "fast-check";
import { SliceScheduler } from "../../src/service/slice-scheduler";

/** Runs `counts[i]` slices for computation i at once; returns each slice's (computation, turn). */
async function runSlices(counts: number[]): Promise<Array<[number, number]>> {
  const scheduler = new SliceScheduler();
  let turn = 0;
  let counting = true;
  const tick = () => {
    turn++;
    if (counting) setImmediate(tick);
  };
  setImmediate(tick);
  const log: Array<[number, number]> = [];
  await Promise.all(
    counts.map(async (n, c) => {
      for (let i = 0; i < n; i++) {
        await scheduler.next();
        log.push([c, turn]);
      }
    })
  );
  counting = false;
  expect(scheduler.queued).toBe(0);
  return log;
}

test("one slice per loop turn whatever the number of computations, taken in turn", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.integer({ min: 0, max: 12 }), { minLength: 1, maxLength: 6 }),
      async (counts) => {
        const log = await runSlices(counts);
        // Every slice ran, and no two in the same turn.
        expect(log).toHaveLength(counts.reduce((a, b) => a + b, 0));
        const turns = log.map(([, t]) => t);
        expect(new Set(turns).size).toBe(turns.length);
        // Round robin: while k computations still have slices, each runs once in any k slices.
        const left = [...counts];
        let i = 0;
        while (i < log.length) {
          const active = left.map((n, c) => (n > 0 ? c : -1)).filter((c) => c >= 0);
          const round = log.slice(i, i + active.length).map(([c]) => c);
          expect([...round].sort((a, b) => a - b)).toEqual(active);
          for (const c of round) left[c]--;
          i += active.length;
        }
      }
    ),
    { numRuns: 60 }
  );
});
