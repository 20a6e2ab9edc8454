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
 * Pruning: lower bounds of what is left of a journey (arrival, transfers, emissions), per
 * connection and per stop from one backward profile scan (arrival-bound.ts), drop every label that
 * a journey already found beats even with those bounds added; such a label is beaten for good and
 * leaves its bag. Leg emissions are not additive, so the emission bounds add per-hop lower bounds
 * (leg-bounds.ts) and, at boarding, each leg from the boarding call at its exact grams.
 */
import { MinHeap } from "../../heap";
import { classIndex, Network } from "../network";
import { transferClassOf } from "../model";
import { arrivalBounds, LegTables } from "./arrival-bound";
import { hopLowerBounds, rideGaps } from "./leg-bounds";
import { remainingLowerBounds } from "./lower-bound";
import { covers, insertPareto, insertUndominated } from "./pareto";
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

interface TripLabel {
  dep0: number;
  tr: number;
  /** Emissions at boarding (the ride adds legGrams(pattern, board, alight)). */
  emBoard: number;
  /**
   * emBoard minus the pattern's cumulative hop lower bounds at boarding: adding them at a later
   * call gives a lower bound of the emissions so far (legs are not additive, their bounds are).
   */
  emLow: number;
  bits: number;
  sea: number;
  trip: number;
  board: number;
  parent: StopLabel | null;
  access: Access | null;
}

/**
 * Cargo got off a trip: only the journey's legs read it back (its criteria live in the waiting
 * rows and the targets), so it holds no more than the way back, which keeps it small to allocate.
 */
interface StopLabel {
  parent: TripLabel;
  alight: number;
}

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

interface Target {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
  last: StopLabel;
  egress: Access;
}

const NOT_LOOKED_UP = -2;
const SCHEDULED_CLASSES = 3; // SEA, BARGE, RAIL (TRUCK only first/last mile)
const TRUCK = classIndex("TRUCK");

export function searchJourneys(net: Network, spec: SearchSpec): Journey[] {
  const { tripBags, touched, waiting } = tripBagsOf(net);
  try {
    return scan(net, spec, tripBags, touched, waiting);
  } finally {
    // Leave the reused per-trip bags empty for the next search (also after a budget stop).
    for (let i = 0; i < touched.length; i++) tripBags[touched[i]] = undefined;
    touched.length = 0;
    waiting.clear();
  }
}

interface TripBags {
  tripBags: Array<TripLabel[] | undefined>;
  /** Trips whose bag the current search set. */
  touched: number[];
  /** The current search's labels waiting at stops. */
  waiting: WaitingRows<StopLabel>;
}
const tripBagsCache = new WeakMap<Network, TripBags>();

/** One array of trip bags per network, reused: searches run one at a time per thread. */
function tripBagsOf(net: Network): TripBags {
  let b = tripBagsCache.get(net);
  if (!b) {
    b = {
      tripBags: new Array(net.trips.length).fill(undefined),
      touched: [],
      waiting: new WaitingRows<StopLabel>(),
    };
    tripBagsCache.set(net, b);
  }
  return b;
}

function scan(
  net: Network,
  spec: SearchSpec,
  tripBags: Array<TripLabel[] | undefined>,
  touched: number[],
  waiting: WaitingRows<StopLabel>
): Journey[] {
  const conns = net.connections;
  const { minutes: transferMin, handlingGrams } = net.rules;

  const accessAt = groupByStop(spec.access);
  /** Per stop * 3 + class: 1 once anything may board there (access, or labels waiting). */
  const boardable = new Uint8Array(net.stops.length * SCHEDULED_CLASSES);
  for (const u of accessAt.keys())
    boardable.fill(1, u * SCHEDULED_CLASSES, (u + 1) * SCHEDULED_CLASSES);
  const egressAt = groupByStop(spec.egress);
  // Cargo from the origin boards no later than this (its first departure is bounded).
  let accessUntil = spec.maxDeparture;
  for (const a of spec.access) {
    if (!a.truck) continue;
    for (let c = 0; c < SCHEDULED_CLASSES; c++)
      accessUntil = Math.max(accessUntil, spec.maxDeparture + transferMin[TRUCK][c] + a.minutes);
  }
  // Indexed stop * 3 + class: pending labels in min-heaps by ready time, and ready labels.
  const pending: Array<MinHeap | undefined> = new Array(net.stops.length * SCHEDULED_CLASSES);
  // Pending heaps and ready bags hold row numbers of `waiting`.
  const ready: Array<number[] | undefined> = new Array(net.stops.length * SCHEDULED_CLASSES);
  const targets: Target[] = [];
  const { departingClasses, tripCls, tripPattern, patternSea, cumFrom, hopGrams } =
    staticIndex(net);
  const legs = legIndex(net);
  const { patternCalls, legOffset, legGrams, rideGap } = legs;

  const scanEnd = Math.min(spec.maxArrival, spec.maxDeparture + spec.maxLeadMinutes);
  const deadline = spec.deadline ?? Infinity;
  const first = lowerBound(conns.dep, conns.count, spec.minDeparture);
  const end = upperBound(conns.dep, conns.count, scanEnd);
  const bounds = arrivalBounds(net, {
    first,
    end,
    tripAllowed: spec.tripAllowed,
    stopUsable: spec.stopUsable,
    tripCls,
    ...egressCosts(net, egressAt),
    minTransfer: minTransferFrom(net),
    minHandling: minHandlingFrom(net),
    hopGrams,
    legs,
    transfersAllowed: spec.maxTransfers > 0,
    maxArrival: spec.maxArrival,
    classes: SCHEDULED_CLASSES,
  });
  const { ride, alight, rideTransfers, alightTransfers, rideGrams, alightGrams, boardGrams } =
    bounds;
  const { stopArrival, stopTransfers, stopGrams } = bounds;
  // The static ride-time bound is only needed for required LOCODEs (the detour through them).
  const hasRequired = !!spec.requiredStops?.length;
  const remaining = hasRequired
    ? remainingLowerBounds(net, [...egressAt.keys()], spec.patternAllowed)
    : new Float64Array(net.stops.length);
  // Per required LOCODE: lower bound from each stop through one of its stops to the destination.
  const required = (spec.requiredStops ?? []).map(({ bit, stops }) => {
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
  /** Lower bound of the remaining minutes from stop u for a label holding `bits`. */
  const boundFrom = (u: number, bits: number): number => {
    let b = remaining[u];
    if ((bits & requiredMask) === requiredMask) return b;
    for (const r of required) if (!(bits & r.bit) && r.via[u] > b) b = r.via[u];
    return b;
  };
  /** Whether the required LOCODEs still missing fit in the handling stops left (each transfer adds one). */
  const enoughStops = (bits: number, tr: number, stopsLeft: number): boolean => {
    const missing = requiredMask & ~bits;
    if (!missing) return true;
    return popcount(missing) <= spec.maxTransfers - tr + stopsLeft;
  };
  const seaDominance = spec.directSeaOnly;

  /**
   * Whether riding pattern `pat` from call `aBoard` with `aEm` at boarding is never worse in
   * emissions than from `bBoard` with `bEm` at any call both can still get off at (leg emissions
   * are not additive over calls, so one offset does not decide it; rideGaps precomputes the
   * per-call comparison).
   */
  const rideDominates = (
    pat: number,
    aBoard: number,
    aEm: number,
    bBoard: number,
    bEm: number
  ): boolean =>
    aBoard === bBoard
      ? aEm <= bEm
      : aEm - bEm <= rideGap[legOffset[pat] + aBoard * patternCalls[pat] + bBoard];
  // Whether a label with these values would be dominated in `bag` (checked before allocating it).
  const inBag = (
    bag: TripLabel[],
    pat: number,
    dep0: number,
    tr: number,
    emBoard: number,
    board: number,
    bits: number,
    sea: number
  ): boolean => {
    for (const a of bag) {
      if (
        a.dep0 >= dep0 &&
        a.tr <= tr &&
        covers(a.bits, bits) &&
        (!seaDominance || a.sea <= sea) &&
        rideDominates(pat, a.board, a.emBoard, board, emBoard)
      )
        return true;
    }
    return false;
  };
  const tripDominates = (a: TripLabel, b: TripLabel): boolean =>
    a.dep0 >= b.dep0 &&
    a.tr <= b.tr &&
    covers(a.bits, b.bits) &&
    (!seaDominance || a.sea <= b.sea) &&
    rideDominates(tripPattern[a.trip], a.board, a.emBoard, b.board, b.emBoard);
  const waitingDominates = (a: number, b: number): boolean =>
    waiting.em[a] <= waiting.em[b] &&
    waiting.dep0[a] >= waiting.dep0[b] &&
    waiting.tr[a] <= waiting.tr[b] &&
    covers(waiting.bits[a], waiting.bits[b]) &&
    (!seaDominance || waiting.sea[a] <= waiting.sea[b]);
  const targetDominates = (a: Target, b: Target): boolean =>
    a.dep0 >= b.dep0 && a.arr <= b.arr && a.tr <= b.tr && a.em <= b.em;
  // A label is hopeless when a complete journey already beats it: its extensions only get worse.
  // `arr` is a lower bound of the final arrival (time so far plus the remaining lower bound).
  // `tr` and `em` likewise: so far plus the lower bounds of what is left.
  const hopeless = (dep0: number, arr: number, tr: number, em: number): boolean =>
    arr === Infinity ||
    tr > spec.maxTransfers ||
    em > spec.maxGrams ||
    arr - dep0 > spec.maxLeadMinutes ||
    arr > spec.maxArrival ||
    targetDominated(dep0, arr, tr, em);
  const addTarget = (x: Target): void => {
    if (!insertPareto(targets, x, targetDominates)) return;
    // insertPareto appended x; move it to its place in descending dep0 order.
    let i = targets.length - 1;
    while (i > 0 && targets[i - 1].dep0 < x.dep0) {
      targets[i] = targets[i - 1];
      i--;
    }
    targets[i] = x;
  };
  // A waiting label is useless when a label already ready at that stop dominates it.
  const dominatedByReady = (
    bag: number[] | undefined,
    dep0: number,
    tr: number,
    em: number,
    bits: number,
    sea: number
  ): boolean => {
    if (!bag) return false;
    for (const w of bag) {
      if (
        waiting.em[w] <= em &&
        waiting.dep0[w] >= dep0 &&
        waiting.tr[w] <= tr &&
        covers(waiting.bits[w], bits) &&
        (!seaDominance || waiting.sea[w] <= sea)
      )
        return true;
    }
    return false;
  };
  function targetDominated(dep0: number, arr: number, tr: number, em: number): boolean {
    // Targets are kept by descending departure: only the prefix departing no earlier can dominate.
    for (let i = 0; i < targets.length; i++) {
      const d = targets[i];
      if (d.dep0 < dep0) break;
      if (d.arr <= arr && d.tr <= tr && d.em <= em) return true;
    }
    return false;
  }

  /** Per class: the bounds' index for waiting at the stop of the current connection. */
  const departAt = new Int32Array(SCHEDULED_CLASSES);
  /** Trips whose bag holds labels. */
  let liveTrips = 0;
  /** Waiting labels before this index are beaten for good. */
  let firstLive = 0;
  // The scan may stop once no label can lead to a new journey: nothing on board, nobody left to
  // board from the origin, and every waiting label beaten whatever leaves its stop from now on.
  // Time only moves on and the journeys found only get better, so a beaten label stays beaten.
  const nothingLeft = (time: number): boolean => {
    if (time <= accessUntil || liveTrips > 0) return false;
    for (; firstLive < waiting.size; firstLive++) {
      const w = firstLive;
      const dep0 = waiting.dep0[w];
      const tr = waiting.tr[w];
      const em = waiting.em[w];
      const at = bounds.departing(waiting.stop[w], Math.max(time, waiting.readyAt[w]));
      if (at >= 0 && !hopeless(dep0, stopArrival[at], tr + stopTransfers[at], em + stopGrams[at]))
        return false;
    }
    return true;
  };

  for (let k = first, scanned = 0; k < end; k++, scanned++) {
    if (scanned % BUDGET_CHECK_EVERY === 0 && Date.now() > deadline)
      throw new SearchBudgetExceeded();
    if (scanned % LIVENESS_CHECK_EVERY === 0 && nothingLeft(conns.dep[k])) break;
    const rideBound = ride[k];
    const t = conns.trip[k];
    let bag = tripBags[t];
    // No journey riding this connection can arrive in time: nobody boards, and whoever is on
    // board is beaten at every later call too (tripAllowed is folded into the bound).
    if (rideBound === Infinity) {
      if (bag) {
        tripBags[t] = undefined;
        liveTrips--;
      }
      continue;
    }
    const dep = conns.dep[k];
    const u = conns.from[k];
    const cls = tripCls[t];
    const key = u * SCHEDULED_CLASSES + cls;
    let mayBoard = false;
    let accs: Access[] | undefined;
    let heap: MinHeap | undefined;
    let readyBag: number[] | undefined;
    if (boardable[key] === 1 && spec.stopUsable[u]) {
      accs = dep <= accessUntil ? accessAt.get(u) : undefined;
      heap = pending[key];
      readyBag = ready[key];
      mayBoard =
        accs !== undefined ||
        (heap !== undefined && heap.size > 0 && heap.peekKey() <= dep) ||
        (readyBag !== undefined && readyBag.length > 0);
    }
    // Fast path: nobody on board and nobody to board (most connections of a query).
    if (!bag && !mayBoard) continue;
    const pat = tripPattern[t];
    const pos = conns.pos[k];
    const v = conns.to[k];
    const sea = patternSea[pat];

    // 1. Board at u: fresh from the origin, or after a transfer.
    if (mayBoard) {
      const boardBits = spec.patternBits[pat] | spec.stopBits[u];
      if (accs) {
        for (const a of accs) {
          const dep0 = a.truck ? dep - transferMin[TRUCK][cls] - a.minutes : dep;
          if (dep0 < spec.minDeparture || dep0 > spec.maxDeparture) continue;
          const em = a.grams + (a.truck ? handlingGrams[TRUCK][cls] : 0);
          const startBits = spec.initialBits | boardBits;
          if (!enoughStops(startBits, 0, 1)) continue;
          const boundArr = Math.max(rideBound, dep + boundFrom(u, startBits));
          if (hopeless(dep0, boundArr, rideTransfers[k], em + boardGrams[k])) continue;
          const label: TripLabel = {
            dep0,
            tr: 0,
            emBoard: em,
            emLow: em - cumFrom[k],
            bits: startBits,
            sea: seaDominance ? sea : 0,
            trip: t,
            board: pos,
            parent: null,
            access: a,
          };
          if (!bag) {
            tripBags[t] = bag = [];
            touched.push(t);
            liveTrips++;
          }
          insertPareto(bag, label, tripDominates);
        }
      }
      if (heap && heap.size && heap.peekKey() <= dep) {
        if (!readyBag) ready[key] = readyBag = [];
        while (heap.size && heap.peekKey() <= dep)
          insertPareto(readyBag, heap.pop(), waitingDominates);
      }
      if (readyBag) {
        /** Index of the bounds for boarding any trip leaving u from now on (looked up once). */
        let at = NOT_LOOKED_UP;
        let kept = 0;
        for (let i = 0; i < readyBag.length; i++) {
          const w = readyBag[i];
          const wDep0 = waiting.dep0[w];
          const wTr = waiting.tr[w];
          const wEm = waiting.em[w];
          const wSea = waiting.sea[w];
          const bits = waiting.bits[w] | boardBits;
          if (
            (seaDominance && sea && wSea) ||
            !enoughStops(bits, wTr + 1, 1) ||
            hopeless(
              wDep0,
              Math.max(rideBound, dep + boundFrom(u, bits)),
              wTr + 1 + rideTransfers[k],
              wEm + boardGrams[k]
            )
          ) {
            // Not boarding this trip. A label that no trip leaving from now on can help leaves
            // the bag for good (time only moves on).
            if (at === NOT_LOOKED_UP) at = bounds.departing(u, dep);
            if (
              at >= 0 &&
              !hopeless(wDep0, stopArrival[at], wTr + stopTransfers[at], wEm + stopGrams[at])
            )
              readyBag[kept++] = w;
            continue;
          }
          readyBag[kept++] = w;
          const labelSea = wSea | (seaDominance ? sea : 0);
          if (bag && inBag(bag, pat, wDep0, wTr + 1, wEm, pos, bits, labelSea)) continue;
          const label: TripLabel = {
            dep0: wDep0,
            tr: wTr + 1,
            emBoard: wEm,
            emLow: wEm - cumFrom[k],
            bits,
            sea: labelSea,
            trip: t,
            board: pos,
            parent: waiting.label[w],
            access: null,
          };
          if (!bag) {
            tripBags[t] = bag = [];
            touched.push(t);
            liveTrips++;
          }
          // inBag above already ruled out that a label on board dominates this one.
          insertUndominated(bag, label, tripDominates);
        }
        if (kept !== readyBag.length) readyBag.length = kept;
      }
    }
    // Nobody rides on after a trip's last hop.
    const lastHop = pos === patternCalls[pat] - 2;
    if (!bag || !bag.length || alight[k] === Infinity) {
      if (bag && lastHop) {
        tripBags[t] = undefined;
        liveTrips--;
      }
      continue;
    }

    // 2. Unload at v: wait there for onward trips, and finish where the destination is reachable.
    const arr = conns.arr[k];
    const alightBound = alight[k];
    // Exact grams of each label's leg from its boarding call to v (pos + 1).
    const n = patternCalls[pat];
    const legAt = legOffset[pat] + pos + 1;
    const egress = egressAt.get(v);
    const classes = departingClasses[v];
    // Every label here gets off at the same time: look up the bounds at v once per class.
    departAt.fill(NOT_LOOKED_UP);
    let kept = 0;
    for (let i = 0; i < bag.length; i++) {
      const tl = bag[i];
      const em = tl.emBoard + legGrams[legAt + tl.board * n];
      const bits = tl.bits | spec.stopBits[v];
      if (
        !enoughStops(bits, tl.tr, 0) ||
        hopeless(
          tl.dep0,
          hasRequired ? Math.max(alightBound, arr + boundFrom(v, bits)) : alightBound,
          tl.tr + alightTransfers[k],
          em + alightGrams[k]
        )
      ) {
        // Not getting off here. A label that a found journey beats whatever it does next (the
        // bounds for riding on; the grams so far bounded by the hop bounds since boarding) leaves
        // the trip for good.
        if (
          !hopeless(
            tl.dep0,
            rideBound,
            tl.tr + rideTransfers[k],
            tl.emLow + cumFrom[k] + rideGrams[k]
          )
        )
          bag[kept++] = tl;
        continue;
      }
      bag[kept++] = tl;
      // Allocated only when something keeps it (a journey or a waiting label): saves GC.
      let label: StopLabel | undefined;
      if (egress && covers(bits, spec.fullBits)) {
        for (const e of egress) {
          const tArr = e.truck ? arr + transferMin[cls][TRUCK] + e.minutes : arr;
          const tEm = e.truck ? em + e.grams + handlingGrams[cls][TRUCK] : em;
          if (tArr > spec.maxArrival || tArr - tl.dep0 > spec.maxLeadMinutes || tEm > spec.maxGrams)
            continue;
          if (targetDominated(tl.dep0, tArr, tl.tr, tEm)) continue;
          label ??= { parent: tl, alight: pos + 1 };
          addTarget({ dep0: tl.dep0, arr: tArr, tr: tl.tr, em: tEm, last: label, egress: e });
        }
      }
      if (tl.tr >= spec.maxTransfers || !classes) continue;
      for (let c = 0; c < SCHEDULED_CLASSES; c++) {
        if (!(classes & (1 << c))) continue;
        const wkey = v * SCHEDULED_CLASSES + c;
        const waitEm = em + handlingGrams[cls][c];
        const readyAt = arr + transferMin[cls][c];
        // Only worth waiting when some trip leaving v once ready can still lead somewhere.
        if (departAt[c] === NOT_LOOKED_UP) departAt[c] = bounds.departing(v, readyAt);
        const at = departAt[c];
        if (
          at < 0 ||
          hopeless(tl.dep0, stopArrival[at], tl.tr + stopTransfers[at], waitEm + stopGrams[at])
        )
          continue;
        if (dominatedByReady(ready[wkey], tl.dep0, tl.tr, waitEm, bits, tl.sea)) continue;
        label ??= { parent: tl, alight: pos + 1 };
        let heap = pending[wkey];
        if (!heap) {
          pending[wkey] = heap = new MinHeap(4);
          boardable[wkey] = 1;
        }
        heap.push(readyAt, waiting.push(waitEm, tl.dep0, tl.tr, bits, tl.sea, v, readyAt, label));
      }
    }
    if (kept !== bag.length) bag.length = kept;
    if (!kept || lastHop) {
      tripBags[t] = undefined; // back on the fast path
      liveTrips--;
    }
  }
  return targets.map(toJourney);
}

interface StaticIndex {
  departingClasses: Uint8Array;
  tripCls: Int8Array;
  patternSea: Uint8Array;
  tripPattern: Int32Array;
  /**
   * Per connection: a lower bound of the grams CO2e of its hop (hopLowerBounds: summed over any
   * stretch of calls never above that leg's grams), and the sum of those from its pattern's first
   * call to the hop's start.
   */
  cumFrom: Float64Array;
  hopGrams: Float64Array;
}
const staticCache = new WeakMap<Network, StaticIndex>();

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
  const hopGrams = new Float64Array(conns.count);
  for (let k = 0; k < conns.count; k++) {
    const cum = cumLow[tripPattern[conns.trip[k]]];
    cumFrom[k] = cum[conns.pos[k]];
    hopGrams[k] = cum[conns.pos[k] + 1] - cumFrom[k];
  }
  idx = { departingClasses, tripCls, tripPattern, patternSea, cumFrom, hopGrams };
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

function toJourney(t: Target): Journey {
  const legs: JourneyLeg[] = [];
  let stop: StopLabel | null = t.last;
  let access: Access | null = null;
  while (stop) {
    const tl: TripLabel = stop.parent;
    legs.push({ trip: tl.trip, board: tl.board, alight: stop.alight });
    access = tl.access;
    stop = tl.parent;
  }
  legs.reverse();
  return {
    dep0: t.dep0,
    arr: t.arr,
    transfers: t.tr,
    grams: t.em,
    access: access!,
    egress: t.egress,
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

/** First index whose value is above x. */
function upperBound(arr: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function lowerBound(arr: Float64Array, n: number, x: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
