/**
 * A network's connections laid out by departure stop, once per network, for the backward bound
 * scan (arrival-bound.ts): each stop owns a block of slots, one per connection leaving it, in
 * connection order (so by departure). A per-stop suffix minimum over such a block answers "the
 * best over every connection leaving u at `time` or later" by one read at the first slot departing
 * at `time` or later, and for a connection that slot is the same in every query: it is computed
 * here once instead of searched for per connection and query.
 */
import { Network } from "../network";
import { firstAtLeast } from "./sorted-search";

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
  /**
   * Per stop u and period b (BUCKET_MINUTES from the first departure), at u * (buckets + 1) + b:
   * the first slot of u departing in period b or later; at b = buckets, the block's end. Narrows
   * the search for a time to the few slots of one period.
   */
  bucketSlot: Int32Array;
  buckets: number;
  firstDeparture: number;
}

const BUCKET_MINUTES = 720;

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
  const firstDeparture = count ? conns.dep[0] : 0;
  const buckets = count
    ? Math.floor((conns.dep[count - 1] - firstDeparture) / BUCKET_MINUTES) + 1
    : 1;
  const bucketSlot = new Int32Array(net.stops.length * (buckets + 1));
  for (let u = 0; u < net.stops.length; u++) {
    const row = u * (buckets + 1);
    for (let b = 0, i = stopStart[u]; b <= buckets; b++) {
      const from = firstDeparture + b * BUCKET_MINUTES;
      while (i < stopStart[u + 1] && (b === buckets || slotDep[i] < from)) i++;
      bucketSlot[row + b] = i;
    }
  }
  s = { stopStart, slotOf, slotConn, slotDep, nextOnTrip, bucketSlot, buckets, firstDeparture };
  slotsCache.set(net, s);
  return s;
}

/**
 * The period (of BUCKET_MINUTES) holding `time`, within [0, buckets - 1]: the first slot of a stop
 * departing at `time` or later is among that period's slots or the next period's first.
 */
export function periodOf(time: number, firstDeparture: number, buckets: number): number {
  const b = Math.floor((time - firstDeparture) / BUCKET_MINUTES);
  return b < 0 ? 0 : b >= buckets ? buckets - 1 : b;
}

/** First slot in [lo, hi) whose departure is at `time` or later (hi when none). */
export function firstSlotFrom(slotDep: Float64Array, lo: number, hi: number, time: number): number {
  return firstAtLeast(slotDep, lo, hi, time);
}

/** First slot in [lo, hi) whose connection index is at least `k` (hi when none). */
export function firstSlotOfConn(slotConn: Int32Array, lo: number, hi: number, k: number): number {
  return firstAtLeast(slotConn, lo, hi, k);
}
