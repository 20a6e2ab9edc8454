/**
 * A network's connections laid out by departure stop, once per network, for the backward bound
 * scan (arrival-bound.ts): each stop owns a block of slots, one per connection leaving it, in
 * connection order (so by departure). A per-stop suffix minimum over such a block answers "the
 * best over every connection leaving u at `time` or later" by one read at the first slot departing
 * at `time` or later, and for a connection that slot is the same in every query: it is computed
 * here once instead of searched for per connection and query.
 */
import { Network } from "../network";
import type { LegTables } from "./arrival-bound";

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

/** Int32 fields of a connection's scan record (REC of them per connection, see scanRecords). */
export const REC = 11;
export const R_TRIP = 0;
export const R_FROM = 1;
export const R_TO = 2;
/** Its slot in its departure stop's block. */
export const R_SLOT = 3;
/**
 * The first slot at its arrival stop departing once a transfer is possible (block end: none);
 * -1 when that time is not after its own departure (a zero-minute hop and transfer).
 */
export const R_ALIGHT_SLOT = 4;
/** The next connection of its trip (`count`: none). */
export const R_NEXT = 5;
/**
 * Index in the trip rows (see ScanRecords) of the call it arrives at: each trip has a row of
 * 3 + calls entries, its best bounds riding on (arrival, transfers, grams), then one per call.
 */
export const R_CALL = 6;
/** Index in legGrams of the leg from its departure call to its arrival call. */
export const R_LEG = 7;
/** Calls of its trip from its arrival call on (legs from its departure call). */
export const R_LEGS = 8;
/** Transfer class of its trip. */
export const R_CLS = 9;
/** Index in the trip rows of its trip's best bounds riding on. */
export const R_BEST = 10;
/** Float64 fields per connection (TREC of them): arrival, hop grams bound. */
export const TREC = 2;

export interface ScanRecords {
  /** REC Int32 fields per connection, then TREC Float64 ones: one read stream each per scan. */
  rec: Int32Array;
  times: Float64Array;
  /** Length of the trip rows (R_CALL, R_BEST). */
  tripRowsLength: number;
}

interface RecordsKey {
  tripCls: Int8Array;
  minTransfer: Float64Array;
  hopGrams: Float64Array;
  legs: LegTables;
}

const recordsCache = new WeakMap<Network, RecordsKey & ScanRecords>();

/**
 * What the backward scan reads of each connection, laid out together per connection (the scan
 * then reads two arrays in order instead of a dozen, and no per-trip tables). The search hands the
 * same tables (or, for minTransfer, the same values) to every query of a network, so they are
 * built once; other tables are compared by identity and get records of their own.
 */
export function scanRecords(net: Network, key: RecordsKey): ScanRecords {
  const cached = recordsCache.get(net);
  if (
    cached &&
    cached.tripCls === key.tripCls &&
    cached.hopGrams === key.hopGrams &&
    cached.legs === key.legs &&
    cached.minTransfer.length === key.minTransfer.length &&
    cached.minTransfer.every((m, c) => m === key.minTransfer[c])
  )
    return cached;
  const { stopStart, slotOf, slotDep, nextOnTrip } = departureSlots(net);
  const { tripCls, minTransfer, hopGrams, legs } = key;
  const { patternCalls, legOffset, tripPattern } = legs;
  const tripRow = new Int32Array(net.trips.length + 1);
  for (let t = 0; t < net.trips.length; t++)
    tripRow[t + 1] = tripRow[t] + 3 + patternCalls[tripPattern[t]];
  const conns = net.connections;
  const rec = new Int32Array(conns.count * REC);
  const times = new Float64Array(conns.count * TREC);
  for (let k = 0; k < conns.count; k++) {
    const t = conns.trip[k];
    const v = conns.to[k];
    const p = conns.pos[k];
    const pat = tripPattern[t];
    const n = patternCalls[pat];
    const r = k * REC;
    rec[r + R_TRIP] = t;
    rec[r + R_FROM] = conns.from[k];
    rec[r + R_TO] = v;
    rec[r + R_SLOT] = slotOf[k];
    const ready = conns.arr[k] + minTransfer[tripCls[t]];
    rec[r + R_ALIGHT_SLOT] =
      ready <= conns.dep[k] ? -1 : firstSlotFrom(slotDep, stopStart[v], stopStart[v + 1], ready);
    rec[r + R_NEXT] = nextOnTrip[k];
    rec[r + R_CALL] = tripRow[t] + 3 + p + 1;
    rec[r + R_BEST] = tripRow[t];
    rec[r + R_LEG] = legOffset[pat] + p * n + p + 1;
    rec[r + R_LEGS] = n - p - 1;
    rec[r + R_CLS] = tripCls[t];
    times[k * TREC] = conns.arr[k];
    times[k * TREC + 1] = hopGrams[k];
  }
  const tripRowsLength = tripRow[net.trips.length];
  const built = { ...key, minTransfer: key.minTransfer.slice(), rec, times, tripRowsLength };
  recordsCache.set(net, built);
  return built;
}
