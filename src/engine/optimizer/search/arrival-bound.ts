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
import { departureSlots, firstSlotFrom, firstSlotOfConn, periodOf } from "./departure-slots";

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
  /**
   * Per trip a row (ScanRecords): the bounds of its connection scanned last (the next one along
   * the trip), then per call alightGrams of the hop ending there. Boarding reads a trip's later
   * calls from one contiguous block, next to where riding on reads its bounds.
   */
  tripRows: Float64Array;
  /** Per stop: the query's slots are [lowSlot[u], endSlot[u]) (connections in [first, end)). */
  lowSlot: Int32Array;
  endSlot: Int32Array;
  /**
   * Per departure slot, a row of four: its departure (fixed), then the best arrival, transfers
   * and grams over boarding at that slot or a later one of the stop (see arrivalBounds).
   */
  slotRows: Float64Array;
  out: Omit<ArrivalBounds, "departing">;
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
  const perConnection = () => new Float64Array(count);
  // Per slot, one row (a half cache line) of departure, then the bounds (written per query).
  const { slotDep } = departureSlots(net);
  // One spare row: the column views below stay valid on a network without connections.
  const slotRows = new Float64Array(4 * count + 4);
  for (let i = 0; i < count; i++) slotRows[4 * i] = slotDep[i];
  s = {
    tripRows: new Float64Array(0),
    lowSlot: new Int32Array(net.stops.length),
    endSlot: new Int32Array(net.stops.length),
    slotRows,
    out: {
      ride: perConnection(),
      alight: perConnection(),
      rideTransfers: perConnection(),
      alightTransfers: perConnection(),
      rideGrams: perConnection(),
      alightGrams: perConnection(),
      boardGrams: perConnection(),
      // Views of the slot rows' bound columns: index 4 * slot reads that slot's row.
      stopArrival: new Float64Array(slotRows.buffer, 8),
      stopTransfers: new Float64Array(slotRows.buffer, 16),
      stopGrams: new Float64Array(slotRows.buffer, 24),
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
 * Riding on reads the bounds its trip's next connection left in the trip's row (or, when that one
 * lies past the range, starts the row afresh).
 */
export function arrivalBounds(net: Network, q: ArrivalBoundInput): ArrivalBounds {
  const s = scratchOf(net);
  const { lowSlot, endSlot, slotRows: sl, out } = s;
  const { ride, alight, rideTransfers, alightTransfers, rideGrams, alightGrams, boardGrams } = out;
  const slots = departureSlots(net);
  const { stopStart, slotConn } = slots;
  const { rec, times, tripRowsLength } = scanRecords(net, q);
  if (s.tripRows.length !== tripRowsLength) s.tripRows = new Float64Array(tripRowsLength);
  const tripRows = s.tripRows;
  const { tripAllowed, stopUsable, egressMinutes, egressGrams, classes } = q;
  const { minHandling, first, end, maxArrival, transfersAllowed } = q;
  const { legGrams } = q.legs;
  for (let u = 0; u < lowSlot.length; u++) {
    lowSlot[u] = firstSlotOfConn(slotConn, stopStart[u], stopStart[u + 1], first);
    endSlot[u] = firstSlotOfConn(slotConn, lowSlot[u], stopStart[u + 1], end);
  }

  for (let k = end - 1; k >= first; k--) {
    const r = k * Field.Count;
    const u = rec[r + Field.From];
    const slot = rec[r + Field.Slot];
    const row = 4 * slot;
    if (!tripAllowed[rec[r + Field.Trip]]) {
      ride[k] = alight[k] = Infinity;
      rideTransfers[k] = alightTransfers[k] = Infinity;
      rideGrams[k] = alightGrams[k] = boardGrams[k] = Infinity;
      // Nothing boards here: the stop's bounds are those of its next slot.
      if (slot + 1 < endSlot[u]) {
        sl[row + 1] = sl[row + 5];
        sl[row + 2] = sl[row + 6];
        sl[row + 3] = sl[row + 7];
      } else sl[row + 1] = sl[row + 2] = sl[row + 3] = Infinity;
      continue;
    }
    const v = rec[r + Field.To];
    const cls = rec[r + Field.Cls];
    const a = times[k * Time.Count + Time.Arrival];
    let ea = Infinity;
    let tr = Infinity;
    let em = Infinity;
    if (a <= maxArrival && stopUsable[v]) {
      const e = egressMinutes[v * classes + cls];
      if (e !== Infinity) {
        ea = a + e;
        tr = 0;
        em = egressGrams[v * classes + cls];
      }
      // At the destination itself (arrival now, no transfer, no emissions) nothing beats finishing.
      if (transfersAllowed && !(ea === a && tr === 0 && em === 0)) {
        const i = rec[r + Field.AlightSlot];
        if (i < 0) {
          // A zero transfer onto a connection leaving this very minute may not be scanned yet:
          // fall back to trivial bounds (no earlier than now, one more transfer, one handling).
          if (a < ea) ea = a;
          if (1 < tr) tr = 1;
          if (minHandling[cls] < em) em = minHandling[cls];
        } else if (i < endSlot[v]) {
          // Departs after k, so it is scanned already.
          const at = 4 * i;
          if (sl[at + 1] < ea) ea = sl[at + 1];
          if (sl[at + 2] < tr) tr = sl[at + 2];
          if (sl[at + 3] + minHandling[cls] < em) em = sl[at + 3] + minHandling[cls];
        }
      }
    }
    alight[k] = ea;
    alightTransfers[k] = tr;
    const alightEm = (alightGrams[k] = em);
    const call = rec[r + Field.Call];
    const legs = rec[r + Field.Legs];
    // Riding on from here: get off at the end of this hop, or stay on for the next one.
    const best = rec[r + Field.Best];
    if (rec[r + Field.Next] < end) {
      if (tripRows[best] < ea) ea = tripRows[best];
      if (tripRows[best + 1] < tr) tr = tripRows[best + 1];
      if (tripRows[best + 2] < em) em = tripRows[best + 2];
    } else {
      // The trip's last connection in the range: its later calls cannot be reached.
      for (let j = 1; j < legs; j++) tripRows[call + j] = Infinity;
    }
    em += times[k * Time.Count + Time.HopGrams];
    tripRows[best] = ride[k] = ea;
    tripRows[best + 1] = rideTransfers[k] = tr;
    tripRows[best + 2] = rideGrams[k] = em;
    // Boarding here: each leg from this call at its exact grams, then the bound after getting off
    // (the later hops of the trip are scanned already; those past the range cannot be reached).
    tripRows[call] = alightEm;
    const leg = rec[r + Field.Leg];
    let bEm = Infinity;
    // When nothing is reachable riding on from here (ea), no later call leads anywhere either.
    if (ea !== Infinity) {
      for (let j = 0; j < legs; j++) {
        const g = legGrams[leg + j] + tripRows[call + j];
        if (g < bEm) bEm = g;
      }
    }
    boardGrams[k] = bEm;
    // The stop's bounds from this slot on: boarding here (counted as a transfer) or later.
    let sa = Infinity;
    let st = Infinity;
    let sg = Infinity;
    if (ea !== Infinity && stopUsable[u]) {
      sa = ea;
      st = tr + 1;
      sg = bEm;
    }
    if (slot + 1 < endSlot[u]) {
      if (sl[row + 5] < sa) sa = sl[row + 5];
      if (sl[row + 6] < st) st = sl[row + 6];
      if (sl[row + 7] < sg) sg = sl[row + 7];
    }
    sl[row + 1] = sa;
    sl[row + 2] = st;
    sl[row + 3] = sg;
  }

  /**
   * Index of the bounds for boarding at stop u at `time` or later: the first slot of u departing
   * then, -1 when none or when nothing leaving from then on reaches the destination.
   */
  const { bucketSlot, buckets, firstDeparture } = slots;
  const departing = (u: number, time: number): number => {
    // The first slot departing then: in the period of `time`, within the query's [lowSlot, endSlot).
    const period = u * (buckets + 1) + periodOf(time, firstDeparture, buckets);
    let i = bucketSlot[period];
    const hi = bucketSlot[period + 1];
    while (i < hi && sl[4 * i] < time) i++;
    if (i < lowSlot[u]) i = lowSlot[u];
    return i < endSlot[u] && sl[4 * i + 1] !== Infinity ? 4 * i : -1;
  };
  return { ...out, departing };
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
  /**
   * Index in the trip rows (see ScanRecords) of the call it arrives at: each trip has a row of
   * 3 + calls entries, its best bounds riding on (arrival, transfers, grams), then one per call.
   */
  Call = 6,
  /** Index in legGrams of the leg from its departure call to its arrival call. */
  Leg = 7,
  /** Calls of its trip from its arrival call on (legs from its departure call). */
  Legs = 8,
  /** Transfer class of its trip. */
  Cls = 9,
  /** Index in the trip rows of its trip's best bounds riding on. */
  Best = 10,
  Count = 11,
}
/** Float64 fields per connection (Time.Count of them). */
const enum Time {
  Arrival = 0,
  /** The lower bound of its hop's grams (hopGrams). */
  HopGrams = 1,
  Count = 2,
}

interface ScanRecords {
  /** Field.Count Int32 fields per connection, and Time.Count Float64 ones: a read stream each. */
  rec: Int32Array;
  times: Float64Array;
  /** Length of the trip rows (Field.Call, Field.Best). */
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
function scanRecords(net: Network, key: RecordsKey): ScanRecords {
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
  const rec = new Int32Array(conns.count * Field.Count);
  const times = new Float64Array(conns.count * Time.Count);
  for (let k = 0; k < conns.count; k++) {
    const t = conns.trip[k];
    const v = conns.to[k];
    const p = conns.pos[k];
    const pat = tripPattern[t];
    const n = patternCalls[pat];
    const r = k * Field.Count;
    rec[r + Field.Trip] = t;
    rec[r + Field.From] = conns.from[k];
    rec[r + Field.To] = v;
    rec[r + Field.Slot] = slotOf[k];
    const ready = conns.arr[k] + minTransfer[tripCls[t]];
    rec[r + Field.AlightSlot] =
      ready <= conns.dep[k] ? -1 : firstSlotFrom(slotDep, stopStart[v], stopStart[v + 1], ready);
    rec[r + Field.Next] = nextOnTrip[k];
    rec[r + Field.Call] = tripRow[t] + 3 + p + 1;
    rec[r + Field.Best] = tripRow[t];
    rec[r + Field.Leg] = legOffset[pat] + p * n + p + 1;
    rec[r + Field.Legs] = n - p - 1;
    rec[r + Field.Cls] = tripCls[t];
    times[k * Time.Count + Time.Arrival] = conns.arr[k];
    times[k * Time.Count + Time.HopGrams] = hopGrams[k];
  }
  const tripRowsLength = tripRow[net.trips.length];
  const built = { ...key, minTransfer: key.minTransfer.slice(), rec, times, tripRowsLength };
  recordsCache.set(net, built);
  return built;
}
