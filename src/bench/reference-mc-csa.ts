/**
 * The optimizer's search as it was before the speed work of issue 21 (a forward multi-criteria
 * connection scan pruned by a static ride-time bound), kept as a reference: the test
 * `search-equivalence.test.ts` checks that the optimized search finds the same journeys, and
 * `bench:optimizer` times both on the same queries in one run. Its only change since is the
 * emission model of issue 20 item 1 (leg emissions are not additive over calls: trip labels keep
 * the emissions at boarding and compare at every call still ahead), so both searches answer the
 * same question.
 */
import { MinHeap } from "../engine/heap";
import { classIndex, Network, Pattern } from "../engine/optimizer/network";
import { transferClassOf } from "../engine/optimizer/model";
import { remainingLowerBounds } from "../engine/optimizer/search/lower-bound";
import { covers, insertPareto } from "../engine/optimizer/search/pareto";
import {
  Access,
  Journey,
  JourneyLeg,
  SearchBudgetExceeded,
  SearchSpec,
} from "../engine/optimizer/search/mc-csa";

/** Connections scanned between two looks at the clock. */
const BUDGET_CHECK_EVERY = 1024;

interface TripLabel {
  dep0: number;
  tr: number;
  /** Emissions at boarding (the ride adds legGrams(pattern, board, alight)). */
  emBoard: number;
  bits: number;
  sea: number;
  trip: number;
  board: number;
  parent: StopLabel | null;
  access: Access | null;
}

interface StopLabel {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
  bits: number;
  sea: number;
  cls: number;
  parent: TripLabel;
  alight: number;
}

/** A stop label waiting (or ready) for trips of one transfer class. */
interface Waiting {
  ready: number;
  /** Emissions including the handling for this class. */
  em: number;
  label: StopLabel;
}

interface Target {
  dep0: number;
  arr: number;
  tr: number;
  em: number;
  last: StopLabel;
  egress: Access;
}

const SCHEDULED_CLASSES = 3; // SEA, BARGE, RAIL (TRUCK only first/last mile)
const TRUCK = classIndex("TRUCK");

export function searchJourneysV1(net: Network, spec: SearchSpec): Journey[] {
  const conns = net.connections;
  const { minutes: transferMin, handlingGrams } = net.rules;

  const accessAt = groupByStop(spec.access);
  const egressAt = groupByStop(spec.egress);
  const tripBags: Array<TripLabel[] | undefined> = new Array(net.trips.length);
  // Indexed stop * 3 + class: pending labels in min-heaps by ready time, and ready labels.
  const pending: Array<MinHeap | undefined> = new Array(net.stops.length * SCHEDULED_CLASSES);
  /** The labels the pending heaps hold (a heap holds indices into this list). */
  const waiting: Waiting[] = [];
  const ready: Array<Waiting[] | undefined> = new Array(net.stops.length * SCHEDULED_CLASSES);
  const remaining = remainingLowerBounds(net, [...egressAt.keys()], spec.patternAllowed);
  const targets: Target[] = [];
  const { departingClasses, tripCls, patternSea } = staticIndex(net);

  const scanEnd = Math.min(spec.maxArrival, spec.maxDeparture + spec.maxLeadMinutes);
  const deadline = spec.deadline ?? Infinity;
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

  // Whether a label with these values would be dominated in `bag` (checked before allocating it).
  const inBag = (
    bag: TripLabel[],
    pattern: Pattern,
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
        rideDominates(pattern, a.board, a.emBoard, board, emBoard)
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
    rideDominates(net.patterns[net.trips[a.trip].pattern], a.board, a.emBoard, b.board, b.emBoard);
  const waitingDominates = (a: Waiting, b: Waiting): boolean =>
    a.label.dep0 >= b.label.dep0 &&
    a.label.tr <= b.label.tr &&
    a.em <= b.em &&
    covers(a.label.bits, b.label.bits) &&
    (!seaDominance || a.label.sea <= b.label.sea);
  const targetDominates = (a: Target, b: Target): boolean =>
    a.dep0 >= b.dep0 && a.arr <= b.arr && a.tr <= b.tr && a.em <= b.em;
  // A label is hopeless when a complete journey already beats it: its extensions only get worse.
  // `arr` is a lower bound of the final arrival (time so far plus the remaining lower bound).
  const hopeless = (dep0: number, arr: number, tr: number, em: number): boolean =>
    arr === Infinity ||
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
    bag: Waiting[] | undefined,
    dep0: number,
    tr: number,
    em: number,
    bits: number,
    sea: number
  ): boolean => {
    if (!bag) return false;
    for (const w of bag) {
      const r = w.label;
      if (
        r.dep0 >= dep0 &&
        r.tr <= tr &&
        w.em <= em &&
        covers(r.bits, bits) &&
        (!seaDominance || r.sea <= sea)
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

  let k = lowerBound(conns.dep, conns.count, spec.minDeparture);
  for (let scanned = 0; k < conns.count; k++, scanned++) {
    if (scanned % BUDGET_CHECK_EVERY === 0 && Date.now() > deadline)
      throw new SearchBudgetExceeded();
    const dep = conns.dep[k];
    if (dep > scanEnd) break;
    const t = conns.trip[k];
    if (!spec.tripAllowed[t]) continue;
    const u = conns.from[k];
    const cls = tripCls[t];
    const key = u * SCHEDULED_CLASSES + cls;
    let bag = tripBags[t];
    const mayBoard =
      spec.stopUsable[u] &&
      remaining[u] !== Infinity &&
      (accessAt.has(u) || pending[key] !== undefined || ready[key] !== undefined);
    // Fast path: nobody on board and nobody to board (most connections of a query).
    if (!bag && !mayBoard) continue;
    const trip = net.trips[t];
    const pattern = net.patterns[trip.pattern];
    const pos = conns.pos[k];
    const v = conns.to[k];
    const sea = patternSea[trip.pattern];

    // 1. Board at u: fresh from the origin, or after a transfer.
    if (mayBoard) {
      const boardBits = spec.patternBits[trip.pattern] | spec.stopBits[u];
      const accs = accessAt.get(u);
      if (accs) {
        for (const a of accs) {
          const dep0 = a.truck ? dep - transferMin[TRUCK][cls] - a.minutes : dep;
          if (dep0 < spec.minDeparture || dep0 > spec.maxDeparture) continue;
          const em = a.grams + (a.truck ? handlingGrams[TRUCK][cls] : 0);
          const startBits = spec.initialBits | boardBits;
          if (!enoughStops(startBits, 0, 1)) continue;
          const boundArr = dep + boundFrom(u, startBits);
          if (em > spec.maxGrams || hopeless(dep0, boundArr, 0, em)) continue;
          const label: TripLabel = {
            dep0,
            tr: 0,
            emBoard: em,
            bits: startBits,
            sea: seaDominance ? sea : 0,
            trip: t,
            board: pos,
            parent: null,
            access: a,
          };
          if (!bag) tripBags[t] = bag = [];
          insertPareto(bag, label, tripDominates);
        }
      }
      const heap = pending[key];
      let readyBag = ready[key];
      if (heap && heap.size && heap.peekKey() <= dep) {
        if (!readyBag) ready[key] = readyBag = [];
        while (heap.size && heap.peekKey() <= dep)
          insertPareto(readyBag, waiting[heap.pop()], waitingDominates);
      }
      if (readyBag) {
        for (const w of readyBag) {
          const l = w.label;
          if (l.tr + 1 > spec.maxTransfers) continue;
          if (seaDominance && sea && l.sea) continue;
          const bits = l.bits | boardBits;
          if (!enoughStops(bits, l.tr + 1, 1)) continue;
          const boundArr = dep + boundFrom(u, bits);
          if (w.em > spec.maxGrams || hopeless(l.dep0, boundArr, l.tr + 1, w.em)) continue;
          const labelSea = l.sea | (seaDominance ? sea : 0);
          if (bag && inBag(bag, pattern, l.dep0, l.tr + 1, w.em, pos, bits, labelSea)) continue;
          const label: TripLabel = {
            dep0: l.dep0,
            tr: l.tr + 1,
            emBoard: w.em,
            bits,
            sea: labelSea,
            trip: t,
            board: pos,
            parent: l,
            access: null,
          };
          if (!bag) tripBags[t] = bag = [];
          insertPareto(bag, label, tripDominates);
        }
      }
    }
    if (!bag || !bag.length || !spec.stopUsable[v]) continue;

    // 2. Unload at v: wait there for onward trips, and finish where the destination is reachable.
    const arr = conns.arr[k];
    if (arr > spec.maxArrival) continue;
    const n = pattern.calls.length;
    const grams = pattern.legGrams;
    const egress = egressAt.get(v);
    const classes = departingClasses[v];
    for (const tl of bag) {
      const em = tl.emBoard + grams[tl.board * n + pos + 1];
      const bits = tl.bits | spec.stopBits[v];
      if (!enoughStops(bits, tl.tr, 0)) continue;
      const boundArr = arr + boundFrom(v, bits);
      if (em > spec.maxGrams || hopeless(tl.dep0, boundArr, tl.tr, em)) continue;
      // Allocated only when something keeps it (a journey or a waiting label): saves GC.
      let label: StopLabel | undefined;
      if (egress && covers(bits, spec.fullBits)) {
        for (const e of egress) {
          const tArr = e.truck ? arr + transferMin[cls][TRUCK] + e.minutes : arr;
          const tEm = e.truck ? em + e.grams + handlingGrams[cls][TRUCK] : em;
          if (tArr > spec.maxArrival || tArr - tl.dep0 > spec.maxLeadMinutes || tEm > spec.maxGrams)
            continue;
          if (targetDominated(tl.dep0, tArr, tl.tr, tEm)) continue;
          label ??= {
            dep0: tl.dep0,
            arr,
            tr: tl.tr,
            em,
            bits,
            sea: tl.sea,
            cls,
            parent: tl,
            alight: pos + 1,
          };
          addTarget({ dep0: tl.dep0, arr: tArr, tr: tl.tr, em: tEm, last: label, egress: e });
        }
      }
      if (tl.tr >= spec.maxTransfers || !classes) continue;
      for (let c = 0; c < SCHEDULED_CLASSES; c++) {
        if (!(classes & (1 << c))) continue;
        const wkey = v * SCHEDULED_CLASSES + c;
        const waitEm = em + handlingGrams[cls][c];
        if (dominatedByReady(ready[wkey], tl.dep0, tl.tr, waitEm, bits, tl.sea)) continue;
        label ??= {
          dep0: tl.dep0,
          arr,
          tr: tl.tr,
          em,
          bits,
          sea: tl.sea,
          cls,
          parent: tl,
          alight: pos + 1,
        };
        let heap = pending[wkey];
        if (!heap) pending[wkey] = heap = new MinHeap(4);
        const readyAt = arr + transferMin[cls][c];
        heap.push(readyAt, waiting.push({ ready: readyAt, em: waitEm, label }) - 1);
      }
    }
  }
  return targets.map(toJourney);
}

interface StaticIndex {
  departingClasses: Uint8Array;
  tripCls: Int8Array;
  patternSea: Uint8Array;
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
  idx = { departingClasses, tripCls, patternSea };
  staticCache.set(net, idx);
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

/**
 * Whether riding from `aBoard` (emissions `aEm` at boarding) is never worse than from `bBoard`
 * (`bEm`) at any call both can still alight at. Leg emissions are not additive over calls (the
 * trade lane depends on both ends), so a single offset does not decide it.
 */
function rideDominates(
  p: Pattern,
  aBoard: number,
  aEm: number,
  bBoard: number,
  bEm: number
): boolean {
  if (aBoard === bBoard) return aEm <= bEm;
  const n = p.calls.length;
  const g = p.legGrams;
  for (let x = Math.max(aBoard, bBoard) + 1; x < n; x++) {
    if (aEm + g[aBoard * n + x] > bEm + g[bBoard * n + x]) return false;
  }
  return true;
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
