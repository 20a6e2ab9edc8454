/**
 * Time-dependent lower bounds on what is left of a journey, for pruning the multi-criteria scan:
 * one backward profile scan over the connections the query can reach computes, for each criterion
 * on its own (earliest arrival, fewest further transfers, least further emissions), the best value
 * any continuation can reach, ignoring the other criteria and the requirements. Per connection k:
 *
 * - `ride*[k]`: for cargo on board at the start of connection k (it stays on its trip, or gets off
 *   at its end or at a later call);
 * - `alight*[k]`: for cargo that gets off at the end of connection k (not counting the transfer
 *   that got it there).
 *
 * Each is a minimum over a superset of the continuations the search can still build, so never
 * above the real value: a label whose bounds are all matched by a complete journey already found
 * (that also departs no earlier) can be dropped, and a label on a trip whose `ride` bounds are
 * matched, for good. A transfer is assumed to take the shortest minimum transfer time and the
 * smallest handling from the arriving class to any class, which keeps the bounds below the real
 * ones.
 */
import { Network } from "../network";

export interface ArrivalBounds {
  /** Earliest final arrival (minutes). */
  ride: Float64Array;
  alight: Float64Array;
  /** Fewest further transfers. */
  rideTransfers: Float64Array;
  alightTransfers: Float64Array;
  /** Least further grams CO2e per TEU, from the hop bounds (ride: including connection k's own hop). */
  rideGrams: Float64Array;
  alightGrams: Float64Array;
  /**
   * Least further grams for cargo boarding at the start of connection k: each leg from that call
   * with its exact grams (legGrams) plus the bound after getting off (never below rideGrams).
   */
  boardGrams: Float64Array;
  /**
   * For cargo ready at stop u at `time` (boarding any trip leaving then or later): the index into
   * `stopArrival`, `stopTransfers` (counting the boarding as one) and `stopGrams` (from boardGrams) of its bounds,
   * or -1 when no trip leaving u then or later reaches the destination.
   */
  departing(u: number, time: number): number;
  stopArrival: Float64Array;
  stopTransfers: Float64Array;
  stopGrams: Float64Array;
}

export interface ArrivalBoundInput {
  /** Connection range [first, end) the search scans. */
  first: number;
  end: number;
  tripAllowed: Uint8Array;
  stopUsable: Uint8Array;
  tripCls: Int8Array;
  /** Per stop * classes + arriving class: minutes from getting off to the final arrival (Infinity: no egress). */
  egressMinutes: Float64Array;
  /** Same indexing: the least grams of the last mile (truck and handling; 0 at the place itself). */
  egressGrams: Float64Array;
  /** Per arriving class: the shortest minimum transfer time and the least handling onto any scheduled class. */
  minTransfer: Float64Array;
  minHandling: Float64Array;
  /**
   * Per connection: a lower bound of the grams CO2e of its hop. Leg emissions are not additive over
   * calls (trade lanes), so these are hop bounds whose sum over any stretch of calls never exceeds
   * that leg's grams (see leg-bounds.ts): the grams bounds below stay lower bounds.
   */
  hopGrams: Float64Array;
  /** The legs' exact grams: see LegTables. */
  legs: LegTables;
  transfersAllowed: boolean;
  maxArrival: number;
  classes: number;
}

/** Every pattern's board×alight grams and every trip's connections, in flat arrays. */
export interface LegTables {
  /** Per pattern: number of calls, and offset of its n×n legGrams in `legGrams`. */
  patternCalls: Int32Array;
  legOffset: Int32Array;
  legGrams: Int32Array;
  tripPattern: Int32Array;
  /** Per trip: the number of hops of the trips before it (trip t's calls start at tripStart[t] + t). */
  tripStart: Int32Array;
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
  out: Omit<ArrivalBounds, "departing">;
}

/**
 * Reused between searches of one network (the search is synchronous, so one at a time per thread):
 * saves allocating and collecting a few megabytes per query.
 */
const scratchCache = new WeakMap<Network, Scratch>();

function scratchOf(net: Network): Scratch {
  let s = scratchCache.get(net);
  if (s) return s;
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
  scratchCache.set(net, s);
  return s;
}

/** Valid for connections in [first, end) until the next call for the same network. */
export function arrivalBounds(net: Network, q: ArrivalBoundInput): ArrivalBounds {
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
