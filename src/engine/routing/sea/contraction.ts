/**
 * A contraction hierarchy over the chain graph's junctions for one set of closed passages: every
 * junction gets a rank; contracting them from the lowest up adds a shortcut u–w wherever the only
 * shortest way between two neighbours u and w of the contracted junction runs through it. A query
 * then searches only "upward" (towards higher ranks) from both ends (see hierarchy-search.ts),
 * a few dozen junctions each instead of a table of all pairs.
 *
 * Stored as typed arrays: the upward arcs of each junction (CSR), their metres, and for each arc
 * either the chain it stands for or the two arcs it shortcuts (both stored at the junction that
 * was contracted, the lower end of each), so a path unpacks back into chains.
 */
import { MinHeap } from "../../heap";
import { ChainGraph } from "./chains";

export interface ContractionHierarchy {
  closedMask: number;
  junctionCount: number;
  /** Contraction order of each junction (0 = first contracted). */
  rank: Int32Array;
  /** CSR by junction: arcs to higher-ranked junctions. */
  upOffset: Int32Array;
  upHead: Int32Array;
  upLength: Float64Array;
  /** The chain an arc stands for, or -1 for a shortcut. */
  upChain: Int32Array;
  /**
   * Shortcut halves: for a shortcut tail→head via m, the arcs m→tail and m→head (both stored at m,
   * which is ranked below both ends); -1 for a chain arc.
   */
  upToTail: Int32Array;
  upToHead: Int32Array;
  buildMs: number;
}

/**
 * Witness searches stop after settling this many junctions (a missed witness only adds a needless
 * shortcut, never a wrong one): few when estimating a junction's priority, more when contracting.
 */
const ESTIMATE_SETTLE_LIMIT = 5;
const CONTRACT_SETTLE_LIMIT = 1000;

/**
 * The graph while it is being contracted: arcs in parallel lists (ends, metres, chain or shortcut
 * halves) and, per uncontracted junction, its live neighbours and the arc to each (the shortest
 * one per pair). Plain arrays: the witness searches walk them millions of times.
 */
class WorkGraph {
  readonly arcA: number[] = [];
  readonly arcB: number[] = [];
  readonly arcLength: number[] = [];
  readonly arcChain: number[] = [];
  /** Shortcut halves (arc ids), -1 for a chain. */
  readonly arcToA: number[] = [];
  readonly arcToB: number[] = [];
  readonly nbr: number[][];
  readonly nbrArc: number[][];

  constructor(n: number) {
    this.nbr = Array.from({ length: n }, () => []);
    this.nbrArc = Array.from({ length: n }, () => []);
  }

  /** Adds the arc a–b unless a live one at least as short is there (it then replaces the longer one). */
  link(a: number, b: number, length: number, chain: number, toA: number, toB: number): void {
    const i = this.nbr[a].indexOf(b);
    if (i >= 0 && this.arcLength[this.nbrArc[a][i]] <= length) return;
    const id = this.arcA.length;
    this.arcA.push(a);
    this.arcB.push(b);
    this.arcLength.push(length);
    this.arcChain.push(chain);
    this.arcToA.push(toA);
    this.arcToB.push(toB);
    this.setArc(a, b, id);
    this.setArc(b, a, id);
  }

  private setArc(a: number, b: number, id: number): void {
    const i = this.nbr[a].indexOf(b);
    if (i >= 0) this.nbrArc[a][i] = id;
    else {
      this.nbr[a].push(b);
      this.nbrArc[a].push(id);
    }
  }

  /** Drops b from a's neighbours. */
  unlink(a: number, b: number): void {
    const nbr = this.nbr[a];
    const arc = this.nbrArc[a];
    const i = nbr.indexOf(b);
    const last = nbr.length - 1;
    nbr[i] = nbr[last];
    arc[i] = arc[last];
    nbr.pop();
    arc.pop();
  }
}

export function buildContractionHierarchy(
  cg: ChainGraph,
  closedMask: number
): ContractionHierarchy {
  const t0 = performance.now();
  const J = cg.junctionCount;
  const g = new WorkGraph(J);
  // Open chains between two distinct junctions (self-loops and dead ends never shorten a path).
  for (let c = 0; c < cg.chainCount; c++) {
    const a = cg.chainA[c];
    const b = cg.chainB[c];
    if (a < 0 || b < 0 || a === b || (cg.chainMask[c] & closedMask) !== 0) continue;
    g.link(a, b, cg.chainLength[c], c, -1, -1);
  }

  const contracted = new Uint8Array(J);
  const deletedNeighbours = new Int32Array(J);
  const witness = new WitnessSearch(J);
  const shortcuts: number[] = [];

  /** Shortcuts contracting v needs now, into `shortcuts` as [u, w, length, arc v–u, arc v–w] each. */
  const findShortcuts = (v: number, settleLimit: number): number => {
    shortcuts.length = 0;
    const nbr = g.nbr[v];
    const nbrArc = g.nbrArc[v];
    for (let i = 0; i + 1 < nbr.length; i++) {
      const au = nbrArc[i];
      let maxLength = 0;
      for (let k = i + 1; k < nbr.length; k++)
        maxLength = Math.max(maxLength, g.arcLength[au] + g.arcLength[nbrArc[k]]);
      witness.run(g, nbr[i], v, maxLength, settleLimit, nbr, i + 1);
      for (let k = i + 1; k < nbr.length; k++) {
        const via = g.arcLength[au] + g.arcLength[nbrArc[k]];
        if (witness.distanceTo(nbr[k]) <= via) continue;
        shortcuts.push(nbr[i], nbr[k], via, au, nbrArc[k]);
      }
    }
    return shortcuts.length / 5;
  };
  const priority = (v: number): number =>
    findShortcuts(v, ESTIMATE_SETTLE_LIMIT) - g.nbr[v].length + deletedNeighbours[v];

  const queue = new MinHeap(J);
  for (let v = 0; v < J; v++) queue.push(priority(v), v);
  const rank = new Int32Array(J).fill(-1);
  /** Arc ids that became upward arcs, in contraction order, and their tails. */
  const upArcs: number[] = [];
  const upTail: number[] = [];
  const touched: number[] = [];
  let next = 0;
  while (queue.size > 0) {
    const v = queue.pop();
    if (contracted[v]) continue;
    // Lazy update: a junction whose priority grew since it was queued goes back in.
    const p = priority(v);
    if (queue.size > 0 && p > queue.peekKey()) {
      queue.push(p, v);
      continue;
    }
    findShortcuts(v, CONTRACT_SETTLE_LIMIT);
    rank[v] = next++;
    contracted[v] = 1;
    touched.length = 0;
    for (let i = 0; i < g.nbr[v].length; i++) {
      const u = g.nbr[v][i];
      upArcs.push(g.nbrArc[v][i]);
      upTail.push(v);
      g.unlink(u, v);
      deletedNeighbours[u]++;
      touched.push(u);
    }
    for (let s = 0; s < shortcuts.length; s += 5)
      g.link(
        shortcuts[s],
        shortcuts[s + 1],
        shortcuts[s + 2],
        -1,
        shortcuts[s + 3],
        shortcuts[s + 4]
      );
    g.nbr[v].length = 0;
    g.nbrArc[v].length = 0;
    for (const u of touched) queue.push(priority(u), u);
  }

  // CSR of the upward arcs by tail; work arc id → CSR index for the shortcut halves.
  const M = upArcs.length;
  const upOffset = new Int32Array(J + 1);
  for (const t of upTail) upOffset[t + 1]++;
  for (let j = 0; j < J; j++) upOffset[j + 1] += upOffset[j];
  const fill = upOffset.slice(0, J);
  const indexOf = new Int32Array(g.arcA.length).fill(-1);
  for (let i = 0; i < M; i++) indexOf[upArcs[i]] = fill[upTail[i]]++;
  const upHead = new Int32Array(M);
  const upLength = new Float64Array(M);
  const upChain = new Int32Array(M);
  const upToTail = new Int32Array(M);
  const upToHead = new Int32Array(M);
  for (let i = 0; i < M; i++) {
    const arc = upArcs[i];
    const k = indexOf[arc];
    const tailIsA = g.arcA[arc] === upTail[i];
    upHead[k] = tailIsA ? g.arcB[arc] : g.arcA[arc];
    upLength[k] = g.arcLength[arc];
    upChain[k] = g.arcChain[arc];
    // Shortcut a–b via m from halves m–a (toA) and m–b (toB): oriented from this arc's tail.
    const isShortcut = g.arcChain[arc] < 0;
    upToTail[k] = isShortcut ? indexOf[tailIsA ? g.arcToA[arc] : g.arcToB[arc]] : -1;
    upToHead[k] = isShortcut ? indexOf[tailIsA ? g.arcToB[arc] : g.arcToA[arc]] : -1;
  }
  return {
    closedMask,
    junctionCount: J,
    rank,
    upOffset,
    upHead,
    upLength,
    upChain,
    upToTail,
    upToHead,
    buildMs: performance.now() - t0,
  };
}

/**
 * Appends to `out` the chains of upward arc `arc`, in travel order: from its tail to its head
 * (`upward`) or back down.
 */
export function unpackArc(
  ch: ContractionHierarchy,
  arc: number,
  upward: boolean,
  out: number[]
): void {
  const chain = ch.upChain[arc];
  if (chain >= 0) {
    out.push(chain);
    return;
  }
  // tail → m is arc m→tail walked down; m → head is arc m→head walked up.
  if (upward) {
    unpackArc(ch, ch.upToTail[arc], false, out);
    unpackArc(ch, ch.upToHead[arc], true, out);
  } else {
    unpackArc(ch, ch.upToHead[arc], false, out);
    unpackArc(ch, ch.upToTail[arc], true, out);
  }
}

/** Dijkstra among uncontracted junctions from one neighbour, avoiding the junction being contracted. */
class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly stampOf: Int32Array;
  private readonly targetStamp: Int32Array;
  private readonly heap: MinHeap;
  private stamp = 0;

  constructor(n: number) {
    this.dist = new Float64Array(n);
    this.stampOf = new Int32Array(n);
    this.targetStamp = new Int32Array(n);
    this.heap = new MinHeap(64);
  }

  /**
   * From `source`, not through `avoid`, up to `maxLength` metres; stops once the targets
   * (targets[firstTarget..]) are all settled.
   */
  run(
    g: WorkGraph,
    source: number,
    avoid: number,
    maxLength: number,
    settleLimit: number,
    targets: ReadonlyArray<number>,
    firstTarget: number
  ): void {
    const stamp = ++this.stamp;
    const { dist, stampOf, targetStamp, heap } = this;
    let left = 0;
    for (let k = firstTarget; k < targets.length; k++) {
      targetStamp[targets[k]] = stamp;
      left++;
    }
    heap.clear();
    dist[source] = 0;
    stampOf[source] = stamp;
    heap.push(0, source);
    let settled = 0;
    while (heap.size > 0 && settled < settleLimit) {
      const key = heap.peekKey();
      const x = heap.pop();
      if (key > dist[x]) continue;
      if (key > maxLength) break;
      settled++;
      if (targetStamp[x] === stamp && --left === 0) break;
      const nbr = g.nbr[x];
      const nbrArc = g.nbrArc[x];
      for (let i = 0; i < nbr.length; i++) {
        const y = nbr[i];
        if (y === avoid) continue;
        const nd = key + g.arcLength[nbrArc[i]];
        if (stampOf[y] === stamp && dist[y] <= nd) continue;
        stampOf[y] = stamp;
        dist[y] = nd;
        heap.push(nd, y);
      }
    }
  }

  distanceTo(v: number): number {
    return this.stampOf[v] === this.stamp ? this.dist[v] : Infinity;
  }
}
