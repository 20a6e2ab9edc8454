/**
 * The backward bound scan as it was before the slot layout (arrival-bound.ts at 41f2e15): per stop,
 * a profile of Pareto entries appended as the scan passes each departure and searched by time, per
 * trip a block of its best values. It bounds the arrival, the transfers and the grams left, each
 * per connection and time. Kept only for the tests: the optimized scan must give the same arrival
 * bounds, and the time-independent transfer and grams bounds (static-bounds.ts) must never exceed
 * these.
 */
import { classIndex, Network } from "../../../src/engine/optimizer/network";
import { transferClassOf } from "../../../src/engine/optimizer/model";
import { ArrivalBoundInput, LegTables } from "../../../src/engine/optimizer/search/arrival-bound";
import { hopLowerBounds } from "../../../src/engine/optimizer/search/leg-bounds";

/** The scan's input then: the arrival scan's, plus what the transfer and grams bounds need. */
export interface ReferenceBoundInput extends ArrivalBoundInput {
  egressGrams: Float64Array;
  minHandling: Float64Array;
  /** Per connection: the lower bound of its hop's grams. */
  hopGrams: Float64Array;
  legs: LegTables;
}

export interface ReferenceBounds {
  ride: Float64Array;
  alight: Float64Array;
  rideTransfers: Float64Array;
  alightTransfers: Float64Array;
  rideGrams: Float64Array;
  alightGrams: Float64Array;
  boardGrams: Float64Array;
  departing(u: number, time: number): number;
  stopArrival: Float64Array;
  stopTransfers: Float64Array;
  stopGrams: Float64Array;
}

/** The network's tables the grams bounds read, built plainly from its patterns and trips. */
export function referenceTables(
  net: Network
): Pick<ReferenceBoundInput, "minHandling" | "hopGrams" | "legs"> {
  const classes = 3;
  const minHandling = new Float64Array(classes);
  for (let c = 0; c < classes; c++)
    minHandling[c] = Math.min(...net.rules.handlingGrams[c].slice(0, classes));
  const hops = net.patterns.map((p) => hopLowerBounds(p));
  const conns = net.connections;
  const hopGrams = new Float64Array(conns.count);
  for (let k = 0; k < conns.count; k++)
    hopGrams[k] = hops[net.trips[conns.trip[k]].pattern][conns.pos[k]];
  const patternCalls = Int32Array.from(net.patterns, (p) => p.calls.length);
  const legOffset = new Int32Array(net.patterns.length);
  const legGrams = new Int32Array(net.patterns.reduce((s, p) => s + p.calls.length ** 2, 0));
  let at = 0;
  for (const p of net.patterns) {
    legOffset[p.index] = at;
    legGrams.set(p.legGrams, at);
    at += p.calls.length ** 2;
  }
  const tripPattern = Int32Array.from(net.trips, (t) => t.pattern);
  const tripStart = new Int32Array(net.trips.length + 1);
  for (const t of net.trips)
    tripStart[t.index + 1] = tripStart[t.index] + patternCalls[t.pattern] - 1;
  return {
    minHandling,
    hopGrams,
    legs: { patternCalls, legOffset, legGrams, tripPattern, tripStart },
  };
}

/** Per pattern: its transfer class (as the search takes it). */
export function patternClasses(net: Network): Int8Array {
  return Int8Array.from(net.patterns, (p) => classIndex(transferClassOf(p.modality)));
}

interface Scratch {
  /** Offsets per stop into the profile arrays: room for every connection departing the stop. */
  start: Int32Array;
  len: Int32Array;
  /** Departures of the profile entries per stop (latest first); their values are in `out.stop*`. */
  dep: Float64Array;
  /** Per trip: the bounds of its connection scanned last (the next one along the trip). */
  /** Interleaved per trip (arrival, transfers, grams): one cache line per look-up. */
  tripBest: Float64Array;
  /**
   * Per trip and call (trip t's calls from tripStart[t] + t): alightGrams of the hop ending at
   * that call, written when the backward scan passes it. Boarding reads a trip's later calls from
   * one contiguous block instead of looking up each hop's connection.
   */
  tripAlightGrams: Float64Array;
  out: Omit<ReferenceBounds, "departing">;
}

/** Fresh arrays for every call: the reference shares nothing between queries. */
function scratchOf(net: Network): Scratch {
  let s: Scratch;
  const conns = net.connections;
  const n = net.stops.length;
  const start = new Int32Array(n + 1);
  for (let k = 0; k < conns.count; k++) start[conns.from[k] + 1]++;
  for (let u = 0; u < n; u++) start[u + 1] += start[u];
  const perConnection = () => new Float64Array(conns.count);
  s = {
    start,
    len: new Int32Array(n),
    dep: perConnection(),
    tripBest: new Float64Array(3 * net.trips.length),
    tripAlightGrams: new Float64Array(
      net.trips.reduce((sum, t) => sum + net.patterns[t.pattern].calls.length, 0)
    ),
    out: {
      ride: perConnection(),
      alight: perConnection(),
      rideTransfers: perConnection(),
      alightTransfers: perConnection(),
      rideGrams: perConnection(),
      alightGrams: perConnection(),
      boardGrams: perConnection(),
      stopArrival: perConnection(),
      stopTransfers: perConnection(),
      stopGrams: perConnection(),
    },
  };
  return s;
}

export function referenceArrivalBounds(net: Network, q: ReferenceBoundInput): ReferenceBounds {
  const s = scratchOf(net);
  const { start, len, dep: pDep, tripBest, tripAlightGrams, out } = s;
  const { stopArrival: pEa, stopTransfers: pTr, stopGrams: pEm } = out;
  const { ride, alight, rideTransfers, alightTransfers, rideGrams, alightGrams, boardGrams } = out;
  const conns = net.connections;
  const { trip, from, to, dep, arr } = conns;
  len.fill(0);
  tripBest.fill(Infinity);
  // Hops past the scanned range (or of trips not allowed) cannot be reached: Infinity.
  tripAlightGrams.fill(Infinity);
  const { tripAllowed, stopUsable, tripCls, egressMinutes, egressGrams, classes } = q;
  const { minTransfer, minHandling, hopGrams } = q;
  const { patternCalls, legOffset, legGrams, tripPattern, tripStart } = q.legs;
  const pos = conns.pos;

  /**
   * Index of the profile entry of stop v holding the best values over departures at `time` or
   * later (entries run latest departure first with running minima); -1 when there is none.
   */
  const profileAt = (v: number, time: number): number => {
    const base = start[v];
    let lo = 0;
    let hi = len[v];
    // The answer is usually among the last entries (departing soon after now): gallop from the
    // end to bracket it, then bisect.
    for (let step = 1; hi - step > lo; step *= 2) {
      if (pDep[base + hi - step] >= time) {
        lo = hi - step + 1;
        break;
      }
      hi -= step;
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (pDep[base + mid] >= time) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? -1 : base + lo - 1;
  };

  for (let k = q.end - 1; k >= q.first; k--) {
    const t = trip[k];
    if (!tripAllowed[t]) {
      ride[k] = alight[k] = Infinity;
      rideTransfers[k] = alightTransfers[k] = Infinity;
      rideGrams[k] = alightGrams[k] = boardGrams[k] = Infinity;
      continue;
    }
    const v = to[k];
    const a = arr[k];
    const cls = tripCls[t];
    let ea = Infinity;
    let tr = Infinity;
    let em = Infinity;
    if (a <= q.maxArrival && stopUsable[v]) {
      const e = egressMinutes[v * classes + cls];
      if (e !== Infinity) {
        ea = a + e;
        tr = 0;
        em = egressGrams[v * classes + cls];
      }
      // At the destination itself (arrival now, no transfer, no emissions) nothing beats finishing.
      if (q.transfersAllowed && !(ea === a && tr === 0 && em === 0)) {
        const ready = a + minTransfer[cls];
        if (ready <= dep[k]) {
          // A zero transfer onto a connection leaving this very minute may not be scanned yet:
          // fall back to trivial bounds (no earlier than now, one more transfer, one handling).
          if (a < ea) ea = a;
          if (1 < tr) tr = 1;
          if (minHandling[cls] < em) em = minHandling[cls];
        } else {
          const i = profileAt(v, ready);
          if (i >= 0) {
            if (pEa[i] < ea) ea = pEa[i];
            if (pTr[i] < tr) tr = pTr[i];
            if (pEm[i] + minHandling[cls] < em) em = pEm[i] + minHandling[cls];
          }
        }
      }
    }
    alight[k] = ea;
    alightTransfers[k] = tr;
    alightGrams[k] = em;
    // Riding on from here: get off at the end of this hop, or stay on for the next one.
    const tb = 3 * t;
    if (tripBest[tb] < ea) ea = tripBest[tb];
    if (tripBest[tb + 1] < tr) tr = tripBest[tb + 1];
    if (tripBest[tb + 2] < em) em = tripBest[tb + 2];
    em += hopGrams[k];
    tripBest[tb] = ride[k] = ea;
    tripBest[tb + 1] = rideTransfers[k] = tr;
    tripBest[tb + 2] = rideGrams[k] = em;
    // Boarding here: each leg from this call at its exact grams, then the bound after getting off
    // (the later hops of the trip are scanned already; those past the range cannot be reached).
    const pat = tripPattern[t];
    const n = patternCalls[pat];
    const row = legOffset[pat] + pos[k] * n;
    const calls = tripStart[t] + t;
    tripAlightGrams[calls + pos[k] + 1] = alightGrams[k];
    let bEm = Infinity;
    for (let j = pos[k] + 1; j < n; j++) {
      const g = legGrams[row + j] + tripAlightGrams[calls + j];
      if (g < bEm) bEm = g;
    }
    boardGrams[k] = bEm;
    const u = from[k];
    if (ea !== Infinity && stopUsable[u]) {
      const base = start[u];
      const n = len[u];
      // Profile entries count the boarding at u as a transfer.
      const trBoard = tr + 1;
      if (n === 0) {
        pDep[base] = dep[k];
        pEa[base] = ea;
        pTr[base] = trBoard;
        pEm[base] = bEm;
        len[u] = 1;
      } else {
        const last = base + n - 1;
        if (ea < pEa[last] || trBoard < pTr[last] || bEm < pEm[last]) {
          pDep[last + 1] = dep[k];
          pEa[last + 1] = Math.min(ea, pEa[last]);
          pTr[last + 1] = Math.min(trBoard, pTr[last]);
          pEm[last + 1] = Math.min(bEm, pEm[last]);
          len[u] = n + 1;
        }
      }
    }
  }
  return { ...out, departing: profileAt };
}
