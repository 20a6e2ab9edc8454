/**
 * Time-independent lower bounds on the transfers and the grams CO2e left of a journey, for pruning
 * the multi-criteria scan: shortest paths over the pattern graph (every service's calls, whatever
 * its departure times) to the destination, one criterion at a time, with the same relaxations as
 * the arrival bound (arrival-bound.ts): a transfer takes the least handling onto any class, a
 * ride's grams are its hops' lower bounds (leg-bounds.ts) except at boarding, where each leg from
 * the boarding call counts at its exact grams.
 *
 * Each is a minimum over a superset of the continuations the search can build at any time, so
 * never above the real value. Over a horizon of weeks of weekly services, the time-dependent
 * minima (any continuation departing later) equal these almost everywhere, and these cost a pass
 * over the patterns instead of one per connection: only the arrival bound is kept per connection.
 *
 * Indexing: a hop of pattern p from call i to call i + 1 is `callStart[p] + i`; a stop is its index.
 */
import { Network } from "../network";
import { hopLowerBounds } from "./leg-bounds";
import { LegTables } from "./arrival-bound";

export interface StaticBounds {
  /** Per hop: cargo on board at its start (getting off at its end or later). */
  rideTransfers: Float64Array;
  rideGrams: Float64Array;
  /** Per hop: cargo getting off at its end (not counting the transfer that got it there). */
  alightTransfers: Float64Array;
  alightGrams: Float64Array;
  /** Per hop: cargo boarding at its start (each leg from that call at its exact grams). */
  boardGrams: Float64Array;
  /** Per stop: cargo ready to board there (the boarding counted as one transfer). */
  stopTransfers: Float64Array;
  stopGrams: Float64Array;
}

export interface StaticBoundInput {
  patternAllowed: Uint8Array;
  stopUsable: Uint8Array;
  /** Per stop * classes + arriving class: minutes of the last mile (Infinity: no egress there). */
  egressMinutes: Float64Array;
  /** Same indexing: the least grams of the last mile (truck and handling; 0 at the place itself). */
  egressGrams: Float64Array;
  /** Per arriving class: the least handling onto any scheduled class. */
  minHandling: Float64Array;
  transfersAllowed: boolean;
  classes: number;
  /** Per pattern: its transfer class. */
  patternCls: Int8Array;
  legs: LegTables;
}

/** Per network, once: the patterns' calls in flat arrays. */
export interface PatternCalls {
  /** Pattern p's calls are [callStart[p], callStart[p + 1]). */
  callStart: Int32Array;
  callStop: Int32Array;
  /** Per call i (but the last of its pattern): the lower bound of the grams of the hop to i + 1. */
  hopLow: Float64Array;
  /** Per stop u, [arrivalStart[u], arrivalStart[u + 1]) in `arrivalCall`: the calls (not first) at u. */
  arrivalStart: Int32Array;
  arrivalCall: Int32Array;
  /** Per call: its pattern. */
  callPattern: Int32Array;
}

const callsCache = new WeakMap<Network, PatternCalls>();

/** What a query works in, per network and reused by the next query (one at a time per thread). */
interface Scratch {
  egressTr: Float64Array;
  egressGr: Float64Array;
  /** Per pattern: 1 when the destination is reachable from one of its calls. */
  patternEgress: Uint8Array;
  settled: Uint8Array;
  /**
   * The bounds of recent queries by their input (see inputKey), least recently used first: a
   * destination asked for again (with the same filters) costs a look-up. At most `room` of them.
   */
  recent: Map<string, StaticBounds>;
  room: number;
}

/** Memory the kept bounds of one network may take (each holds five numbers per call). */
const RECENT_BYTES = 32 << 20;
const scratchCache = new WeakMap<Network, Scratch>();

function scratchOf(net: Network, total: number): Scratch {
  let s = scratchCache.get(net);
  if (s) return s;
  const perCall = () => new Float64Array(total);
  s = {
    egressTr: perCall(),
    egressGr: perCall(),
    patternEgress: new Uint8Array(net.patterns.length),
    settled: new Uint8Array(net.stops.length),
    recent: new Map(),
    room: Math.max(1, Math.floor(RECENT_BYTES / (8 * (5 * total + 2 * net.stops.length)))),
  };
  scratchCache.set(net, s);
  return s;
}

export function patternCalls(net: Network): PatternCalls {
  let pc = callsCache.get(net);
  if (pc) return pc;
  const callStart = new Int32Array(net.patterns.length + 1);
  for (const p of net.patterns) callStart[p.index + 1] = p.calls.length;
  for (let p = 0; p < net.patterns.length; p++) callStart[p + 1] += callStart[p];
  const total = callStart[net.patterns.length];
  const callStop = new Int32Array(total);
  const callPattern = new Int32Array(total);
  const hopLow = new Float64Array(total);
  const arrivalStart = new Int32Array(net.stops.length + 1);
  for (const p of net.patterns) {
    const h = hopLowerBounds(p);
    const at = callStart[p.index];
    p.calls.forEach((c, i) => {
      callStop[at + i] = c.stop;
      callPattern[at + i] = p.index;
      if (i < h.length) hopLow[at + i] = h[i];
      if (i > 0) arrivalStart[c.stop + 1]++;
    });
  }
  for (let u = 0; u < net.stops.length; u++) arrivalStart[u + 1] += arrivalStart[u];
  const fill = arrivalStart.slice(0, net.stops.length);
  const arrivalCall = new Int32Array(arrivalStart[net.stops.length]);
  for (const p of net.patterns)
    for (let i = 1; i < p.calls.length; i++)
      arrivalCall[fill[p.calls[i].stop]++] = callStart[p.index] + i;
  pc = { callStart, callStop, hopLow, arrivalStart, arrivalCall, callPattern };
  callsCache.set(net, pc);
  return pc;
}

/** Keeps at most `room` recent bounds for the network from now on (tests use 1 to reuse arrays). */
export function keepRecentBounds(net: Network, room: number): void {
  const s = scratchOf(net, patternCalls(net).callStart[net.patterns.length]);
  s.room = Math.max(1, room);
  for (const key of [...s.recent.keys()].slice(0, Math.max(0, s.recent.size - s.room)))
    s.recent.delete(key);
}

/** Ids of the tables a key refers to by identity (the search passes the same ones every time). */
const tableIds = new WeakMap<object, number>();
let nextTableId = 0;
function tableId(t: object): number {
  let id = tableIds.get(t);
  if (id === undefined) tableIds.set(t, (id = nextTableId++));
  return id;
}

/** Everything the bounds depend on, as text. */
function inputKey(q: StaticBoundInput): string {
  let egress = "";
  for (let i = 0; i < q.egressMinutes.length; i++)
    if (q.egressMinutes[i] !== Infinity) egress += `${i}:${q.egressGrams[i]},`;
  return [
    egress,
    q.patternAllowed.join(""),
    q.stopUsable.join(""),
    q.minHandling.join(","),
    q.transfersAllowed,
    q.classes,
    tableId(q.patternCls),
    tableId(q.legs),
  ].join("|");
}

/**
 * Valid until a later call for the same network (the arrays of bounds no longer kept are reused).
 * Bounds for the same input as a recent query are that query's (kept per network, see Scratch).
 */
export function staticBounds(net: Network, q: StaticBoundInput): StaticBounds {
  const { callStart, callStop, hopLow, arrivalStart, arrivalCall, callPattern } = patternCalls(net);
  const { patternAllowed, stopUsable, egressMinutes, egressGrams, minHandling, patternCls } = q;
  const { transfersAllowed, classes } = q;
  const { legOffset, legGrams } = q.legs;
  const patterns = net.patterns.length;
  const stops = net.stops.length;
  const total = callStart[patterns];

  const scratch = scratchOf(net, total);
  const { egressTr, egressGr, patternEgress, settled, recent } = scratch;
  const key = inputKey(q);
  const kept = recent.get(key);
  if (kept) {
    recent.delete(key);
    recent.set(key, kept);
    return kept;
  }
  let out: StaticBounds;
  if (recent.size >= scratch.room) {
    // The least recently used gives its arrays (all entries are written below).
    const [oldest, reused] = recent.entries().next().value as [string, StaticBounds];
    recent.delete(oldest);
    out = reused;
  } else {
    const perCall = () => new Float64Array(total);
    out = {
      rideTransfers: perCall(),
      rideGrams: perCall(),
      alightTransfers: perCall(),
      alightGrams: perCall(),
      boardGrams: perCall(),
      stopTransfers: new Float64Array(stops),
      stopGrams: new Float64Array(stops),
    };
  }
  recent.set(key, out);
  // Per call (as an arrival): 0 transfers and the last mile's grams where the destination is
  // reachable from there.
  egressTr.fill(Infinity);
  egressGr.fill(Infinity);
  patternEgress.fill(0);
  for (let p = 0; p < patterns; p++) {
    if (!patternAllowed[p]) continue;
    const cls = patternCls[p];
    for (let c = callStart[p] + 1; c < callStart[p + 1]; c++) {
      const v = callStop[c];
      if (!stopUsable[v] || egressMinutes[v * classes + cls] === Infinity) continue;
      egressTr[c] = 0;
      egressGr[c] = egressGrams[v * classes + cls];
      patternEgress[p] = 1;
    }
  }

  // Fewest transfers from each stop (boarding counted): relaxed until nothing changes, at most
  // once more than the longest chain of transfers.
  const stopTransfers = out.stopTransfers.fill(Infinity);
  for (let changed = true; changed;) {
    changed = false;
    for (let p = 0; p < patterns; p++) {
      if (!patternAllowed[p]) continue;
      let best = Infinity;
      for (let i = callStart[p + 1] - 2; i >= callStart[p]; i--) {
        const v = callStop[i + 1];
        const a =
          transfersAllowed && stopUsable[v]
            ? Math.min(egressTr[i + 1], stopTransfers[v])
            : egressTr[i + 1];
        if (a < best) best = a;
        const u = callStop[i];
        if (stopUsable[u] && best + 1 < stopTransfers[u]) {
          stopTransfers[u] = best + 1;
          changed = true;
        }
      }
    }
  }

  // Least grams from each stop: Dijkstra over the stops (all weights are grams, never negative).
  const stopGrams = out.stopGrams.fill(Infinity);
  for (let p = 0; p < patterns; p++) {
    if (!patternAllowed[p] || !patternEgress[p]) continue;
    const s = callStart[p];
    const n = callStart[p + 1] - s;
    for (let i = 0; i < n - 1; i++) {
      const u = callStop[s + i];
      if (!stopUsable[u]) continue;
      const row = legOffset[p] + i * n;
      for (let c = i + 1; c < n; c++) {
        const g = legGrams[row + c] + egressGr[s + c];
        if (g < stopGrams[u]) stopGrams[u] = g;
      }
    }
  }
  if (transfersAllowed) {
    settled.fill(0);
    // A scan for the minimum, not heap.ts: measured on the 10x network (bench:optimizer, 300
    // pairs, same run) the heap made searches ~35 % slower (p50 20.9–25.2 ms against 15.5 ms):
    // every relaxation pushes again, and the stops are few (89).
    for (;;) {
      let v = -1;
      for (let u = 0; u < stops; u++)
        if (!settled[u] && stopGrams[u] !== Infinity && (v < 0 || stopGrams[u] < stopGrams[v]))
          v = u;
      if (v < 0) break;
      settled[v] = 1;
      if (!stopUsable[v]) continue;
      // Getting off at v (any call but a first) to board from v on.
      for (let x = arrivalStart[v]; x < arrivalStart[v + 1]; x++) {
        const c = arrivalCall[x];
        const p = callPattern[c];
        if (!patternAllowed[p]) continue;
        const s = callStart[p];
        const n = callStart[p + 1] - s;
        const w = stopGrams[v] + minHandling[patternCls[p]];
        for (let i = 0; i < c - s; i++) {
          const u = callStop[s + i];
          if (settled[u] || !stopUsable[u]) continue;
          const g = legGrams[legOffset[p] + i * n + (c - s)] + w;
          if (g < stopGrams[u]) stopGrams[u] = g;
        }
      }
    }
  }

  // Per hop, from the stop bounds: getting off at its end, riding on, boarding at its start.
  const { rideTransfers, rideGrams, alightTransfers, alightGrams, boardGrams } = out;
  for (let p = 0; p < patterns; p++) {
    if (!patternAllowed[p]) {
      for (let h = callStart[p]; h < callStart[p + 1]; h++)
        rideTransfers[h] =
          rideGrams[h] =
          alightTransfers[h] =
          alightGrams[h] =
          boardGrams[h] =
            Infinity;
      continue;
    }
    const s = callStart[p];
    const n = callStart[p + 1] - s;
    const minH = minHandling[patternCls[p]];
    // The last call starts no hop (the entry is unused; kept Infinity for queries reusing it).
    const last = s + n - 1;
    rideTransfers[last] = rideGrams[last] = alightTransfers[last] = alightGrams[last] = Infinity;
    boardGrams[last] = Infinity;
    for (let i = n - 2; i >= 0; i--) {
      const h = s + i;
      const v = callStop[h + 1];
      const transfer = transfersAllowed && stopUsable[v];
      const aTr = transfer ? Math.min(egressTr[h + 1], stopTransfers[v]) : egressTr[h + 1];
      const aGr = transfer ? Math.min(egressGr[h + 1], stopGrams[v] + minH) : egressGr[h + 1];
      alightTransfers[h] = aTr;
      alightGrams[h] = aGr;
      rideTransfers[h] = i === n - 2 ? aTr : Math.min(aTr, rideTransfers[h + 1]);
      // Riding on past v adds the next hops (already in rideGrams[h + 1]).
      rideGrams[h] = hopLow[h] + (i === n - 2 ? aGr : Math.min(aGr, rideGrams[h + 1]));
      let b = Infinity;
      const row = legOffset[p] + i * n;
      for (let c = i + 1; c < n; c++) {
        const g = legGrams[row + c] + alightGrams[s + c - 1];
        if (g < b) b = g;
      }
      boardGrams[h] = b;
    }
  }
  return out;
}
