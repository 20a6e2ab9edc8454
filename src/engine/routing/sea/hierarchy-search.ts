/**
 * Shortest way between two sets of junctions (each with a cost to get there and a caller's tag)
 * on a contraction hierarchy: an upward search from the starts, an upward search from the ends,
 * and the best junction both reach. Buffers are reused from query to query (no allocation but the
 * answer's chain list).
 */
import { MinHeap } from "../../heap";
import { ContractionHierarchy, unpackArc } from "./contraction";

export interface JunctionCost {
  junction: number;
  cost: number;
}

export interface HierarchyHit {
  cost: number;
  startTag: number;
  endTag: number;
  /** Chains from the start junction to the end junction, in travel order. */
  chains: number[];
}

/** One direction's search state (by junction) and its heap. */
class UpwardSearch {
  readonly dist: Float64Array;
  /** Upward arc that reached the junction (-1 at a start), and the junction it came from. */
  readonly pred: Int32Array;
  readonly from: Int32Array;
  readonly tag: Int32Array;
  readonly stampOf: Int32Array;
  readonly heap = new MinHeap(256);
  stamp = 0;

  constructor(n: number) {
    this.dist = new Float64Array(n);
    this.pred = new Int32Array(n);
    this.from = new Int32Array(n);
    this.tag = new Int32Array(n);
    this.stampOf = new Int32Array(n);
  }

  start(seeds: ReadonlyArray<JunctionCost>): void {
    this.stamp++;
    this.heap.clear();
    for (let i = 0; i < seeds.length; i++) {
      const j = seeds[i].junction;
      const cost = seeds[i].cost;
      if (this.stampOf[j] === this.stamp && this.dist[j] <= cost) continue;
      this.stampOf[j] = this.stamp;
      this.dist[j] = cost;
      this.pred[j] = -1;
      this.tag[j] = i;
      this.heap.push(cost, j);
    }
  }

  reached(j: number): boolean {
    return this.stampOf[j] === this.stamp;
  }

  /**
   * Settles the next junction and relaxes its upward arcs; returns the junction, or -1 for a
   * stale heap entry.
   */
  settleNext(ch: ContractionHierarchy): number {
    const heap = this.heap;
    const key = heap.peekKey();
    const v = heap.pop();
    const { dist, pred, from, tag, stampOf } = this;
    if (key > dist[v]) return -1;
    const stamp = this.stamp;
    const { upOffset, upHead, upLength } = ch;
    // Stall on demand: a higher junction already reached proves v's key is not its distance, so
    // nothing above v is best reached through it (the graph is undirected: v's upward arcs).
    for (let k = upOffset[v]; k < upOffset[v + 1]; k++) {
      const w = upHead[k];
      if (stampOf[w] === stamp && dist[w] + upLength[k] < key) return v;
    }
    for (let k = upOffset[v]; k < upOffset[v + 1]; k++) {
      const w = upHead[k];
      const nd = key + upLength[k];
      if (stampOf[w] === stamp && dist[w] <= nd) continue;
      stampOf[w] = stamp;
      dist[w] = nd;
      pred[w] = k;
      from[w] = v;
      tag[w] = tag[v];
      heap.push(nd, w);
    }
    return v;
  }
}

export class HierarchySearch {
  private readonly forward: UpwardSearch;
  private readonly backward: UpwardSearch;
  private readonly pathArcs: number[] = [];

  constructor(junctionCount: number) {
    this.forward = new UpwardSearch(junctionCount);
    this.backward = new UpwardSearch(junctionCount);
  }

  /**
   * Starts and ends (a junction and the cost to get there; the tag of a hit is the index in these
   * lists); `bestSoFar` is a total already known (a route along one chain): only a shorter one is
   * returned. The two searches take turns by smallest key and stop once neither can beat the best
   * total found; each junction settled by one and reached by the other is a candidate meeting.
   */
  run(
    ch: ContractionHierarchy,
    starts: ReadonlyArray<JunctionCost>,
    ends: ReadonlyArray<JunctionCost>,
    bestSoFar: number
  ): HierarchyHit | null {
    const f = this.forward;
    const b = this.backward;
    f.start(starts);
    b.start(ends);
    let best = bestSoFar;
    let meet = -1;
    for (;;) {
      // Heap keys read inline (a helper returning a double would box it on this hot loop).
      const fk = f.heap.size > 0 ? f.heap.peekKey() : Infinity;
      const bk = b.heap.size > 0 ? b.heap.peekKey() : Infinity;
      if (fk >= best && bk >= best) break;
      const forwardTurn = fk <= bk;
      const v = (forwardTurn ? f : b).settleNext(ch);
      if (v < 0 || !(forwardTurn ? b : f).reached(v)) continue;
      const total = f.dist[v] + b.dist[v];
      if (total < best) {
        best = total;
        meet = v;
      }
    }
    if (meet < 0) return null;
    return {
      cost: best,
      startTag: f.tag[meet],
      endTag: b.tag[meet],
      chains: this.unpack(ch, meet),
    };
  }

  /** Chains from the forward search's start up to `meet`, then down to the backward search's end. */
  private unpack(ch: ContractionHierarchy, meet: number): number[] {
    const arcs = this.pathArcs;
    arcs.length = 0;
    const f = this.forward;
    for (let v = meet; f.pred[v] >= 0; v = f.from[v]) arcs.push(f.pred[v]);
    const chains: number[] = [];
    for (let i = arcs.length - 1; i >= 0; i--) unpackArc(ch, arcs[i], true, chains);
    const b = this.backward;
    for (let v = meet; b.pred[v] >= 0; v = b.from[v]) unpackArc(ch, b.pred[v], false, chains);
    return chains;
  }
}
