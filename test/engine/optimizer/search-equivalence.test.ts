/**
 * Property: on the generated network ten times the sample (the benchmark's), the optimized search
 * finds exactly the journeys the previous algorithm found (kept verbatim in src/bench/reference-mc-csa.ts for this test and the benchmark)
 * for random origin/destination pairs under random filters: the same Pareto set of (departure,
 * arrival, transfers, emissions) and the same legs for each.
 */
import fc from "fast-check";
import { parseQuery } from "../../../src/engine/optimizer";
import { Journey, searchJourneys } from "../../../src/engine/optimizer/search/mc-csa";
import { RawQuery } from "../../../src/engine/optimizer/types";
import { searchJourneysV1 } from "../../../src/bench/reference-mc-csa";
import { realNetworkOptimizer, TEST_NOW } from "./real-network";

const NOW = TEST_NOW;
const optimizer = realNetworkOptimizer({ scale: 10 });
const net = optimizer.network;
const locodes = net.stops.map((s) => s.locode);
const scacs = net.operators.map((o) => o.scac);
const MODES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"] as const;

function rarely<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
}

const queryArb = fc.record({
  origin: fc.integer({ min: 0, max: locodes.length - 1 }),
  destination: fc.integer({ min: 0, max: locodes.length - 1 }),
  startDays: fc.integer({ min: 0, max: 60 }),
  windowDays: rarely(fc.integer({ min: 0, max: 28 })),
  maxTransfers: rarely(fc.integer({ min: 0, max: 3 })),
  excludedOperator: rarely(fc.integer({ min: 0, max: scacs.length - 1 })),
  requiredOperator: rarely(fc.integer({ min: 0, max: scacs.length - 1 })),
  requiredLocode: rarely(fc.integer({ min: 0, max: locodes.length - 1 })),
  excludedLocode: rarely(fc.integer({ min: 0, max: locodes.length - 1 })),
  directSeaOnly: fc.boolean(),
  modalities: rarely(fc.uniqueArray(fc.constantFrom(...MODES), { minLength: 1, maxLength: 4 })),
  maxEmissionKg: rarely(fc.integer({ min: 100, max: 3000 })),
  maxLeadDays: rarely(fc.integer({ min: 5, max: 60 })),
});

const describeJourney = (j: Journey): string =>
  [
    j.dep0,
    j.arr,
    j.transfers,
    j.grams,
    `${j.access.stop}${j.access.truck ? "t" : ""}`,
    `${j.egress.stop}${j.egress.truck ? "t" : ""}`,
    j.legs.map((l) => `${l.trip}:${l.board}-${l.alight}`).join(","),
  ].join("|");

describe("optimized search vs the previous algorithm on the 10x network", () => {
  test("same journeys for random queries", () => {
    let nonEmpty = 0;
    fc.assert(
      fc.property(queryArb, (q) => {
        const raw: RawQuery = {
          origin: locodes[q.origin],
          originType: "LOCODE",
          destination: locodes[q.destination],
          destinationType: "LOCODE",
          minDeparture: new Date(NOW.getTime() + q.startDays * 86_400_000).toISOString(),
        };
        if (q.windowDays !== undefined)
          raw.maxDeparture = new Date(
            NOW.getTime() + (q.startDays + q.windowDays) * 86_400_000
          ).toISOString();
        if (q.maxTransfers !== undefined) raw.maxTransfers = String(q.maxTransfers);
        if (q.excludedOperator !== undefined) raw.excludedOperators = scacs[q.excludedOperator];
        if (q.requiredOperator !== undefined) raw.allRequiredOperators = scacs[q.requiredOperator];
        if (q.requiredLocode !== undefined) raw.allRequiredLocodes = locodes[q.requiredLocode];
        if (q.excludedLocode !== undefined) raw.excludedLocodes = locodes[q.excludedLocode];
        if (q.directSeaOnly) raw.directSeaOnly = "true";
        if (q.modalities) raw.modalities = q.modalities.join(",");
        if (q.maxEmissionKg !== undefined) raw.maxEmission = String(q.maxEmissionKg);
        if (q.maxLeadDays !== undefined) raw.maxLeadTime = `P${q.maxLeadDays}D`;
        const plan = optimizer.plan(parseQuery(raw, optimizer.defaults()));
        if (!plan) return;
        const got = searchJourneys(net, plan.spec).map(describeJourney).sort();
        const want = searchJourneysV1(net, plan.spec).map(describeJourney).sort();
        if (want.length) nonEmpty++;
        expect(got).toEqual(want);
      }),
      { numRuns: 60, seed: 20261126 }
    );
    // Not vacuous: many random queries have routes (25 of 60 with this seed).
    expect(nonEmpty).toBeGreaterThan(20);
    // Both searches on 60 queries over the 10x network: tens of seconds on a loaded machine.
  }, 600_000);
});
