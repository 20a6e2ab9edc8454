/**
 * Multi-criteria profile Connection Scan (after Dibbelt et al., "Connection Scan Algorithm", 2018,
 * §4 McCSA). One forward scan over the connections sorted by departure keeps Pareto bags of labels:
 *
 * - trip bags: cargo on board a trip, by (origin departure, transfers, emissions at boarding with
 *   the boarding call, requirement bits, sea-leg flag); a leg's emissions depend on both its ends
 *   (trade lanes), so labels that boarded at different calls compare at every call still ahead;
 * - stop bags: cargo waiting at a stop for a trip of a given transfer class; a label becomes ready
 *   once its minimum transfer time for that class has passed (a heap of pending labels);
 * - the target bag: complete journeys by (departure, arrival, transfers, emissions).
 *
 * Because the origin departure is a criterion, the result is the full profile over the departure
 * window, not only the earliest arrival. Requirement constraints ("must use operator X", "must call
 * at LOCODE Y") are exact: a label only dominates another whose satisfied requirements it covers.
 *
 * Pruning: lower bounds of what is left of a journey drop every label that a journey already found
 * beats even with those bounds added; such a label is beaten for good and leaves its bag. The
 * arrival is bounded per connection and per stop and time by one backward profile scan
 * (arrival-bound.ts), the transfers and emissions per hop of a service and per stop, without time,
 * by shortest paths over the services' calls (static-bounds.ts). Leg emissions are not additive, so the emission bounds add per-hop lower bounds
 * (leg-bounds.ts) and, at boarding, each leg from the boarding call at its exact grams.
 */
import { MinHeap } from "../../heap";
import { classIndex, Network } from "../network";
import { transferClassOf } from "../model";
import { arrivalBounds, ArrivalBounds, LegTables } from "./arrival-bound";
import { departureSlots, firstSlotFrom } from "./departure-slots";
import { firstAbove, firstAtLeast } from "./sorted-search";
import { patternCalls as patternCallIndex, staticBounds } from "./static-bounds";
import { hopLowerBounds, rideGaps } from "./leg-bounds";
import { remainingLowerBounds } from "./lower-bound";
import { covers, TargetBag } from "./pareto";
import { Runs } from "./runs";
import { TripBags } from "./trip-bags";
import { WaitingRows } from "./waiting-rows";

/** How cargo gets from the origin to a stop (or from a stop to the destination). */
export interface Access {
  stop: number;
  /** True for a truck leg; false when the place is the stop itself. */
  truck: boolean;
  meters: number;
  minutes: number;
  grams: number;
}

export interface SearchSpec {
  access: Access[];
  egress: Access[];
  /** Window of the first leg's departure (minutes). */
  minDeparture: number;
  maxDeparture: number;
  maxArrival: number;
  maxTransfers: number;
  maxGrams: number;
  maxLeadMinutes: number;
  /** Per trip / per pattern: may be used at all (modality and excluded operators). */
  tripAllowed: Uint8Array;
  patternAllowed: Uint8Array;
  /** Per stop: cargo may be loaded or unloaded here (excluded LOCODEs). */
  stopUsable: Uint8Array;
  /** Requirement bits a stop / a pattern satisfies; `fullBits` all of them; `initialBits` at the start. */
  stopBits: Int32Array;
  patternBits: Int32Array;
  initialBits: number;
  fullBits: number;
  directSeaOnly: boolean;
  /**
   * "All required" LOCODEs, each a requirement bit and the stops of that LOCODE. Labels still
   * missing one are bounded by the detour through it, and need enough transfers left to reach
   * them all: this keeps the requirement subsets from multiplying the search.
   */
  requiredStops?: Array<{ bit: number; stops: number[] }>;
  /** Date.now() after which the search gives up (SearchBudgetExceeded); Infinity: never. */
  deadline?: number;
  /** Checked beside the deadline: a cancelled search stops as one over its budget. */
  cancelled?: () => boolean;
}

/** The search ran past its work budget; the caller narrows the query. */
export class SearchBudgetExceeded extends Error {
  constructor() {
    super("route search exceeded its work budget");
    this.name = "SearchBudgetExceeded";
  }
}

/** Connections scanned between two looks at the clock. */
const BUDGET_CHECK_EVERY = 1024;
/** Connections scanned between two looks at whether any label is still alive. */
const LIVENESS_CHECK_EVERY = 256;

export interface JourneyLeg {
  trip: number;
  board: number;
  alight: number;
}

export interface Journey {
  dep0: number;
  arr: number;
  transfers: number;
  grams: number;
  access: Access;
  egress: Access;
  legs: JourneyLeg[];
}

const NOT_LOOKED_UP = -2;
const NO_LABEL = -1;
const SCHEDULED_CLASSES = 3; // SEA, BARGE, RAIL (TRUCK only first/last mile)
const TRUCK = classIndex("TRUCK");

export function searchJourneys(net: Network, spec: SearchSpec): Journey[] {
  const state = scanStateOf(net);
  try {
    return scan(net, spec, state);
  } finally {
    // Leave the reused labels and bags empty for the next search (also after a budget stop).
    state.clear();
  }
}

/**
 * What a search works in, per network and reused by the next search (searches run one at a time
 * per thread): label rows, bags and heaps in typed arrays, so a query allocates next to nothing.
 */
class ScanState {
  readonly onBoard: TripBags;
  readonly waiting = new WaitingRows();
  /** Per stop * 3 + class: ready waiting rows (a Pareto bag), and pending ones by ready time. */
  readonly ready: Runs;
  readonly pending: Array<MinHeap | undefined>;
  /** Keys whose heap the current search used. */
  private used: number[] = [];
  /** Per stop * 3 + class: 1 once anything may board there (access, or labels waiting). */
  readonly boardable: Uint8Array;
  readonly targets = new TargetBag();
  /** Per stop: the first of its first-mile / last-mile entries (-1: none); `next*` chain them. */
  readonly accessHead: Int32Array;
  readonly egressHead: Int32Array;
  /** Per stop: scratch for firstAlive. */
  readonly atByStop: Int32Array;
  accessNext: Int32Array = new Int32Array(16);
  egressNext: Int32Array = new Int32Array(16);

  constructor(net: Network) {
    const keys = net.stops.length * SCHEDULED_CLASSES;
    this.onBoard = new TripBags(net.trips.length);
    this.ready = new Runs(keys);
    this.pending = new Array<MinHeap | undefined>(keys).fill(undefined);
    this.boardable = new Uint8Array(keys);
    this.accessHead = new Int32Array(net.stops.length).fill(-1);
    this.egressHead = new Int32Array(net.stops.length).fill(-1);
    this.atByStop = new Int32Array(net.stops.length);
  }

  /** The pending heap at `key`, marked used by this search. */
  heap(key: number): MinHeap {
    let h = this.pending[key];
    if (!h) this.pending[key] = h = new MinHeap(4);
    if (this.boardable[key] !== 1) this.boardable[key] = 1;
    if (h.size === 0) this.used.push(key);
    return h;
  }

  clear(): void {
    this.onBoard.clear();
    this.waiting.clear();
    this.ready.clear();
    for (const key of this.used) this.pending[key]!.clear();
    this.used.length = 0;
    this.boardable.fill(0);
    this.accessHead.fill(-1);
    this.egressHead.fill(-1);
  }
}
const stateCache = new WeakMap<Network, ScanState>();

function scanStateOf(net: Network): ScanState {
  let s = stateCache.get(net);
  if (!s) stateCache.set(net, (s = new ScanState(net)));
  return s;
}

/** Chains `list` by stop into head/next (in list order); returns next (grown when needed). */
function chainByStop(list: Access[], head: Int32Array, next: Int32Array): Int32Array {
  if (next.length < list.length) next = new Int32Array(2 * list.length);
  for (let i = list.length - 1; i >= 0; i--) {
    next[i] = head[list[i].stop];
    head[list[i].stop] = i;
  }
  return next;
}

function scan(net: Network, spec: SearchSpec, st: ScanState): Journey[] {
  const conns = net.connections;
  const { trip: cTrip, pos: cPos, from: cFrom, to: cTo, dep: cDep, arr: cArr } = conns;
  const { minutes: transferMin, handlingGrams } = net.rules;
  const { onBoard, waiting, ready, boardable, targets, accessHead, egressHead } = st;
  const tripLen = onBoard.bags.len;
  const access = spec.access;
  const egressList = spec.egress;
  const accessNext = (st.accessNext = chainByStop(access, accessHead, st.accessNext));
  const egressNext = (st.egressNext = chainByStop(egressList, egressHead, st.egressNext));
  for (const a of access)
    boardable.fill(1, a.stop * SCHEDULED_CLASSES, (a.stop + 1) * SCHEDULED_CLASSES);
  const egressAt = groupByStop(egressList);
  // Cargo from the origin boards no later than this (its first departure is bounded).
  let accessUntil = spec.maxDeparture;
  for (const a of access) {
    if (!a.truck) continue;
    for (let c = 0; c < SCHEDULED_CLASSES; c++)
      accessUntil = Math.max(accessUntil, spec.maxDeparture + transferMin[TRUCK][c] + a.minutes);
  }
  const { departingClasses, tripCls, patternCls, patternSea, cumFrom, connKey, connPattern } =
    staticIndex(net);
  const { departSlot, readySlot } = connectionSlots(net, tripCls);
  const legs = legIndex(net);
  const { patternCalls, legOffset, legGrams, rideGap } = legs;
  const { stopUsable, stopBits, patternBits, fullBits, initialBits } = spec;
  const { minDeparture, maxDeparture, maxTransfers, maxGrams, maxArrival } = spec;
  const maxLeadMinutes = spec.maxLeadMinutes;

  const scanEnd = Math.min(maxArrival, maxDeparture + maxLeadMinutes);
  const deadline = spec.deadline ?? Infinity;
  const first = firstAtLeast(cDep, 0, conns.count, minDeparture);
  const end = firstAbove(cDep, 0, conns.count, scanEnd);
  const { egressMinutes, egressGrams } = egressCosts(net, egressAt);
  const transfersAllowed = maxTransfers > 0;
  const bounds = arrivalBounds(net, {
    first,
    end,
    tripAllowed: spec.tripAllowed,
    stopUsable,
    tripCls,
    egressMinutes,
    minTransfer: minTransferFrom(net),
    transfersAllowed,
    maxArrival,
    classes: SCHEDULED_CLASSES,
  });
  const { ride, alight, stopArrival } = bounds;
  // Transfers and grams left: per hop of a pattern (callStart[pattern] + call) and per stop.
  const { callStart } = patternCallIndex(net);
  const left = staticBounds(net, {
    patternAllowed: spec.patternAllowed,
    stopUsable,
    egressMinutes,
    egressGrams,
    minHandling: minHandlingFrom(net),
    transfersAllowed,
    classes: SCHEDULED_CLASSES,
    patternCls,
    legs,
  });
  const { rideTransfers, alightTransfers, rideGrams, alightGrams, boardGrams } = left;
  const { stopTransfers, stopGrams } = left;
  const req = requirements(net, spec, egressAt);
  const hasRequired = req !== undefined;
  const seaDominance = spec.directSeaOnly;
  onBoard.seaDominance = seaDominance;
  targets.reset(spec);

  /** Per class: the bounds' index for waiting at the stop of the current connection. */
  let departAt0 = NOT_LOOKED_UP;
  let departAt1 = NOT_LOOKED_UP;
  let departAt2 = NOT_LOOKED_UP;
  /** Waiting labels before this index are beaten for good. */
  let firstLive = 0;

  for (let k = first, scanned = 0; k < end; k++, scanned++) {
    if (scanned % BUDGET_CHECK_EVERY === 0 && (Date.now() > deadline || spec.cancelled?.()))
      throw new SearchBudgetExceeded();
    // The scan may stop once no label can lead to a new journey: nothing on board, nobody left to
    // board from the origin, and every waiting label beaten whatever leaves its stop from now on.
    // Time only moves on and the journeys found only get better, so a beaten label stays beaten.
    if (scanned % LIVENESS_CHECK_EVERY === 0 && onBoard.liveTrips === 0 && cDep[k] > accessUntil) {
      firstLive = firstAlive(waiting, firstLive, cDep[k], bounds, left, targets, st.atByStop);
      if (firstLive === waiting.size) break;
    }
    const rideBound = ride[k];
    const t = cTrip[k];
    // No journey riding this connection can arrive in time: nobody boards, and whoever is on
    // board is beaten at every later call too (tripAllowed is folded into the bound).
    if (rideBound === Infinity) {
      if (onBoard.isLive(t)) onBoard.drop(t);
      continue;
    }
    const dep = cDep[k];
    const u = cFrom[k];
    const key = connKey[k];
    const cls = key - u * SCHEDULED_CLASSES;
    let mayBoard = false;
    let accs = -1;
    let heap: MinHeap | undefined;
    if (boardable[key] === 1 && stopUsable[u]) {
      accs = dep <= accessUntil ? accessHead[u] : -1;
      heap = st.pending[key];
      mayBoard =
        accs >= 0 ||
        (heap !== undefined && heap.size > 0 && heap.peekKey() <= dep) ||
        ready.len[key] > 0;
    }
    // Fast path: nobody on board and nobody to board (most connections of a query).
    if (!mayBoard && !onBoard.isLive(t)) continue;
    const pat = connPattern[k];
    const pos = cPos[k];
    const v = cTo[k];
    const sea = patternSea[pat];
    const n = patternCalls[pat];
    const gapAt = legOffset[pat];
    const h = callStart[pat] + pos;

    // 1. Board at u: fresh from the origin, or after a transfer.
    if (mayBoard) {
      const boardBits = patternBits[pat] | stopBits[u];
      for (let ai = accs; ai >= 0; ai = accessNext[ai]) {
        const a = access[ai];
        const dep0 = a.truck ? dep - transferMin[TRUCK][cls] - a.minutes : dep;
        if (dep0 < minDeparture || dep0 > maxDeparture) continue;
        const em = a.grams + (a.truck ? handlingGrams[TRUCK][cls] : 0);
        const startBits = initialBits | boardBits;
        if (hasRequired && !req.enoughStops(startBits, 0, 1)) continue;
        const boundArr = hasRequired
          ? Math.max(rideBound, dep + req.boundFrom(u, startBits))
          : Math.max(rideBound, dep);
        if (targets.hopeless(dep0, boundArr, rideTransfers[h], em + boardGrams[h])) continue;
        const labelSea = seaDominance ? sea : 0;
        if (onBoard.dominated(t, rideGap, gapAt, n, dep0, 0, em, pos, startBits, labelSea))
          continue;
        onBoard.add(
          t,
          rideGap,
          gapAt,
          n,
          dep0,
          0,
          em,
          em - cumFrom[k],
          pos,
          startBits,
          labelSea,
          NO_LABEL,
          ai
        );
      }
      if (heap !== undefined && heap.size > 0 && heap.peekKey() <= dep) {
        while (heap.size > 0 && heap.peekKey() <= dep)
          insertReady(ready, key, heap.pop(), waiting, seaDominance);
      }
      const readyLen = ready.len[key];
      if (readyLen > 0) {
        /** Index of the bounds for boarding any trip leaving u from now on (looked up once). */
        let at = NOT_LOOKED_UP;
        const rs = ready.start[key];
        const items = ready.items;
        const {
          dep0: wDep0s,
          tr: wTrs,
          em: wEms,
          sea: wSeas,
          bits: wBitss,
          label: wLabels,
        } = waiting;
        let kept = rs;
        for (let i = rs; i < rs + readyLen; i++) {
          const w = items[i];
          const wDep0 = wDep0s[w];
          const wTr = wTrs[w];
          const wEm = wEms[w];
          const wSea = wSeas[w];
          const bits = wBitss[w] | boardBits;
          if (
            (seaDominance && sea && wSea) ||
            (hasRequired && !req.enoughStops(bits, wTr + 1, 1)) ||
            targets.hopeless(
              wDep0,
              hasRequired
                ? Math.max(rideBound, dep + req.boundFrom(u, bits))
                : Math.max(rideBound, dep),
              wTr + 1 + rideTransfers[h],
              wEm + boardGrams[h]
            )
          ) {
            // Not boarding this trip. A label that no trip leaving from now on can help leaves
            // the bag for good (time only moves on).
            if (at === NOT_LOOKED_UP) at = bounds.fromSlot(u, departSlot[k]);
            if (
              at >= 0 &&
              !targets.hopeless(wDep0, stopArrival[at], wTr + stopTransfers[u], wEm + stopGrams[u])
            )
              items[kept++] = w;
            continue;
          }
          items[kept++] = w;
          const labelSea = wSea | (seaDominance ? sea : 0);
          if (onBoard.dominated(t, rideGap, gapAt, n, wDep0, wTr + 1, wEm, pos, bits, labelSea))
            continue;
          onBoard.add(
            t,
            rideGap,
            gapAt,
            n,
            wDep0,
            wTr + 1,
            wEm,
            wEm - cumFrom[k],
            pos,
            bits,
            labelSea,
            wLabels[w],
            NO_LABEL
          );
        }
        ready.len[key] = kept - rs;
      }
    }
    // Nobody rides on after a trip's last hop.
    const lastHop = pos === n - 2;
    const len = tripLen[t];
    if (len === 0 || alight[k] === Infinity) {
      if (len !== 0 && lastHop) onBoard.drop(t);
      continue;
    }

    // 2. Unload at v: wait there for onward trips, and finish where the destination is reachable.
    const arr = cArr[k];
    const alightBound = alight[k];
    const alightTr = alightTransfers[h];
    const alightEm = alightGrams[h];
    // Exact grams of each label's leg from its boarding call to v (pos + 1).
    const legAt = gapAt + pos + 1;
    const egress = egressHead[v];
    const classes = departingClasses[v];
    const vBits = stopBits[v];
    // Every label here gets off at the same time: look up the bounds at v once per class.
    departAt0 = departAt1 = departAt2 = NOT_LOOKED_UP;
    const bs = onBoard.bags.start[t];
    // Nothing below adds to a trip bag, so the items array stays the same.
    const items = onBoard.bags.items;
    const { dep0: lDep0s, tr: lTrs, emBoard: lEms, emLow: lEmLows, bits: lBitss } = onBoard;
    const { board: lBoards, sea: lSeas } = onBoard;
    let kept = bs;
    for (let i = bs; i < bs + len; i++) {
      const tl = items[i];
      const dep0 = lDep0s[tl];
      const tr = lTrs[tl];
      const em = lEms[tl] + legGrams[legAt + lBoards[tl] * n];
      const bits = lBitss[tl] | vBits;
      if (
        (hasRequired && !req.enoughStops(bits, tr, 0)) ||
        targets.hopeless(
          dep0,
          hasRequired ? Math.max(alightBound, arr + req.boundFrom(v, bits)) : alightBound,
          tr + alightTr,
          em + alightEm
        )
      ) {
        // Not getting off here. A label that a found journey beats whatever it does next (the
        // bounds for riding on; the grams so far bounded by the hop bounds since boarding) leaves
        // the trip for good.
        if (
          !targets.hopeless(
            dep0,
            rideBound,
            tr + rideTransfers[h],
            lEmLows[tl] + cumFrom[k] + rideGrams[h]
          )
        )
          items[kept++] = tl;
        continue;
      }
      items[kept++] = tl;
      // Made only when something keeps it (a journey or a waiting label).
      let label = NO_LABEL;
      if (egress >= 0 && covers(bits, fullBits)) {
        for (let ei = egress; ei >= 0; ei = egressNext[ei]) {
          const e = egressList[ei];
          const tArr = e.truck ? arr + transferMin[cls][TRUCK] + e.minutes : arr;
          const tEm = e.truck ? em + e.grams + handlingGrams[cls][TRUCK] : em;
          if (tArr > maxArrival || tArr - dep0 > maxLeadMinutes || tEm > maxGrams) continue;
          if (targets.dominated(dep0, tArr, tr, tEm)) continue;
          if (label === NO_LABEL) label = onBoard.addStop(tl, pos + 1);
          targets.add(dep0, tArr, tr, tEm, label, ei);
        }
      }
      if (tr >= maxTransfers || !classes) continue;
      const lSea = lSeas[tl];
      for (let c = 0; c < SCHEDULED_CLASSES; c++) {
        if (!(classes & (1 << c))) continue;
        const wkey = v * SCHEDULED_CLASSES + c;
        const waitEm = em + handlingGrams[cls][c];
        const readyAt = arr + transferMin[cls][c];
        // A label already ready there that dominates it makes it useless: checked first, as it
        // rules out most (the bounds below rarely do, and cost a profile look-up).
        if (readyDominated(ready, wkey, waiting, dep0, tr, waitEm, bits, lSea, seaDominance))
          continue;
        // Only worth waiting when some trip leaving v once ready can still lead somewhere.
        let at: number;
        if (c === 0) {
          if (departAt0 === NOT_LOOKED_UP)
            departAt0 = bounds.fromSlot(v, readySlot[k * SCHEDULED_CLASSES + 0]);
          at = departAt0;
        } else if (c === 1) {
          if (departAt1 === NOT_LOOKED_UP)
            departAt1 = bounds.fromSlot(v, readySlot[k * SCHEDULED_CLASSES + 1]);
          at = departAt1;
        } else {
          if (departAt2 === NOT_LOOKED_UP)
            departAt2 = bounds.fromSlot(v, readySlot[k * SCHEDULED_CLASSES + 2]);
          at = departAt2;
        }
        if (
          at < 0 ||
          targets.hopeless(dep0, stopArrival[at], tr + stopTransfers[v], waitEm + stopGrams[v])
        )
          continue;
        if (label === NO_LABEL) label = onBoard.addStop(tl, pos + 1);
        st.heap(wkey).push(readyAt, waiting.push(waitEm, dep0, tr, bits, lSea, v, readyAt, label));
      }
    }
    tripLen[t] = kept - bs;
    if (kept === bs || lastHop) onBoard.drop(t); // back on the fast path
  }
  const out: Journey[] = [];
  for (let i = 0; i < targets.count; i++) out.push(toJourney(spec, onBoard, targets, i));
  return out;
}

/**
 * The first waiting label from `from` on that some trip leaving its stop at `time` or later (once
 * it is ready) can still take to a new journey; waiting.size when none is left. Labels ready by
 * `time` at the same stop share one bounds look-up (`atByStop`, scratch per stop).
 */
function firstAlive(
  waiting: WaitingRows,
  from: number,
  time: number,
  bounds: ArrivalBounds,
  left: { stopTransfers: Float64Array; stopGrams: Float64Array },
  targets: TargetBag,
  atByStop: Int32Array
): number {
  const { stopArrival } = bounds;
  const { stopTransfers, stopGrams } = left;
  atByStop.fill(NOT_LOOKED_UP);
  for (let w = from; w < waiting.size; w++) {
    const u = waiting.stop[w];
    let at: number;
    if (waiting.readyAt[w] <= time) {
      at = atByStop[u];
      if (at === NOT_LOOKED_UP) at = atByStop[u] = bounds.departing(u, time);
    } else at = bounds.departing(u, waiting.readyAt[w]);
    if (
      at >= 0 &&
      !targets.hopeless(
        waiting.dep0[w],
        stopArrival[at],
        waiting.tr[w] + stopTransfers[u],
        waiting.em[w] + stopGrams[u]
      )
    )
      return w;
  }
  return waiting.size;
}

/** Whether waiting row a weakly dominates row b (same stop and class). */
function waitingDominates(rows: WaitingRows, a: number, b: number, seaDominance: boolean): boolean {
  return (
    rows.em[a] <= rows.em[b] &&
    rows.dep0[a] >= rows.dep0[b] &&
    rows.tr[a] <= rows.tr[b] &&
    covers(rows.bits[a], rows.bits[b]) &&
    (!seaDominance || rows.sea[a] <= rows.sea[b])
  );
}

/** insertPareto of waiting row w into the ready bag at `key`. */
function insertReady(
  ready: Runs,
  key: number,
  w: number,
  rows: WaitingRows,
  seaDominance: boolean
): void {
  const s = ready.start[key];
  const e = s + ready.len[key];
  const items = ready.items;
  for (let i = s; i < e; i++) if (waitingDominates(rows, items[i], w, seaDominance)) return;
  let kept = s;
  for (let i = s; i < e; i++)
    if (!waitingDominates(rows, w, items[i], seaDominance)) items[kept++] = items[i];
  ready.len[key] = kept - s;
  ready.push(key, w);
}

/** Whether a label ready at `key` dominates a waiting label with these values. */
function readyDominated(
  ready: Runs,
  key: number,
  rows: WaitingRows,
  dep0: number,
  tr: number,
  em: number,
  bits: number,
  sea: number,
  seaDominance: boolean
): boolean {
  const s = ready.start[key];
  const e = s + ready.len[key];
  const items = ready.items;
  for (let i = s; i < e; i++) {
    const w = items[i];
    if (
      rows.em[w] <= em &&
      rows.dep0[w] >= dep0 &&
      rows.tr[w] <= tr &&
      covers(rows.bits[w], bits) &&
      (!seaDominance || rows.sea[w] <= sea)
    )
      return true;
  }
  return false;
}

/**
 * "All required" LOCODEs (see SearchSpec.requiredStops): the detour bound through the ones a label
 * still misses, and whether enough handling stops are left to collect them. Undefined when the
 * query requires none (the scan then skips both checks).
 */
function requirements(
  net: Network,
  spec: SearchSpec,
  egressAt: Map<number, Access[]>
):
  | {
      boundFrom(u: number, bits: number): number;
      enoughStops(bits: number, tr: number, stopsLeft: number): boolean;
    }
  | undefined {
  if (!spec.requiredStops?.length) return undefined;
  const remaining = remainingLowerBounds(net, [...egressAt.keys()], spec.patternAllowed);
  // Per required LOCODE: lower bound from each stop through one of its stops to the destination.
  const required = spec.requiredStops.map(({ bit, stops }) => {
    const toIt = remainingLowerBounds(net, stops, spec.patternAllowed);
    let best = Infinity;
    for (const r of stops) best = Math.min(best, remaining[r]);
    const via = new Float64Array(net.stops.length);
    for (let u = 0; u < via.length; u++) {
      // Already at a stop of it: the plain remaining bound; else ride there, then on.
      via[u] = toIt[u] === 0 ? remaining[u] : toIt[u] + best;
    }
    return { bit, via };
  });
  const requiredMask = required.reduce((m, r) => m | r.bit, 0);
  return {
    /** Lower bound of the remaining minutes from stop u for a label holding `bits`. */
    boundFrom(u: number, bits: number): number {
      let b = remaining[u];
      if ((bits & requiredMask) === requiredMask) return b;
      for (const r of required) if (!(bits & r.bit) && r.via[u] > b) b = r.via[u];
      return b;
    },
    /** Whether the required LOCODEs still missing fit in the handling stops left (each transfer adds one). */
    enoughStops(bits: number, tr: number, stopsLeft: number): boolean {
      const missing = requiredMask & ~bits;
      if (!missing) return true;
      return popcount(missing) <= spec.maxTransfers - tr + stopsLeft;
    },
  };
}

interface StaticIndex {
  departingClasses: Uint8Array;
  tripCls: Int8Array;
  patternCls: Int8Array;
  patternSea: Uint8Array;
  tripPattern: Int32Array;
  /**
   * Per connection: the sum of its pattern's hop lower bounds of grams CO2e (hopLowerBounds: summed
   * over any stretch of calls never above that leg's grams) from the first call to the hop's start.
   */
  cumFrom: Float64Array;
  /**
   * Per connection: its stop * 3 + transfer class (the key of the bags where cargo boards it) and
   * its trip's pattern, so that the scan reads them in order rather than per trip.
   */
  connKey: Int32Array;
  connPattern: Int32Array;
}
const staticCache = new WeakMap<Network, StaticIndex>();

interface ConnectionSlots {
  /** Per connection: the first slot of its departure stop departing at its departure or later. */
  departSlot: Int32Array;
  /**
   * Per connection * 3 + class: the first slot of its arrival stop departing once cargo getting
   * off is ready for a trip of that class (the stop's block end: none).
   */
  readySlot: Int32Array;
}
const slotsCache = new WeakMap<Network, ConnectionSlots>();

/**
 * Per network, once: the departure slots (departure-slots.ts) the scan looks up for a connection,
 * so that a look-up is a read instead of a search by time.
 */
function connectionSlots(net: Network, tripCls: Int8Array): ConnectionSlots {
  let cs = slotsCache.get(net);
  if (cs) return cs;
  const { stopStart, slotDep } = departureSlots(net);
  const conns = net.connections;
  const minutes = net.rules.minutes;
  const departSlot = new Int32Array(conns.count);
  const readySlot = new Int32Array(conns.count * SCHEDULED_CLASSES);
  for (let k = 0; k < conns.count; k++) {
    const u = conns.from[k];
    const v = conns.to[k];
    departSlot[k] = firstSlotFrom(slotDep, stopStart[u], stopStart[u + 1], conns.dep[k]);
    const cls = tripCls[conns.trip[k]];
    for (let c = 0; c < SCHEDULED_CLASSES; c++) {
      const ready = conns.arr[k] + minutes[cls][c];
      readySlot[k * SCHEDULED_CLASSES + c] = firstSlotFrom(
        slotDep,
        stopStart[v],
        stopStart[v + 1],
        ready
      );
    }
  }
  cs = { departSlot, readySlot };
  slotsCache.set(net, cs);
  return cs;
}

/** Per network, once: transfer class of each trip, sea patterns, classes of trips leaving each stop. */
function staticIndex(net: Network): StaticIndex {
  let idx = staticCache.get(net);
  if (idx) return idx;
  const patternCls = net.patterns.map((p) => classIndex(transferClassOf(p.modality)));
  const tripCls = new Int8Array(net.trips.length);
  for (const t of net.trips) tripCls[t.index] = patternCls[t.pattern];
  const departingClasses = new Uint8Array(net.stops.length);
  const conns = net.connections;
  for (let k = 0; k < conns.count; k++)
    departingClasses[conns.from[k]] |= 1 << tripCls[conns.trip[k]];
  const patternSea = Uint8Array.from(net.patterns, (p) =>
    transferClassOf(p.modality) === "SEA" ? 1 : 0
  );
  // Laid out per connection so the scan reads typed arrays in order instead of trip objects.
  const tripPattern = Int32Array.from(net.trips, (t) => t.pattern);
  const cumLow = net.patterns.map((p) => {
    const h = hopLowerBounds(p);
    const cum = new Float64Array(h.length + 1);
    for (let x = 0; x < h.length; x++) cum[x + 1] = cum[x] + h[x];
    return cum;
  });
  const cumFrom = new Float64Array(conns.count);
  for (let k = 0; k < conns.count; k++)
    cumFrom[k] = cumLow[tripPattern[conns.trip[k]]][conns.pos[k]];
  const connKey = new Int32Array(conns.count);
  const connPattern = new Int32Array(conns.count);
  for (let k = 0; k < conns.count; k++) {
    connKey[k] = conns.from[k] * SCHEDULED_CLASSES + tripCls[conns.trip[k]];
    connPattern[k] = tripPattern[conns.trip[k]];
  }
  idx = {
    departingClasses,
    tripCls,
    patternCls: Int8Array.from(patternCls),
    tripPattern,
    patternSea,
    cumFrom,
    connKey,
    connPattern,
  };
  staticCache.set(net, idx);
  return idx;
}

interface LegIndex extends LegTables {
  /** All patterns' rideGaps, concatenated like legGrams. */
  rideGap: Float64Array;
}
const legCache = new WeakMap<Network, LegIndex>();

/** Per network, once: the board×alight tables of every pattern in two flat arrays. */
function legIndex(net: Network): LegIndex {
  let idx = legCache.get(net);
  if (idx) return idx;
  const patternCalls = Int32Array.from(net.patterns, (p) => p.calls.length);
  const legOffset = new Int32Array(net.patterns.length);
  let size = 0;
  for (let p = 0; p < net.patterns.length; p++) {
    legOffset[p] = size;
    size += patternCalls[p] * patternCalls[p];
  }
  const legGrams = new Int32Array(size);
  const rideGap = new Float64Array(size);
  for (const p of net.patterns) {
    legGrams.set(p.legGrams, legOffset[p.index]);
    rideGap.set(rideGaps(p), legOffset[p.index]);
  }
  const tripPattern = Int32Array.from(net.trips, (t) => t.pattern);
  const tripStart = new Int32Array(net.trips.length + 1);
  for (const t of net.trips)
    tripStart[t.index + 1] = tripStart[t.index] + patternCalls[t.pattern] - 1;
  idx = {
    patternCalls,
    legOffset,
    legGrams,
    rideGap,
    tripPattern,
    tripStart,
  };
  legCache.set(net, idx);
  return idx;
}

/** Target i as a journey: its legs followed back through the stop and trip labels. */
function toJourney(spec: SearchSpec, rows: TripBags, targets: TargetBag, i: number): Journey {
  const legs: JourneyLeg[] = [];
  let stop = targets.last[i];
  let access = NO_LABEL;
  while (stop !== NO_LABEL) {
    const tl = rows.stopParent[stop];
    legs.push({ trip: rows.trip[tl], board: rows.board[tl], alight: rows.stopAlight[stop] });
    access = rows.access[tl];
    stop = rows.parent[tl];
  }
  legs.reverse();
  return {
    dep0: targets.dep0[i],
    arr: targets.arr[i],
    transfers: targets.tr[i],
    grams: targets.em[i],
    access: spec.access[access],
    egress: spec.egress[targets.egress[i]],
    legs,
  };
}

function popcount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

function groupByStop(list: Access[]): Map<number, Access[]> {
  const m = new Map<number, Access[]>();
  for (const a of list) {
    const l = m.get(a.stop);
    if (l) l.push(a);
    else m.set(a.stop, [a]);
  }
  return m;
}

/** Per stop and arriving class: the fewest minutes and grams from getting off to the end of the last mile. */
function egressCosts(
  net: Network,
  egressAt: Map<number, Access[]>
): { egressMinutes: Float64Array; egressGrams: Float64Array } {
  const egressMinutes = new Float64Array(net.stops.length * SCHEDULED_CLASSES).fill(Infinity);
  const egressGrams = new Float64Array(net.stops.length * SCHEDULED_CLASSES).fill(Infinity);
  const { minutes, handlingGrams } = net.rules;
  for (const [v, list] of egressAt) {
    for (let c = 0; c < SCHEDULED_CLASSES; c++) {
      let m = Infinity;
      let g = Infinity;
      for (const e of list) {
        m = Math.min(m, e.truck ? minutes[c][TRUCK] + e.minutes : 0);
        g = Math.min(g, e.truck ? e.grams + handlingGrams[c][TRUCK] : 0);
      }
      egressMinutes[v * SCHEDULED_CLASSES + c] = m;
      egressGrams[v * SCHEDULED_CLASSES + c] = g;
    }
  }
  return { egressMinutes, egressGrams };
}

/** Per arriving class: the least handling onto any scheduled class. */
function minHandlingFrom(net: Network): Float64Array {
  const out = new Float64Array(SCHEDULED_CLASSES);
  for (let c = 0; c < SCHEDULED_CLASSES; c++) {
    let best = Infinity;
    for (let d = 0; d < SCHEDULED_CLASSES; d++)
      best = Math.min(best, net.rules.handlingGrams[c][d]);
    out[c] = best;
  }
  return out;
}

/** Per arriving class: the shortest minimum transfer time onto any scheduled class. */
function minTransferFrom(net: Network): Float64Array {
  const out = new Float64Array(SCHEDULED_CLASSES);
  for (let c = 0; c < SCHEDULED_CLASSES; c++) {
    let best = Infinity;
    for (let d = 0; d < SCHEDULED_CLASSES; d++) best = Math.min(best, net.rules.minutes[c][d]);
    out[c] = best;
  }
  return out;
}
