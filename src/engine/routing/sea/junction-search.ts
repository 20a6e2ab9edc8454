/**
 * Multi-source Dijkstra / A* on the chain graph's junctions: the search for closed-passage sets
 * without a contraction hierarchy, the reference the hierarchies are tested against, and the
 * shortcut generator's distances.
 */
import { ChainGraph } from "./chains";
import { MinHeap } from "../../heap";

export interface JunctionStart {
  junction: number;
  cost: number;
  /** Caller's tag (e.g. which snap candidate), copied to every junction reached from it. */
  tag: number;
}

export interface JunctionSearchOptions {
  closedMask: number;
  /** Cost to finish from a junction (the destination side); the search stops once no better total can come. */
  finish?: Map<number, { cost: number; tag: number }>;
  /** Admissible lower bound of the remaining distance from a junction (A*). */
  bound?: (junction: number) => number;
  /** Total cost already known (e.g. a direct same-chain route): prunes the search. */
  bestSoFar?: number;
}

export interface FinishHit {
  cost: number;
  junction: number;
  startTag: number;
  finishTag: number;
}

export class JunctionSearch {
  readonly dist: Float64Array;
  readonly predJunction: Int32Array;
  readonly predChain: Int32Array;
  readonly tag: Int32Array;
  private readonly reachedStamp: Int32Array;
  private readonly settledStamp: Int32Array;
  private readonly heap: MinHeap;
  private stamp = 0;

  constructor(readonly cg: ChainGraph) {
    const J = cg.junctionCount;
    this.dist = new Float64Array(J);
    this.predJunction = new Int32Array(J);
    this.predChain = new Int32Array(J);
    this.tag = new Int32Array(J);
    this.reachedStamp = new Int32Array(J);
    this.settledStamp = new Int32Array(J);
    this.heap = new MinHeap(256);
  }

  reached(j: number): boolean {
    return this.reachedStamp[j] === this.stamp;
  }

  settled(j: number): boolean {
    return this.settledStamp[j] === this.stamp;
  }

  run(starts: ReadonlyArray<JunctionStart>, options: JunctionSearchOptions): FinishHit | null {
    const cg = this.cg;
    const stamp = ++this.stamp;
    const { dist, predJunction, predChain, tag, reachedStamp, settledStamp, heap } = this;
    const { closedMask, finish, bound } = options;
    heap.clear();
    let best: FinishHit | null = null;
    let bestCost = options.bestSoFar ?? Infinity;
    for (const s of starts) {
      const j = s.junction;
      if (reachedStamp[j] === stamp && dist[j] <= s.cost) continue;
      reachedStamp[j] = stamp;
      dist[j] = s.cost;
      predJunction[j] = -1;
      predChain[j] = -1;
      tag[j] = s.tag;
      heap.push(s.cost + (bound ? bound(j) : 0), j);
    }
    while (heap.size > 0) {
      const key = heap.peekKey();
      if (key >= bestCost) break;
      const v = heap.pop();
      if (settledStamp[v] === stamp) continue;
      settledStamp[v] = stamp;
      const dv = dist[v];
      if (finish) {
        const f = finish.get(v);
        if (f && dv + f.cost < bestCost) {
          bestCost = dv + f.cost;
          best = { cost: bestCost, junction: v, startTag: tag[v], finishTag: f.tag };
        }
      }
      for (let i = cg.adjOffset[v]; i < cg.adjOffset[v + 1]; i++) {
        const c = cg.adjChain[i];
        if ((cg.chainMask[c] & closedMask) !== 0) continue;
        const w = cg.adjJunction[i];
        if (settledStamp[w] === stamp) continue;
        const nd = dv + cg.chainLength[c];
        if (reachedStamp[w] === stamp && dist[w] <= nd) continue;
        reachedStamp[w] = stamp;
        dist[w] = nd;
        predJunction[w] = v;
        predChain[w] = c;
        tag[w] = tag[v];
        heap.push(nd + (bound ? bound(w) : 0), w);
      }
    }
    return best;
  }

  /** Chains from the search's start to junction j, in travel order. */
  chainsTo(j: number): number[] {
    const out: number[] = [];
    for (let v = j; this.predJunction[v] >= 0; v = this.predJunction[v])
      out.push(this.predChain[v]);
    return out.reverse();
  }
}
