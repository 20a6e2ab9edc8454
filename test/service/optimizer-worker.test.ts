/**
 * The search thread's task function, called in this process (the pool runs the same function in
 * its threads): the shared flags reach the search, so a search whose caller set `cancelled` stops
 * (as one over its budget) and the thread that ran it stays usable; without the flag it answers.
 */
import run, { OptimizerTask, SEARCH_FLAGS } from "../../src/service/workers/optimizer-worker";

const QUERY = {
  origin: "CNSHA",
  originType: "LOCODE",
  destination: "NLRTM",
  destinationType: "LOCODE",
};

function flags(cancelled: boolean): Int32Array {
  const f = new Int32Array(new SharedArrayBuffer(8));
  if (cancelled) Atomics.store(f, SEARCH_FLAGS.cancelled, 1);
  return f;
}

const search = (f: Int32Array): OptimizerTask => ({
  kind: "search",
  query: QUERY,
  budgetMs: 600_000,
  flags: f,
});

test("a cancelled search stops as over its budget and marks itself started; the next search on the same thread answers", () => {
  const cancelled = flags(true);
  expect(run(search(cancelled))).toEqual({ error: { failure: "budget" } });
  expect(Atomics.load(cancelled, SEARCH_FLAGS.started)).toBe(1);
  const next = flags(false);
  // The answer comes serialised by the thread (search-json.ts).
  const answer = run(search(next)) as { json: string };
  expect((JSON.parse(answer.json) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  expect(Atomics.load(next, SEARCH_FLAGS.started)).toBe(1);
}, 120_000);
