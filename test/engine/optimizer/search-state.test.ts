/**
 * The search keeps its labels, bags and heaps per network and reuses them (search/mc-csa.ts):
 * a search stopped by its budget half-way, with labels on board and waiting, must leave nothing
 * behind, so the next searches on the sample network find what they find on their own.
 */
import { loadEngine } from "../../../src/data/load-engine";
import { loadOptimizer } from "../../../src/data/optimizer";
import { parseQuery } from "../../../src/engine/optimizer";
import {
  Journey,
  SearchBudgetExceeded,
  searchJourneys,
} from "../../../src/engine/optimizer/search/mc-csa";

const optimizer = loadOptimizer({ engine: loadEngine({}), now: new Date("2026-11-23T00:00:00Z") });
const net = optimizer.network;
const specOf = (origin: string, destination: string, extra: Record<string, string> = {}) => {
  const raw = { origin, originType: "LOCODE", destination, destinationType: "LOCODE", ...extra };
  const plan = optimizer.plan(parseQuery(raw, optimizer.defaults()));
  if (!plan) throw new Error(`no plan for ${origin} -> ${destination}`);
  return plan.spec;
};
const describeAll = (js: Journey[]) =>
  js.map((j) =>
    [
      j.dep0,
      j.arr,
      j.transfers,
      j.grams,
      j.access.stop,
      j.egress.stop,
      JSON.stringify(j.legs),
    ].join("|")
  );

describe("search state reused between searches", () => {
  const queries = [
    specOf("CNSHA", "NLRTM"),
    specOf("NLRTM", "DEDUI"),
    specOf("CNSHA", "DEHAM", { directSeaOnly: "true", maxTransfers: "2" }),
  ];

  test("a search stopped by its budget half-way leaves nothing behind", () => {
    const alone = queries.map((s) => describeAll(searchJourneys(net, s)));
    expect(alone[0].length).toBeGreaterThan(3);
    expect(alone[1].length).toBeGreaterThan(0);
    for (const [i, spec] of queries.entries()) {
      // The clock reads 0 at the first look and far past the deadline at the next (after 1,024
      // connections): the search stops with labels on board and waiting.
      let looks = 0;
      const now = jest.spyOn(Date, "now").mockImplementation(() => (looks++ === 0 ? 0 : 1e15));
      try {
        expect(() => searchJourneys(net, { ...spec, deadline: 1 })).toThrow(SearchBudgetExceeded);
      } finally {
        now.mockRestore();
      }
      expect(looks).toBe(2);
      // Every query after it, this one and the others, finds what it finds alone.
      for (const [j, other] of queries.entries())
        expect(describeAll(searchJourneys(net, other))).toEqual(alone[j]);
      expect(describeAll(searchJourneys(net, spec))).toEqual(alone[i]);
    }
  });

  test("a search cancelled half-way stops as one over its budget and leaves nothing behind; one never cancelled finds what it finds alone", () => {
    const alone = queries.map((s) => describeAll(searchJourneys(net, s)));
    for (const [i, spec] of queries.entries()) {
      // The flag reads false at the first look and true at the next (the thread's caller left).
      let looks = 0;
      expect(() =>
        searchJourneys(net, { ...spec, deadline: Infinity, cancelled: () => looks++ > 0 })
      ).toThrow(SearchBudgetExceeded);
      expect(looks).toBe(2);
      expect(describeAll(searchJourneys(net, { ...spec, cancelled: () => false }))).toEqual(
        alone[i]
      );
      for (const [j, other] of queries.entries())
        expect(describeAll(searchJourneys(net, other))).toEqual(alone[j]);
    }
  });
});
