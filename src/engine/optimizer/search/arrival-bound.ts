/**
 * Time-dependent lower bounds on the final arrival, for pruning the multi-criteria scan: one
 * backward profile scan over the connections the query can reach computes the earliest final
 * arrival any continuation can reach, ignoring the other criteria and the requirements. Per
 * connection k:
 *
 * - `ride[k]`: for cargo on board at the start of connection k (it stays on its trip, or gets off
 *   at its end or at a later call);
 * - `alight[k]`: for cargo that gets off at the end of connection k.
 *
 * Each is a minimum over a superset of the continuations the search can still build, so never
 * above the real value: a label whose bounds are all matched by a complete journey already found
 * (that also departs no earlier) can be dropped, and a label on a trip whose `ride` bound is
 * matched, for good. A transfer is assumed to take the shortest minimum transfer time from the
 * arriving class to any class, which keeps the bounds below the real ones. The transfers and
 * grams left are bounded without time (static-bounds.ts): over weeks of weekly services their
 * time-dependent minima hardly differ, and a pass over the patterns costs far less than one more
 * set of values per connection.
 */
import { Network } from "../network";
import { departureSlots, firstSlotFrom, firstSlotOfConn, periodOf } from "./departure-slots";

export interface ArrivalBounds {
  /** Earliest final arrival (minutes). */
  ride: Float64Array;
  alight: Float64Array;
  /**
   * For cargo ready at stop u at `time` (boarding any trip leaving then or later): the index into
   * `stopArrival` of its bound, or -1 when no trip leaving u then or later reaches the destination.
   */
  departing(u: number, time: number): number;
  /**
   * The same for the first slot of stop u departing at some time (from a per-network table, see
   * connectionSlots): the index into `stopArrival`, or -1.
   */
  fromSlot(u: number, slot: number): number;
  stopArrival: Float64Array;
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
  /** Per arriving class: the shortest minimum transfer time onto any scheduled class. */
  minTransfer: Float64Array;
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
  /** Per trip: the arrival bound riding on from its connection scanned last (the next one along it). */
  tripBest: Float64Array;
  /** Per stop: the query's slots are [lowSlot[u], endSlot[u]) (connections in [first, end)). */
  lowSlot: Int32Array;
  endSlot: Int32Array;
  /**
   * Per departure slot, a pair: its departure (fixed), then the earliest arrival over boarding at
   * that slot or a later one of the stop (see arrivalBounds).
   */
  slotRows: Float64Array;
  out: Omit<ArrivalBounds, "departing" | "fromSlot">;
}

/**
 * Reused between searches of one network (the search is synchronous, so one at a time per thread):
 * saves allocating and collecting a few megabytes per query. Nothing needs resetting: every entry
 * a query reads is written by that query first (see arrivalBounds).
 */
const scratchCache = new WeakMap<Network, Scratch>();

function scratchOf(net: Network): Scratch {
  let s = scratchCache.get(net);
  if (s) return s;
  const count = net.connections.count;
  const { slotDep } = departureSlots(net);
  // One spare pair: the view below stays valid on a network without connections.
  const slotRows = new Float64Array(2 * count + 2);
  for (let i = 0; i < count; i++) slotRows[2 * i] = slotDep[i];
  s = {
    tripBest: new Float64Array(net.trips.length),
    lowSlot: new Int32Array(net.stops.length),
    endSlot: new Int32Array(net.stops.length),
    slotRows,
    out: {
      ride: new Float64Array(count),
      alight: new Float64Array(count),
      // A view of the slot pairs' arrivals: index 2 * slot reads that slot's bound.
      stopArrival: new Float64Array(slotRows.buffer, 8),
    },
  };
  scratchCache.set(net, s);
  return s;
}

/**
 * Valid for connections in [first, end) until the next call for the same network.
 *
 * The stop bounds are suffix minima over each stop's departure slots (departure-slots.ts): the
 * slot of connection k holds the best over the connections leaving its stop in [k, end). Scanning
 * backward, the next slot of the stop is written already (or lies past the range: Infinity), and
 * the slot where cargo getting off k can board again is the same in every query (Field.AlightSlot).
 * Riding on reads the bound its trip's next connection left (or, when that one lies past the
 * range, starts afresh).
 */
export function arrivalBounds(net: Network, q: ArrivalBoundInput): ArrivalBounds {
  const s = scratchOf(net);
  const { lowSlot, endSlot, slotRows: sl, out, tripBest } = s;
  const { ride, alight } = out;
  const slots = departureSlots(net);
  const { stopStart, slotConn } = slots;
  const rec = scanRecords(net, q);
  const arrival = net.connections.arr;
  const { tripAllowed, stopUsable, egressMinutes, classes } = q;
  const { first, end, maxArrival, transfersAllowed } = q;
  for (let u = 0; u < lowSlot.length; u++) {
    lowSlot[u] = firstSlotOfConn(slotConn, stopStart[u], stopStart[u + 1], first);
    endSlot[u] = firstSlotOfConn(slotConn, lowSlot[u], stopStart[u + 1], end);
  }

  for (let k = end - 1; k >= first; k--) {
    const r = k * Field.Count;
    const u = rec[r + Field.From];
    const slot = rec[r + Field.Slot];
    const row = 2 * slot;
    const t = rec[r + Field.Trip];
    let ea = Infinity;
    if (tripAllowed[t]) {
      const v = rec[r + Field.To];
      const a = arrival[k];
      if (a <= maxArrival && stopUsable[v]) {
        const e = egressMinutes[v * classes + rec[r + Field.Cls]];
        if (e !== Infinity) ea = a + e;
        // At the destination itself (arrival now) nothing beats finishing.
        if (transfersAllowed && ea !== a) {
          const i = rec[r + Field.AlightSlot];
          if (i < 0) {
            // A zero transfer onto a connection leaving this very minute may not be scanned yet:
            // fall back to the trivial bound (no earlier than now).
            if (a < ea) ea = a;
          } else if (i < endSlot[v] && sl[2 * i + 1] < ea) {
            // Departs after k, so it is scanned already.
            ea = sl[2 * i + 1];
          }
        }
      }
      alight[k] = ea;
      // Riding on from here: get off at the end of this hop, or stay on for the next one.
      if (rec[r + Field.Next] < end && tripBest[t] < ea) ea = tripBest[t];
      tripBest[t] = ride[k] = ea;
    } else ride[k] = alight[k] = Infinity;
    // The stop's bound from this slot on: boarding here or later.
    let sa = ea !== Infinity && stopUsable[u] ? ea : Infinity;
    if (slot + 1 < endSlot[u] && sl[row + 3] < sa) sa = sl[row + 3];
    sl[row + 1] = sa;
  }

  /**
   * Index of the bound for boarding at stop u at `time` or later: the first slot of u departing
   * then, -1 when none or when nothing leaving from then on reaches the destination.
   */
  const { bucketSlot, buckets, firstDeparture } = slots;
  const departing = (u: number, time: number): number => {
    // The first slot departing then: in the period of `time`, within the query's [lowSlot, endSlot).
    const period = u * (buckets + 1) + periodOf(time, firstDeparture, buckets);
    let i = bucketSlot[period];
    const hi = bucketSlot[period + 1];
    while (i < hi && sl[2 * i] < time) i++;
    if (i < lowSlot[u]) i = lowSlot[u];
    return i < endSlot[u] && sl[2 * i + 1] !== Infinity ? 2 * i : -1;
  };
  const fromSlot = (u: number, slot: number): number => {
    const i = slot < lowSlot[u] ? lowSlot[u] : slot;
    return i < endSlot[u] && sl[2 * i + 1] !== Infinity ? 2 * i : -1;
  };
  return { ...out, departing, fromSlot };
}

/**
 * Int32 fields of a connection's scan record (Field.Count of them per connection, see
 * scanRecords); a const enum, so the hot loop indexes with literals.
 */
const enum Field {
  Trip = 0,
  From = 1,
  To = 2,
  /** Its slot in its departure stop's block. */
  Slot = 3,
  /**
   * The first slot at its arrival stop departing once a transfer is possible (block end: none);
   * -1 when that time is not after its own departure (a zero-minute hop and transfer).
   */
  AlightSlot = 4,
  /** The next connection of its trip (`count`: none). */
  Next = 5,
  /** Transfer class of its trip. */
  Cls = 6,
  Count = 7,
}

interface RecordsKey {
  tripCls: Int8Array;
  minTransfer: Float64Array;
}

const recordsCache = new WeakMap<Network, RecordsKey & { rec: Int32Array }>();

/**
 * What the backward scan reads of each connection, laid out together per connection (the scan
 * then reads one array in order instead of several, and no per-trip tables). The search hands the
 * same tables (or, for minTransfer, the same values) to every query of a network, so they are
 * built once; other tables are compared by identity and get records of their own.
 */
function scanRecords(net: Network, key: RecordsKey): Int32Array {
  const cached = recordsCache.get(net);
  if (
    cached &&
    cached.tripCls === key.tripCls &&
    cached.minTransfer.length === key.minTransfer.length &&
    cached.minTransfer.every((m, c) => m === key.minTransfer[c])
  )
    return cached.rec;
  const { stopStart, slotOf, slotDep, nextOnTrip } = departureSlots(net);
  const { tripCls, minTransfer } = key;
  const conns = net.connections;
  const rec = new Int32Array(conns.count * Field.Count);
  for (let k = 0; k < conns.count; k++) {
    const t = conns.trip[k];
    const v = conns.to[k];
    const r = k * Field.Count;
    rec[r + Field.Trip] = t;
    rec[r + Field.From] = conns.from[k];
    rec[r + Field.To] = v;
    rec[r + Field.Slot] = slotOf[k];
    const ready = conns.arr[k] + minTransfer[tripCls[t]];
    rec[r + Field.AlightSlot] =
      ready <= conns.dep[k] ? -1 : firstSlotFrom(slotDep, stopStart[v], stopStart[v + 1], ready);
    rec[r + Field.Next] = nextOnTrip[k];
    rec[r + Field.Cls] = tripCls[t];
  }
  recordsCache.set(net, { tripCls, minTransfer: minTransfer.slice(), rec });
  return rec;
}
