/**
 * The cheapest path over a graph in compressed sparse rows (node u's edges are offsets[u] ..
 * offsets[u+1]-1 of targets/weights), from several entries to several exits, each with its own
 * access cost: the one Dijkstra the shipped road and rail networks share. Scratch arrays are kept
 * between searches, so a search allocates only its answer.
 */
import { MinHeap } from "../heap";

/** A node an end joins, and what joining it costs. */
export interface NodeAccess {
  node: number;
  meters: number;
}

export interface CsrPath {
  /** Access legs included. */
  meters: number;
  /** Entry node first, exit node last. */
  nodes: number[];
  /** What leaving at the exit node costs (its exit's access). */
  exitMeters: number;
}

export class CsrSearch {
  private readonly heap = new MinHeap(256);
  private readonly dist: Float64Array;
  private readonly prev: Int32Array;

  constructor(
    private readonly offsets: Int32Array,
    private readonly targets: Int32Array,
    private readonly weights: Float64Array
  ) {
    const n = offsets.length - 1;
    this.dist = new Float64Array(n);
    this.prev = new Int32Array(n);
  }

  /** Cheapest way from any entry to any exit, or null when they are not joined. */
  cheapest(entries: readonly NodeAccess[], exits: readonly NodeAccess[]): CsrPath | null {
    if (!entries.length || !exits.length) return null;
    const exitCost = new Map<number, number>();
    for (const e of exits) {
      const known = exitCost.get(e.node);
      if (known === undefined || e.meters < known) exitCost.set(e.node, e.meters);
    }
    const { dist, prev, heap } = this;
    dist.fill(Infinity);
    prev.fill(-1);
    heap.clear();
    for (const e of entries) {
      if (e.meters < dist[e.node]) {
        dist[e.node] = e.meters;
        heap.push(e.meters, e.node);
      }
    }
    let best = Infinity;
    let bestExit = -1;
    while (heap.size > 0) {
      const d = heap.peekKey();
      const u = heap.pop();
      if (d > dist[u]) continue; // stale entry
      if (d >= best) break;
      const leave = exitCost.get(u);
      if (leave !== undefined && d + leave < best) {
        best = d + leave;
        bestExit = u;
      }
      for (let k = this.offsets[u]; k < this.offsets[u + 1]; k++) {
        const v = this.targets[k];
        const nd = d + this.weights[k];
        if (nd < dist[v]) {
          dist[v] = nd;
          prev[v] = u;
          heap.push(nd, v);
        }
      }
    }
    if (bestExit < 0) return null;
    const nodes: number[] = [];
    for (let v = bestExit; v >= 0; v = prev[v]) nodes.unshift(v);
    return { meters: best, nodes, exitMeters: exitCost.get(bestExit) as number };
  }
}
