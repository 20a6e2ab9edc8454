/**
 * Multi-source Dijkstra / A* on the chain graph's junctions. One engine for three uses: the full
 * search (any closed passages), the local searches of a table query (which stop at core
 * junctions), and the core-edge builder of the distance table.
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
  /** Junctions that are reached but not expanded (the core, for local searches). */
  stopAt?: Uint8Array;
  /** Whether start junctions in `stopAt` are expanded all the same (default true). */
  expandStarts?: boolean;
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
  /** Junctions settled by the last run, in order. */
  readonly settledList: number[] = [];

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
    const { closedMask, stopAt, finish, bound } = options;
    const expandStarts = options.expandStarts ?? true;
    this.settledList.length = 0;
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
      this.settledList.push(v);
      const dv = dist[v];
      if (finish) {
        const f = finish.get(v);
        if (f && dv + f.cost < bestCost) {
          bestCost = dv + f.cost;
          best = { cost: bestCost, junction: v, startTag: tag[v], finishTag: f.tag };
        }
      }
      // Core junctions other than the starts end a local search: the distance table takes over there.
      if (stopAt && stopAt[v] && (predJunction[v] !== -1 || !expandStarts)) continue;
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

  /** The start junction whose tree holds j. */
  rootOf(j: number): number {
    let v = j;
    while (this.predJunction[v] >= 0) v = this.predJunction[v];
    return v;
  }
}
