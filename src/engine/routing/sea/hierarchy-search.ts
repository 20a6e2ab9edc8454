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

/** One direction's search state (by junction). */
class UpwardSearch {
  readonly dist: Float64Array;
  /** Upward arc that reached the junction (-1 at a start), and the junction it came from. */
  readonly pred: Int32Array;
  readonly from: Int32Array;
  readonly tag: Int32Array;
  readonly stampOf: Int32Array;
  stamp = 0;

  constructor(n: number) {
    this.dist = new Float64Array(n);
    this.pred = new Int32Array(n);
    this.from = new Int32Array(n);
    this.tag = new Int32Array(n);
    this.stampOf = new Int32Array(n);
  }

  seed(heap: MinHeap, junction: number, cost: number, tag: number): void {
    if (this.stampOf[junction] === this.stamp && this.dist[junction] <= cost) return;
    this.stampOf[junction] = this.stamp;
    this.dist[junction] = cost;
    this.pred[junction] = -1;
    this.tag[junction] = tag;
    heap.push(cost, junction);
  }

  reached(j: number): boolean {
    return this.stampOf[j] === this.stamp;
  }
}

export class HierarchySearch {
  private readonly forward: UpwardSearch;
  private readonly backward: UpwardSearch;
  private readonly heap = new MinHeap(256);
  private readonly pathArcs: number[] = [];

  constructor(junctionCount: number) {
    this.forward = new UpwardSearch(junctionCount);
    this.backward = new UpwardSearch(junctionCount);
  }

  /**
   * Starts and ends (a junction and the cost to get there; the tag of a hit is the index in these
   * lists); `bestSoFar` is a total already known (a route along one chain): only a shorter one is
   * returned.
   */
  run(
    ch: ContractionHierarchy,
    starts: ReadonlyArray<JunctionCost>,
    ends: ReadonlyArray<JunctionCost>,
    bestSoFar: number
  ): HierarchyHit | null {
    const f = this.forward;
    const b = this.backward;
    const heap = this.heap;
    f.stamp++;
    b.stamp++;
    heap.clear();
    for (let i = 0; i < starts.length; i++) f.seed(heap, starts[i].junction, starts[i].cost, i);
    this.expand(ch, f, bestSoFar, null);
    heap.clear();
    for (let i = 0; i < ends.length; i++) b.seed(heap, ends[i].junction, ends[i].cost, i);
    const meet = this.expand(ch, b, bestSoFar, f);
    if (meet.junction < 0) return null;
    return {
      cost: meet.cost,
      startTag: f.tag[meet.junction],
      endTag: b.tag[meet.junction],
      chains: this.unpack(ch, meet.junction),
    };
  }

  /**
   * Dijkstra over upward arcs until the next key cannot beat `bound`. With `other` (the search of
   * the opposite direction, already run), returns the best junction both reach and its total.
   */
  private expand(
    ch: ContractionHierarchy,
    s: UpwardSearch,
    bound: number,
    other: UpwardSearch | null
  ): { junction: number; cost: number } {
    const heap = this.heap;
    const { dist, pred, from, tag, stampOf } = s;
    const stamp = s.stamp;
    const { upOffset, upHead, upLength } = ch;
    let best = bound;
    let meet = -1;
    while (heap.size > 0) {
      const key = heap.peekKey();
      if (key >= best) break;
      const v = heap.pop();
      if (key > dist[v]) continue; // stale entry
      if (other && other.reached(v)) {
        const total = key + other.dist[v];
        if (total < best) {
          best = total;
          meet = v;
        }
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
    }
    return { junction: meet, cost: best };
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
