/**
 * A network's connections laid out by departure stop, once per network, for the backward bound
 * scan (arrival-bound.ts): each stop owns a block of slots, one per connection leaving it, in
 * connection order (so by departure). A per-stop suffix minimum over such a block answers "the
 * best over every connection leaving u at `time` or later" by one read at the first slot departing
 * at `time` or later, and for a connection that slot is the same in every query: it is computed
 * here once instead of searched for per connection and query.
 */
import { Network } from "../network";

export interface DepartureSlots {
  /** Per stop: its block of slots is [stopStart[u], stopStart[u + 1]). */
  stopStart: Int32Array;
  /** Per connection: its slot in its departure stop's block. */
  slotOf: Int32Array;
  /** Per slot: the connection in it and its departure. */
  slotConn: Int32Array;
  slotDep: Float64Array;
  /** Per connection: the next connection (higher index) of the same trip, or `count` if none. */
  nextOnTrip: Int32Array;
}

const slotsCache = new WeakMap<Network, DepartureSlots>();

export function departureSlots(net: Network): DepartureSlots {
  let s = slotsCache.get(net);
  if (s) return s;
  const conns = net.connections;
  const { count, from, trip } = conns;
  const stopStart = new Int32Array(net.stops.length + 1);
  for (let k = 0; k < count; k++) stopStart[from[k] + 1]++;
  for (let u = 0; u < net.stops.length; u++) stopStart[u + 1] += stopStart[u];
  const fill = stopStart.slice(0, net.stops.length);
  const slotOf = new Int32Array(count);
  const slotConn = new Int32Array(count);
  const slotDep = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const slot = fill[from[k]]++;
    slotOf[k] = slot;
    slotConn[slot] = k;
    slotDep[slot] = conns.dep[k];
  }
  const nextOnTrip = new Int32Array(count);
  const later = new Int32Array(net.trips.length).fill(count);
  for (let k = count - 1; k >= 0; k--) {
    nextOnTrip[k] = later[trip[k]];
    later[trip[k]] = k;
  }
  s = { stopStart, slotOf, slotConn, slotDep, nextOnTrip };
  slotsCache.set(net, s);
  return s;
}

/** First slot in [lo, hi) whose departure is at `time` or later (hi when none). */
export function firstSlotFrom(slotDep: Float64Array, lo: number, hi: number, time: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slotDep[mid] < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First slot in [lo, hi) whose connection index is at least `k` (hi when none). */
export function firstSlotOfConn(slotConn: Int32Array, lo: number, hi: number, k: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (slotConn[mid] < k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface TransferSlots {
  tripCls: Int8Array;
  minTransfer: Float64Array;
  /** Per connection: the first slot at its arrival stop departing once a transfer is possible. */
  alightSlot: Int32Array;
}

const transferCache = new WeakMap<Network, TransferSlots>();

/**
 * Per connection k: the first slot of stop to[k] departing at arr[k] + minTransfer[its class] or
 * later (stopStart[to[k] + 1] when none). Depends on the classes and transfer times, which are the
 * network's own in every query; they are compared anyway, and a different set is computed afresh.
 */
export function alightSlots(
  net: Network,
  tripCls: Int8Array,
  minTransfer: Float64Array
): Int32Array {
  const cached = transferCache.get(net);
  if (
    cached &&
    cached.tripCls === tripCls &&
    cached.minTransfer.length === minTransfer.length &&
    cached.minTransfer.every((m, c) => m === minTransfer[c])
  )
    return cached.alightSlot;
  const { stopStart, slotDep } = departureSlots(net);
  const conns = net.connections;
  const alightSlot = new Int32Array(conns.count);
  for (let k = 0; k < conns.count; k++) {
    const v = conns.to[k];
    const ready = conns.arr[k] + minTransfer[tripCls[conns.trip[k]]];
    alightSlot[k] = firstSlotFrom(slotDep, stopStart[v], stopStart[v + 1], ready);
  }
  transferCache.set(net, { tripCls, minTransfer: minTransfer.slice(), alightSlot });
  return alightSlot;
}
