/**
 * Shortest way between two sets of junctions (each with a cost to get there and a caller's tag)
 * on a contraction hierarchy, in two steps: the upward search space of each end (every junction
 * a plain Dijkstra reaches going only up the ranks), then the junction of both spaces with the
 * smallest sum. A lane sheet names the same ports again and again, so the router keeps each end's
 * space and a repeated end costs only the meeting step (bucket-style many-to-many).
 */
import { MinHeap } from "../../heap";
import { doubled } from "../../typed-arrays";
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

/**
 * One end's upward search space, in settling order: the junctions settled with their exact
 * upward distance (stalled ones are left out: their distance is not their own), the upward arc
 * that reached each (-1 at a seed) and the position in this space of the junction it came from,
 * and the seed's tag.
 */
export interface UpwardSpace {
  junction: Int32Array;
  dist: Float64Array;
  arc: Int32Array;
  parent: Int32Array;
  tag: Int32Array;
}

export class HierarchySearch {
  private readonly dist: Float64Array;
  private readonly arcTo: Int32Array;
  private readonly fromJunction: Int32Array;
  private readonly tagOf: Int32Array;
  /** Position of a settled junction in the space being built, or in space a while meeting. */
  private readonly position: Int32Array;
  private readonly stampOf: Int32Array;
  private stamp = 0;
  private readonly heap = new MinHeap(256);
  private readonly pathArcs: number[] = [];
  /** The junctions settled by the space being built, in order (reused: no array per end). */
  private settled = new Int32Array(256);

  constructor(junctionCount: number) {
    this.dist = new Float64Array(junctionCount);
    this.arcTo = new Int32Array(junctionCount);
    this.fromJunction = new Int32Array(junctionCount);
    this.tagOf = new Int32Array(junctionCount);
    this.position = new Int32Array(junctionCount);
    this.stampOf = new Int32Array(junctionCount);
  }

  /** Starts and ends (the tag of a hit is the index in these lists); see meet for `bestSoFar`. */
  run(
    ch: ContractionHierarchy,
    starts: ReadonlyArray<JunctionCost>,
    ends: ReadonlyArray<JunctionCost>,
    bestSoFar: number
  ): HierarchyHit | null {
    return this.meet(ch, this.space(ch, starts), this.space(ch, ends), bestSoFar);
  }

  /** The upward search space from the seeds (the tag of a seed is its index in the list). */
  space(ch: ContractionHierarchy, seeds: ReadonlyArray<JunctionCost>): UpwardSpace {
    const stamp = ++this.stamp;
    const { dist, arcTo, fromJunction, tagOf, position, stampOf, heap } = this;
    const { upOffset, upHead, upLength } = ch;
    heap.clear();
    for (let i = 0; i < seeds.length; i++) {
      const j = seeds[i].junction;
      const cost = seeds[i].cost;
      if (stampOf[j] === stamp && dist[j] <= cost) continue;
      stampOf[j] = stamp;
      dist[j] = cost;
      arcTo[j] = -1;
      tagOf[j] = i;
      heap.push(cost, j);
    }
    let settled = this.settled;
    let n = 0;
    while (heap.size > 0) {
      const key = heap.peekKey();
      const v = heap.pop();
      if (key > dist[v]) continue;
      // Stall on demand: a higher junction already reached proves v's key is not its distance, so
      // nothing above v is best reached through it (the graph is undirected: v's upward arcs).
      let stalled = false;
      for (let k = upOffset[v]; k < upOffset[v + 1] && !stalled; k++) {
        const w = upHead[k];
        stalled = stampOf[w] === stamp && dist[w] + upLength[k] < key;
      }
      if (stalled) continue;
      if (n === settled.length) settled = this.settled = doubled(settled);
      position[v] = n;
      settled[n++] = v;
      for (let k = upOffset[v]; k < upOffset[v + 1]; k++) {
        const w = upHead[k];
        const nd = key + upLength[k];
        if (stampOf[w] === stamp && dist[w] <= nd) continue;
        stampOf[w] = stamp;
        dist[w] = nd;
        arcTo[w] = k;
        fromJunction[w] = v;
        tagOf[w] = tagOf[v];
        heap.push(nd, w);
      }
    }
    const out: UpwardSpace = {
      junction: new Int32Array(n),
      dist: new Float64Array(n),
      arc: new Int32Array(n),
      parent: new Int32Array(n),
      tag: new Int32Array(n),
    };
    for (let i = 0; i < n; i++) {
      const v = settled[i];
      out.junction[i] = v;
      out.dist[i] = dist[v];
      out.arc[i] = arcTo[v];
      out.parent[i] = arcTo[v] < 0 ? -1 : position[fromJunction[v]];
      out.tag[i] = tagOf[v];
    }
    return out;
  }

  /**
   * The shortest way from space a's seeds to space b's, through the junction of both with the
   * smallest sum; null when there is none shorter than `bestSoFar` (a total already known, e.g. a
   * route along one chain).
   */
  meet(
    ch: ContractionHierarchy,
    a: UpwardSpace,
    b: UpwardSpace,
    bestSoFar: number
  ): HierarchyHit | null {
    const stamp = ++this.stamp;
    const { position, stampOf } = this;
    for (let i = 0; i < a.junction.length; i++) {
      stampOf[a.junction[i]] = stamp;
      position[a.junction[i]] = i;
    }
    let best = bestSoFar;
    let atA = -1;
    let atB = -1;
    for (let i = 0; i < b.junction.length; i++) {
      const v = b.junction[i];
      if (stampOf[v] !== stamp) continue;
      const total = a.dist[position[v]] + b.dist[i];
      if (total < best) {
        best = total;
        atA = position[v];
        atB = i;
      }
    }
    if (atA < 0) return null;
    return {
      cost: best,
      startTag: a.tag[atA],
      endTag: b.tag[atB],
      chains: this.unpack(ch, a, atA, b, atB),
    };
  }

  /** Chains from space a's seed up to the meeting junction, then down to space b's seed. */
  private unpack(
    ch: ContractionHierarchy,
    a: UpwardSpace,
    atA: number,
    b: UpwardSpace,
    atB: number
  ): number[] {
    const arcs = this.pathArcs;
    arcs.length = 0;
    for (let i = atA; a.arc[i] >= 0; i = a.parent[i]) arcs.push(a.arc[i]);
    const chains: number[] = [];
    for (let i = arcs.length - 1; i >= 0; i--) unpackArc(ch, arcs[i], true, chains);
    for (let i = atB; b.arc[i] >= 0; i = b.parent[i]) unpackArc(ch, b.arc[i], false, chains);
    return chains;
  }
}
