/**
 * Properties of the time-independent transfer and grams bounds (static-bounds.ts) on the real
 * sample network, for random allowed patterns, usable stops, destinations and transfer rules:
 * - each equals a plain fixpoint over every (pattern, boarding call, alighting call) written here
 *   from the definition (Bellman-Ford, no ordering, no suffix minima), also for an input asked
 *   again after others (bounds kept per input, or their arrays reused for another);
 * - each is a lower bound: never above the time-dependent bound of the previous backward scan
 *   (arrival-bound-reference.ts) for any connection of an allowed trip, nor above its stop bound
 *   at any time, over the whole timetable.
 * The search with these bounds is checked end to end by the brute-force property tests
 * (pareto-property.test.ts) and against the previous algorithm (search-equivalence.test.ts).
 */
import fc from "fast-check";
import {
  keepRecentBounds,
  patternCalls,
  StaticBoundInput,
  staticBounds,
  StaticBounds,
} from "../../../src/engine/optimizer/search/static-bounds";
import { hopLowerBounds } from "../../../src/engine/optimizer/search/leg-bounds";
import { patternClasses, referenceArrivalBounds, referenceTables } from "./arrival-bound-reference";
import { egressArb, maskArb, mostlyArb, realNetworkOptimizer } from "./real-network";

const net = realNetworkOptimizer().network;
const conns = net.connections;
const stopCount = net.stops.length;
const classes = 3;
const tables = referenceTables(net);
const patternCls = patternClasses(net);

const inputArb: fc.Arbitrary<StaticBoundInput> = fc
  .record({
    patternAllowed: maskArb(net.patterns.length),
    stopUsable: maskArb(stopCount),
    egress: egressArb(stopCount, classes),
    transfersAllowed: fc.boolean(),
    // Mostly the network's own handling, sometimes none or other grams.
    minHandling: mostlyArb(tables.minHandling, 20_000, classes),
  })
  .map(({ egress, ...r }) => {
    return { ...r, ...egress, classes, patternCls, legs: tables.legs };
  });

/** The bounds from their definition: fixpoints over every boarding and alighting call. */
function plainBounds(q: StaticBoundInput): StaticBounds {
  const pats = net.patterns.filter((p) => q.patternAllowed[p.index]);
  const leg = (p: number, i: number, c: number) =>
    q.legs.legGrams[q.legs.legOffset[p] + i * net.patterns[p].calls.length + c];
  const egressAt = (p: number, c: number): [number, number] => {
    const v = net.patterns[p].calls[c].stop;
    const at = v * classes + patternCls[p];
    return q.stopUsable[v] && q.egressMinutes[at] !== Infinity
      ? [0, q.egressGrams[at]]
      : [Infinity, Infinity];
  };
  const stopTr = new Float64Array(stopCount).fill(Infinity);
  const stopGr = new Float64Array(stopCount).fill(Infinity);
  /** Bounds after getting off pattern p at call c: [transfers, grams]. */
  const after = (p: number, c: number): [number, number] => {
    const v = net.patterns[p].calls[c].stop;
    const [eTr, eGr] = egressAt(p, c);
    if (!q.transfersAllowed || !q.stopUsable[v]) return [eTr, eGr];
    return [Math.min(eTr, stopTr[v]), Math.min(eGr, stopGr[v] + q.minHandling[patternCls[p]])];
  };
  for (let changed = true; changed;) {
    changed = false;
    for (const p of pats)
      for (let i = 0; i < p.calls.length - 1; i++) {
        const u = p.calls[i].stop;
        if (!q.stopUsable[u]) continue;
        for (let c = i + 1; c < p.calls.length; c++) {
          const [tr, gr] = after(p.index, c);
          if (tr + 1 < stopTr[u]) {
            stopTr[u] = tr + 1;
            changed = true;
          }
          if (leg(p.index, i, c) + gr < stopGr[u]) {
            stopGr[u] = leg(p.index, i, c) + gr;
            changed = true;
          }
        }
      }
  }
  const { callStart } = patternCalls(net);
  const total = callStart[net.patterns.length];
  const out: StaticBounds = {
    rideTransfers: new Float64Array(total).fill(Infinity),
    rideGrams: new Float64Array(total).fill(Infinity),
    alightTransfers: new Float64Array(total).fill(Infinity),
    alightGrams: new Float64Array(total).fill(Infinity),
    boardGrams: new Float64Array(total).fill(Infinity),
    stopTransfers: stopTr,
    stopGrams: stopGr,
  };
  for (const p of pats) {
    const hops = hopLowerBounds(p);
    for (let i = 0; i < p.calls.length - 1; i++) {
      const h = callStart[p.index] + i;
      [out.alightTransfers[h], out.alightGrams[h]] = after(p.index, i + 1);
      for (let c = i + 1; c < p.calls.length; c++) {
        const [tr, gr] = after(p.index, c);
        // The hops' bounds summed from the last one back (as the riding cargo meets them).
        let ride = gr;
        for (let x = c - 1; x >= i; x--) ride = hops[x] + ride;
        out.rideTransfers[h] = Math.min(out.rideTransfers[h], tr);
        out.rideGrams[h] = Math.min(out.rideGrams[h], ride);
        out.boardGrams[h] = Math.min(out.boardGrams[h], leg(p.index, i, c) + gr);
      }
    }
  }
  return out;
}

const FIELDS = [
  "rideTransfers",
  "rideGrams",
  "alightTransfers",
  "alightGrams",
  "boardGrams",
  "stopTransfers",
  "stopGrams",
] as const;

describe("staticBounds", () => {
  it("equals the plain fixpoint over every boarding and alighting call", () => {
    let finite = 0;
    fc.assert(
      fc.property(inputArb, (q) => {
        const got = staticBounds(net, q);
        const want = plainBounds(q);
        for (const f of FIELDS) expect(Array.from(got[f])).toEqual(Array.from(want[f]));
        finite += got.stopTransfers.filter((x) => x !== Infinity).length;
      }),
      { numRuns: 60 }
    );
    // Not vacuous: stops reach the destinations.
    expect(finite).toBeGreaterThan(100);
  });

  it("answers a repeated input as a fresh one, whatever came between (kept or reused arrays)", () => {
    for (const room of [2, 1000]) {
      keepRecentBounds(net, room);
      fc.assert(
        // The same input but one part of it between (so each part must tell inputs apart).
        fc.property(inputArb, fc.array(inputArb, { maxLength: 6 }), (q, others) => {
          const between = others.map((o, i): StaticBoundInput => {
            switch (i % 6) {
              case 0:
                return { ...q, minHandling: o.minHandling };
              case 1:
                return { ...q, transfersAllowed: !q.transfersAllowed };
              case 2:
                return { ...q, stopUsable: o.stopUsable };
              case 3:
                return { ...q, patternAllowed: o.patternAllowed };
              case 4:
                return { ...q, egressMinutes: o.egressMinutes, egressGrams: o.egressGrams };
              default:
                return o;
            }
          });
          staticBounds(net, q);
          for (const other of between) {
            const got = staticBounds(net, other);
            const want = plainBounds(other);
            for (const f of FIELDS) expect(Array.from(got[f])).toEqual(Array.from(want[f]));
          }
          const got = staticBounds(net, q);
          const want = plainBounds(q);
          for (const f of FIELDS) expect(Array.from(got[f])).toEqual(Array.from(want[f]));
        }),
        { numRuns: 30 }
      );
    }
  });

  it("never exceeds the time-dependent bounds of the previous backward scan", () => {
    const { callStart } = patternCalls(net);
    let compared = 0;
    fc.assert(
      fc.property(inputArb, (q) => {
        const tripAllowed = Uint8Array.from(net.trips, (t) => q.patternAllowed[t.pattern]);
        const tripCls = Int8Array.from(net.trips, (t) => patternCls[t.pattern]);
        const minTransfer = new Float64Array(classes);
        for (let c = 0; c < classes; c++)
          minTransfer[c] = Math.min(...net.rules.minutes[c].slice(0, classes));
        const ref = referenceArrivalBounds(net, {
          first: 0,
          end: conns.count,
          tripAllowed,
          stopUsable: q.stopUsable,
          tripCls,
          egressMinutes: q.egressMinutes,
          egressGrams: q.egressGrams,
          minTransfer,
          minHandling: q.minHandling,
          hopGrams: tables.hopGrams,
          legs: tables.legs,
          transfersAllowed: q.transfersAllowed,
          maxArrival: Infinity,
          classes,
        });
        const got = staticBounds(net, q);
        for (let k = 0; k < conns.count; k++) {
          if (!tripAllowed[conns.trip[k]]) continue;
          const h = callStart[net.trips[conns.trip[k]].pattern] + conns.pos[k];
          for (const f of ["rideTransfers", "rideGrams", "alightTransfers", "alightGrams"] as const)
            if (!(got[f][h] <= ref[f][k]))
              throw new Error(`${f} at connection ${k}: ${got[f][h]} > ${ref[f][k]}`);
          if (ref.ride[k] !== Infinity && !(got.boardGrams[h] <= ref.boardGrams[k]))
            throw new Error(`boardGrams at ${k}: ${got.boardGrams[h]} > ${ref.boardGrams[k]}`);
          if (ref.ride[k] !== Infinity) compared++;
          // The stop bounds from this departure on.
          const u = conns.from[k];
          const i = ref.departing(u, conns.dep[k]);
          if (
            i >= 0 &&
            !(got.stopTransfers[u] <= ref.stopTransfers[i] && got.stopGrams[u] <= ref.stopGrams[i])
          )
            throw new Error(`stop ${u} at ${conns.dep[k]}: above the reference`);
        }
      }),
      { numRuns: 20 }
    );
    expect(compared).toBeGreaterThan(1000);
  });
});
