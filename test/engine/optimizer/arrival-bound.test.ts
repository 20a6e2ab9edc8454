/**
 * Properties of the backward bound scan (arrival-bound.ts) on the real sample network, with the
 * inputs a real search builds, varied at random (scanned range, allowed trips, usable stops,
 * destinations, latest arrival, transfers allowed, transfer times):
 * - every per-connection arrival bound over [first, end) equals, bit for bit, that of the scan as
 *   it was before its slot layout (arrival-bound-reference.ts, fresh arrays every call);
 * - `departing(u, time)` gives the same bound (or -1 alike) for any stop and time;
 * - the scan reuses its arrays between queries, so it runs on another random query just before:
 *   what one query leaves behind never shows in the next one's bounds.
 */
import fc from "fast-check";
import { parseQuery } from "../../../src/engine/optimizer";
import * as boundModule from "../../../src/engine/optimizer/search/arrival-bound";
import {
  ArrivalBoundInput,
  ArrivalBounds,
  arrivalBounds,
} from "../../../src/engine/optimizer/search/arrival-bound";
import { searchJourneys } from "../../../src/engine/optimizer/search/mc-csa";
import {
  departureSlots,
  firstSlotFrom,
} from "../../../src/engine/optimizer/search/departure-slots";
import {
  ReferenceBoundInput,
  ReferenceBounds,
  referenceArrivalBounds,
  referenceTables,
} from "./arrival-bound-reference";
import { egressArb, maskArb, mostlyArb, realNetworkOptimizer } from "./real-network";

const optimizer = realNetworkOptimizer();
const net = optimizer.network;
const conns = net.connections;
const stopCount = net.stops.length;
const classes = 3;

/** The input a real search (Rotterdam to Shanghai) hands the scan: its static tables are kept. */
function capturedInput(): ArrivalBoundInput {
  const spy = jest.spyOn(boundModule, "arrivalBounds");
  try {
    const plan = optimizer.plan(
      parseQuery(
        {
          origin: "NLRTM",
          originType: "LOCODE",
          destination: "CNSHA",
          destinationType: "LOCODE",
        },
        optimizer.defaults()
      )
    );
    searchJourneys(net, plan!.spec);
    expect(spy).toHaveBeenCalledTimes(1);
    return spy.mock.calls[0][1];
  } finally {
    spy.mockRestore();
  }
}
const captured = capturedInput();
const tables = referenceTables(net);
/** The captured input with what the reference also reads (it bounds transfers and grams too). */
const base: ReferenceBoundInput = {
  ...captured,
  egressGrams: new Float64Array(stopCount * classes).fill(Infinity),
  ...tables,
};

const first = conns.dep[0];
const last = conns.dep[conns.count - 1];

const queryArb: fc.Arbitrary<ReferenceBoundInput> = fc
  .record({
    range: fc.tuple(fc.nat(conns.count), fc.nat(conns.count)),
    tripAllowed: maskArb(net.trips.length),
    stopUsable: maskArb(stopCount),
    egress: egressArb(stopCount, classes),
    maxArrival: fc.oneof(
      fc.constant(Infinity),
      fc.integer({ min: Math.floor(first), max: Math.ceil(last) })
    ),
    transfersAllowed: fc.boolean(),
    // Mostly the network's own transfer times (cached per network), sometimes others.
    minTransfer: mostlyArb(base.minTransfer, 2000, classes),
  })
  .map(({ range: [a, b], tripAllowed, stopUsable, egress, maxArrival, transfersAllowed, ...r }) => {
    return {
      ...base,
      first: Math.min(a, b),
      end: Math.max(a, b),
      tripAllowed,
      stopUsable,
      ...egress,
      maxArrival,
      transfersAllowed,
      minTransfer: r.minTransfer,
    };
  });

const FIELDS = ["ride", "alight"] as const;

/** The bound at a stop for a time, as a value (the index itself is the scan's own business). */
function departingValues(b: ArrivalBounds | ReferenceBounds, u: number, time: number): number | -1 {
  const i = b.departing(u, time);
  return i < 0 ? -1 : b.stopArrival[i];
}

/** Compares the scan's answer to the reference's; returns the first difference found. */
function firstDifference(q: ArrivalBoundInput, got: ArrivalBounds, want: ReferenceBounds): string {
  for (const f of FIELDS)
    for (let k = q.first; k < q.end; k++)
      if (!Object.is(got[f][k], want[f][k]))
        return `${f}[${k}]: ${got[f][k]}, reference ${want[f][k]}`;
  // Every stop at the times the scan itself looks up (an arrival plus a transfer), and between.
  for (let k = q.first; k < q.end; k += 7) {
    const u = conns.to[k];
    for (const time of [conns.arr[k], conns.arr[k] + q.minTransfer[0], conns.dep[k] - 1]) {
      const g = JSON.stringify(departingValues(got, u, time));
      const w = JSON.stringify(departingValues(want, u, time));
      if (g !== w) return `departing(${u}, ${time}): ${g}, reference ${w}`;
    }
  }
  for (let u = 0; u < stopCount; u++)
    for (const time of [-Infinity, first, (first + last) / 2, last, Infinity]) {
      const g = JSON.stringify(departingValues(got, u, time));
      const w = JSON.stringify(departingValues(want, u, time));
      if (g !== w) return `departing(${u}, ${time}): ${g}, reference ${w}`;
    }
  return "";
}

describe("arrivalBounds", () => {
  it("gives a real search's bounds, finite for some connections", () => {
    const got = arrivalBounds(net, base);
    expect(firstDifference(base, got, referenceArrivalBounds(net, base))).toBe("");
    let finite = 0;
    for (let k = base.first; k < base.end; k++) if (got.ride[k] !== Infinity) finite++;
    expect(finite).toBeGreaterThan(100);
  });

  it("answers on a network without connections (nothing departs anywhere)", () => {
    const none = { ...net, trips: [], patterns: [], connections: { ...conns, count: 0 } };
    const q = { ...base, first: 0, end: 0 };
    const got = arrivalBounds(none, q);
    for (let u = 0; u < stopCount; u++) expect(got.departing(u, first)).toBe(-1);
  });

  it("gives the same bound from a stop's slot as from its time", () => {
    const { stopStart, slotDep } = departureSlots(net);
    fc.assert(
      fc.property(
        queryArb,
        fc.array(
          fc.tuple(fc.nat(stopCount - 1), fc.integer({ min: first - 100, max: last + 100 }))
        ),
        (q, probes) => {
          const got = arrivalBounds(net, q);
          for (const [u, time] of probes) {
            const slot = firstSlotFrom(slotDep, stopStart[u], stopStart[u + 1], time);
            expect(got.fromSlot(u, slot)).toBe(got.departing(u, time));
          }
        }
      ),
      { numRuns: 40 }
    );
  });

  it("equals the reference scan on random queries, each run just after another one", () => {
    fc.assert(
      fc.property(queryArb, queryArb, (before, q) => {
        arrivalBounds(net, before);
        const got = arrivalBounds(net, q);
        expect(firstDifference(q, got, referenceArrivalBounds(net, q))).toBe("");
      }),
      { numRuns: 60 }
    );
  });
});
