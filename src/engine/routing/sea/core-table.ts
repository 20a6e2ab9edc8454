/**
 * The distance table of the chain graph's core. The core is what is left of the junction graph
 * after peeling off its trees and keeping the junctions of degree ≥ 3: any route leaves its start's
 * non-core surroundings through a core junction, so all-pairs distances among core junctions
 * (one Dijkstra per core junction over "core edges" = shortest core-free paths between them) and
 * a small local search at each end answer every query for the table's closed passages.
 */
import { ChainGraph } from "./chains";
import { JunctionSearch } from "./junction-search";

export interface CoreTable {
  closedMask: number;
  /** 1 for core junctions (by junction index). */
  isCore: Uint8Array;
  coreOf: Int32Array;
  size: number;
  /** Metres between core junctions, [a * size + b]; Infinity when unreachable. */
  dist: Float64Array;
  /** First core edge (index into edgeTo) of a shortest path from a to b, [a * size + b]; -1 when none. */
  firstEdge: Int32Array;
  /** Core edges (CSR by core index): neighbour core index, metres, and the chains in travel order. */
  edgeOffset: Int32Array;
  edgeTo: Int32Array;
  edgeLength: Float64Array;
  edgeChainOffset: Int32Array;
  edgeChains: Int32Array;
  buildMs: number;
  edgesMs: number;
}

/** Core junctions: peel degree ≤ 1 junctions repeatedly, keep those of degree ≥ 3. */
export function selectCore(cg: ChainGraph): Uint8Array {
  const J = cg.junctionCount;
  const neighbours: Array<Set<number>> = Array.from({ length: J }, () => new Set<number>());
  for (let j = 0; j < J; j++) {
    for (let i = cg.adjOffset[j]; i < cg.adjOffset[j + 1]; i++)
      neighbours[j].add(cg.adjJunction[i]);
  }
  const alive = new Uint8Array(J).fill(1);
  const degree = (j: number): number => {
    let d = 0;
    for (const k of neighbours[j]) d += alive[k];
    return d;
  };
  const queue: number[] = [];
  for (let j = 0; j < J; j++) if (degree(j) <= 1) queue.push(j);
  while (queue.length) {
    const j = queue.pop()!;
    if (!alive[j]) continue;
    alive[j] = 0;
    for (const k of neighbours[j]) if (alive[k] && degree(k) <= 1) queue.push(k);
  }
  const core = new Uint8Array(J);
  let count = 0;
  for (let j = 0; j < J; j++) {
    if (alive[j] && degree(j) >= 3) {
      core[j] = 1;
      count++;
    }
  }
  // A network without such junctions (a ring, a path): every junction is core.
  if (count === 0) core.fill(1);
  return core;
}

export interface CoreTableArrays {
  dist: Float64Array;
  firstEdge: Int32Array;
}

/**
 * Builds the table for one set of closed passages. The all-pairs arrays may be given from an
 * earlier build of the same graph and closed set (a cache): then only the core edges are rebuilt.
 */
export function buildCoreTable(
  cg: ChainGraph,
  isCore: Uint8Array,
  closedMask: number,
  cached?: CoreTableArrays
): CoreTable {
  const t0 = performance.now();
  const J = cg.junctionCount;
  const coreOf = new Int32Array(J).fill(-1);
  const cores: number[] = [];
  for (let j = 0; j < J; j++) if (isCore[j]) coreOf[j] = cores.push(j) - 1;
  const C = cores.length;

  // Core edges: from each core junction, a search that does not pass through other core junctions.
  const search = new JunctionSearch(cg);
  const edgeOffset = new Int32Array(C + 1);
  const to: number[] = [];
  const len: number[] = [];
  const chainOffset: number[] = [0];
  const chains: number[] = [];
  for (let a = 0; a < C; a++) {
    search.run([{ junction: cores[a], cost: 0, tag: 0 }], { closedMask, stopAt: isCore });
    for (const j of search.settledList) {
      if (!isCore[j] || j === cores[a]) continue;
      to.push(coreOf[j]);
      len.push(search.dist[j]);
      chains.push(...search.chainsTo(j));
      chainOffset.push(chains.length);
    }
    edgeOffset[a + 1] = to.length;
  }
  const edgeTo = Int32Array.from(to);
  const edgeLength = Float64Array.from(len);

  const tEdges = performance.now();
  // All pairs over the core edges.
  let dist: Float64Array;
  let firstEdge: Int32Array;
  if (cached && cached.dist.length === C * C && cached.firstEdge.length === C * C) {
    dist = cached.dist;
    firstEdge = cached.firstEdge;
  } else {
    dist = new Float64Array(C * C).fill(Infinity);
    firstEdge = new Int32Array(C * C).fill(-1);
    const scratch = new DijkstraScratch(C);
    for (let s = 0; s < C; s++)
      rowDijkstra(s, C, edgeOffset, edgeTo, edgeLength, dist, firstEdge, scratch);
  }
  return {
    closedMask,
    isCore,
    coreOf,
    size: C,
    dist,
    firstEdge,
    edgeOffset,
    edgeTo,
    edgeLength,
    edgeChainOffset: Int32Array.from(chainOffset),
    edgeChains: Int32Array.from(chains),
    buildMs: performance.now() - t0,
    edgesMs: tEdges - t0,
  };
}

/** Chains of a shortest path between two core junctions (core indices), hop by hop from the first-edge table. */
export function coreChains(t: CoreTable, from: number, to: number): number[] {
  const out: number[] = [];
  let a = from;
  for (let hops = 0; a !== to && hops <= t.size; hops++) {
    const e = t.firstEdge[a * t.size + to];
    if (e < 0) break;
    for (let k = t.edgeChainOffset[e]; k < t.edgeChainOffset[e + 1]; k++) out.push(t.edgeChains[k]);
    a = t.edgeTo[e];
  }
  return out;
}

/** Heap scratch for rowDijkstra: an indexed binary heap (each vertex at most once, decrease-key). */
class DijkstraScratch {
  readonly heap: Int32Array;
  readonly pos: Int32Array;
  constructor(n: number) {
    this.heap = new Int32Array(n);
    this.pos = new Int32Array(n).fill(-1);
  }
}

/** One table row: Dijkstra from s, writing dist[s * n + v]. Plain loops on typed arrays (hot path of the build). */
function rowDijkstra(
  s: number,
  n: number,
  offset: Int32Array,
  to: Int32Array,
  length: Float64Array,
  dist: Float64Array,
  firstEdge: Int32Array,
  scratch: DijkstraScratch
): void {
  const row = s * n;
  const heap = scratch.heap;
  const pos = scratch.pos;
  let size = 0;
  dist[row + s] = 0;
  heap[size] = s;
  pos[s] = size++;
  while (size > 0) {
    const v = heap[0];
    pos[v] = -2; // settled
    const last = heap[--size];
    if (size > 0) {
      // Sift the last element down from the root.
      const key = dist[row + last];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= size) break;
        if (c + 1 < size && dist[row + heap[c + 1]] < dist[row + heap[c]]) c++;
        if (dist[row + heap[c]] >= key) break;
        heap[i] = heap[c];
        pos[heap[i]] = i;
        i = c;
      }
      heap[i] = last;
      pos[last] = i;
    }
    const dv = dist[row + v];
    const viaFirst = v === s ? -1 : firstEdge[row + v];
    for (let k = offset[v]; k < offset[v + 1]; k++) {
      const w = to[k];
      const p = pos[w];
      if (p === -2) continue;
      const nd = dv + length[k];
      if (nd >= dist[row + w]) continue;
      dist[row + w] = nd;
      firstEdge[row + w] = viaFirst < 0 ? k : viaFirst;
      let i = p;
      if (i < 0) {
        i = size++;
      }
      // Sift up.
      while (i > 0) {
        const parent = (i - 1) >> 1;
        const pv = heap[parent];
        if (dist[row + pv] <= nd) break;
        heap[i] = pv;
        pos[pv] = i;
        i = parent;
      }
      heap[i] = w;
      pos[w] = i;
    }
  }
  // Reset for the next row: every reached vertex was settled (-2).
  pos.fill(-1);
}
