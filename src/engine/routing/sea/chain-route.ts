/**
 * The shortest way between two query points' snaps on the chain graph (the sea network contracted
 * to its junctions): along one chain when both snaps lie on it, else from the ports where the
 * start's snaps enter the junctions to the end's, by a contraction hierarchy for a closed-passage
 * set that has one (two small upward searches, remembered per query point) or an A* search on
 * the junctions. The router (sea-router.ts) assembles the path from the chains found.
 */
import { Passage } from "../../types";
import { angleBetween, LOWER_BOUND_RADIUS_M, toUnit } from "../../geo/geodesy";
import { ChainGraph, passageBit } from "./chains";
import { ContractionHierarchy } from "./contraction";
import { SeaGraph } from "./graph";
import { HierarchySearch, UpwardSpace } from "./hierarchy-search";
import { JunctionSearch, JunctionStart } from "./junction-search";
import { passageId } from "./passages";
import { Snap } from "./sea-snap";
import { LegMemo } from "./straight-legs";

/** Where a search may enter the junction graph from a snap: one end of the snapped chain. */
export interface Port {
  snap: number;
  /** true: leaves by the chain's B end. */
  towardB: boolean;
  junction: number;
  cost: number;
}

/**
 * What the router remembers of a query point for one closed-passage set: its snap candidates,
 * where a search may enter the junctions from them, and (with a hierarchy) their upward space.
 */
export interface EndPoint extends LegMemo {
  snaps: Snap[];
  ports?: Port[];
  space?: UpwardSpace;
}

export interface Found {
  cost: number;
  startSnap: number;
  endSnap: number;
  /** Start port, chains in travel order and end port; or a same-chain / same-edge route. */
  startPort?: Port;
  chains?: number[];
  endPort?: Port;
  direct?: "CHAIN" | "EDGE";
}

export function closedPassageMask(closed: Iterable<Passage>): number {
  let mask = 0;
  for (const p of closed) mask |= passageBit(passageId(p));
  return mask;
}

export class ChainRouteFinder {
  private readonly hierarchies = new Map<number, ContractionHierarchy>();
  private readonly fromSearch: JunctionSearch;
  private readonly hierarchySearch: HierarchySearch;
  private readonly finish = new Map<number, { cost: number; tag: number }>();
  /** Routes answered with a contraction hierarchy, for tests and benchmarks. */
  hierarchyHits = 0;

  /**
   * `useAStar` false: plain Dijkstra on the junctions, no lower bound and no hierarchy;
   * `useHierarchies` false: never a contraction hierarchy (always search).
   */
  constructor(
    private readonly graph: SeaGraph,
    private readonly chains: ChainGraph,
    private readonly useAStar: boolean,
    private readonly useHierarchies: boolean
  ) {
    this.fromSearch = new JunctionSearch(chains);
    this.hierarchySearch = new HierarchySearch(chains.junctionCount);
  }

  addHierarchy(h: ContractionHierarchy): void {
    if (h.junctionCount !== this.chains.junctionCount)
      throw new Error("contraction hierarchy built for another chain graph");
    this.hierarchies.set(h.closedMask, h);
  }

  hasHierarchy(closedMask: number): boolean {
    return this.hierarchies.has(closedMask);
  }

  private ports(snaps: Snap[], closedMask: number): Port[] {
    const cg = this.chains;
    const g = this.graph;
    const out: Port[] = [];
    snaps.forEach((s, i) => {
      const c = cg.edgeChain[s.edge];
      if (c < 0) return;
      const k = cg.edgeIndex[s.edge];
      const base = cg.chainVertexOffset[c];
      const vk = cg.chainVertex[base + k];
      const toVk = g.edgeA[s.edge] === vk ? s.toA : s.toB;
      const toVk1 = g.edgeLength[s.edge] - toVk;
      const edgePos = base - c + k;
      if (cg.chainA[c] >= 0 && (cg.maskBefore[edgePos] & closedMask) === 0) {
        out.push({
          snap: i,
          towardB: false,
          junction: cg.chainA[c],
          cost: s.offset + toVk + cg.chainVertexAt[base + k],
        });
      }
      if (cg.chainB[c] >= 0 && (cg.maskAfter[edgePos] & closedMask) === 0) {
        const rest = cg.chainLength[c] - cg.chainVertexAt[base + k + 1];
        out.push({ snap: i, towardB: true, junction: cg.chainB[c], cost: s.offset + toVk1 + rest });
      }
    });
    return out;
  }

  /** Position of a snap along its chain (metres from the chain's A end). */
  chainPosition(s: Snap): number {
    const cg = this.chains;
    const c = cg.edgeChain[s.edge];
    const k = cg.edgeIndex[s.edge];
    const base = cg.chainVertexOffset[c];
    const vk = cg.chainVertex[base + k];
    return cg.chainVertexAt[base + k] + (this.graph.edgeA[s.edge] === vk ? s.toA : s.toB);
  }

  find(start: EndPoint, end: EndPoint, closedMask: number): Found | null {
    const cg = this.chains;
    const starts = start.snaps;
    const ends = end.snaps;
    let best: Found | null = null;

    // Both snaps on one chain: along the chain between them, if its passages there are open.
    starts.forEach((s, i) => {
      ends.forEach((e, j) => {
        const c = cg.edgeChain[s.edge];
        if (c < 0 || c !== cg.edgeChain[e.edge]) return;
        const ks = cg.edgeIndex[s.edge];
        const ke = cg.edgeIndex[e.edge];
        const base = cg.chainVertexOffset[c] - c;
        let mask = 0;
        for (let k = Math.min(ks, ke) + 1; k < Math.max(ks, ke); k++)
          mask |= passageBit(this.graph.edgePassage[cg.chainEdge[base + k]]);
        if ((mask & closedMask) !== 0) return;
        const cost = s.offset + Math.abs(this.chainPosition(s) - this.chainPosition(e)) + e.offset;
        if (!best || cost < best.cost)
          best = { cost, startSnap: i, endSnap: j, direct: ks === ke ? "EDGE" : "CHAIN" };
      });
    });

    const startPorts = (start.ports ??= this.ports(starts, closedMask));
    const endPorts = (end.ports ??= this.ports(ends, closedMask));
    const known = (best as Found | null)?.cost ?? Infinity;
    const hierarchy = this.useHierarchies ? this.hierarchies.get(closedMask) : undefined;

    if (hierarchy) {
      this.hierarchyHits++;
      const search = this.hierarchySearch;
      const hit = search.meet(
        hierarchy,
        (start.space ??= search.space(hierarchy, startPorts)),
        (end.space ??= search.space(hierarchy, endPorts)),
        known
      );
      if (hit) {
        best = {
          cost: hit.cost,
          startSnap: -1,
          endSnap: -1,
          startPort: startPorts[hit.startTag],
          chains: hit.chains,
          endPort: endPorts[hit.endTag],
        };
      }
    } else {
      const startList: JunctionStart[] = startPorts.map((p, i) => ({
        junction: p.junction,
        cost: p.cost,
        tag: i,
      }));
      const finish = this.finish;
      finish.clear();
      endPorts.forEach((p, i) => {
        const old = finish.get(p.junction);
        if (!old || p.cost < old.cost) finish.set(p.junction, { cost: p.cost, tag: i });
      });
      const bound = this.useAStar ? this.lowerBound(ends) : undefined;
      const s = this.fromSearch;
      const hit = s.run(startList, { closedMask, finish, bound, bestSoFar: known });
      if (hit)
        best = {
          cost: hit.cost,
          startSnap: -1,
          endSnap: -1,
          startPort: startPorts[hit.startTag],
          chains: s.chainsTo(hit.junction),
          endPort: endPorts[hit.finishTag],
        };
    }
    if (best && best.startPort && best.endPort) {
      this.leaveByNearEnd(best, starts, startPorts, ends, endPorts);
      best.startSnap = best.startPort.snap;
      best.endSnap = best.endPort.snap;
    }
    return best;
  }

  /**
   * A route that runs the whole of its start snap's chain (or end snap's) is, at best, a tie with
   * leaving by that chain's other end (a snap on the chain's end vertex): such a tie is written the
   * way a search from the start finds it, by the other port without the chain, so equal routes
   * come out as the same path (the end straightening depends on its points).
   */
  private leaveByNearEnd(
    found: Found,
    starts: Snap[],
    startPorts: Port[],
    ends: Snap[],
    endPorts: Port[]
  ): void {
    const cg = this.chains;
    const chains = found.chains!;
    const sp = found.startPort!;
    if (chains.length > 0 && chains[0] === cg.edgeChain[starts[sp.snap].edge]) {
      const other = startPorts.find((p) => p.snap === sp.snap && p.towardB !== sp.towardB);
      if (other) {
        chains.shift();
        found.startPort = other;
      }
    }
    const ep = found.endPort!;
    if (chains.length > 0 && chains[chains.length - 1] === cg.edgeChain[ends[ep.snap].edge]) {
      const other = endPorts.find((p) => p.snap === ep.snap && p.towardB !== ep.towardB);
      if (other) {
        chains.pop();
        found.endPort = other;
      }
    }
  }

  /** Admissible A* bound: to the nearest destination snap (first snap minus how much nearer the others are). */
  private lowerBound(ends: Snap[]): (j: number) => number {
    const g = this.graph;
    const target = toUnit(ends[0].lat, ends[0].lng);
    let slack = 0;
    for (const e of ends) {
      const u = toUnit(e.lat, e.lng);
      slack = Math.max(
        slack,
        LOWER_BOUND_RADIUS_M * angleBetween(u[0], u[1], u[2], target[0], target[1], target[2])
      );
    }
    const jv = this.chains.junctionVertex;
    return (j: number): number => {
      const v = jv[j];
      return Math.max(
        0,
        LOWER_BOUND_RADIUS_M *
          angleBetween(g.ux[v], g.uy[v], g.uz[v], target[0], target[1], target[2]) -
          slack
      );
    };
  }

  /** Metres from the query point through its snap to the port's junction (exact snap). */
  portCost(s: Snap, port: Port): number {
    const cg = this.chains;
    const c = cg.edgeChain[s.edge];
    const pos = this.chainPosition(s);
    return s.offset + (port.towardB ? cg.chainLength[c] - pos : pos);
  }
}
