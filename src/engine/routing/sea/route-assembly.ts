/**
 * A sea route's path and metres from what the chain search found: the query point, its snap, the
 * vertices of the chains walked (a start and an end chain left and entered by their ports' ends),
 * the other snap and query point; then, with land to check against, the ends straightened and the
 * corners smoothed (straight-legs.ts), never across a passage.
 */
import { LatLng, Passage } from "../../types";
import { ChainGraph } from "./chains";
import { ChainRouteFinder, EndPoint, Found } from "./chain-route";
import { SeaGraph } from "./graph";
import { unwrapLongitudes } from "./longitudes";
import { passageOfId } from "./passages";
import { PathBuffer } from "./path-buffer";
import { Snap } from "./sea-snap";
import { StraightLegs } from "./straight-legs";
import { doubled } from "../../typed-arrays";

export class RouteAssembler {
  /** The path of the last route assembled. */
  readonly path = new PathBuffer();
  /** The network edges of the last route assembled, in travel order (reused buffer). */
  private edges = new Int32Array(256);
  private edgeCount = 0;
  /** Path positions next to the first and last passage edge walked (-1: none). */
  private firstPassagePoint = -1;
  private lastPassagePoint = -1;

  constructor(
    private readonly graph: SeaGraph,
    private readonly chains: ChainGraph,
    private readonly finder: ChainRouteFinder,
    private readonly straight: StraightLegs | undefined
  ) {}

  /**
   * The route's metres and passages from `from` by its (exact) snap `start` to `to` by `end`,
   * along what the finder found; its path is left in this.path.
   */
  assemble(
    from: LatLng,
    to: LatLng,
    start: Snap,
    end: Snap,
    startPoint: EndPoint,
    endPoint: EndPoint,
    found: Found
  ): { meters: number; passages: Passage[] } {
    const cg = this.chains;
    const path = this.path;
    path.clear();
    this.edgeCount = 0;
    this.firstPassagePoint = -1;
    this.lastPassagePoint = -1;
    const chainEdges = (c: number): number =>
      cg.chainVertexOffset[c + 1] - cg.chainVertexOffset[c] - 1;

    path.add(from.lat, from.lng);
    path.add(start.lat, start.lng);
    const cs = cg.edgeChain[start.edge];
    const ks = cg.edgeIndex[start.edge];
    let meters: number;
    if (found.direct) {
      const ke = cg.edgeIndex[end.edge];
      if (ks < ke) this.walkChain(cs, ks + 1, ke, ks, ke);
      else if (ks > ke) this.walkChain(cs, ks, ke + 1, ks, ke);
      else this.addEdge(start.edge);
      meters =
        start.offset +
        Math.abs(this.finder.chainPosition(start) - this.finder.chainPosition(end)) +
        end.offset;
    } else {
      const sp = found.startPort!;
      const ep = found.endPort!;
      // Leave the start chain by the port's end.
      if (sp.towardB) this.walkChain(cs, ks + 1, chainEdges(cs), ks, chainEdges(cs) - 1);
      else this.walkChain(cs, ks, 0, ks, 0);
      let j = sp.junction;
      let middle = 0;
      for (const c of found.chains ?? []) {
        const n = chainEdges(c);
        middle += cg.chainLength[c];
        if (cg.chainA[c] === j) {
          this.walkChain(c, 0, n, 0, n - 1);
          j = cg.chainB[c];
        } else {
          this.walkChain(c, n, 0, n - 1, 0);
          j = cg.chainA[c];
        }
      }
      // Enter the end chain by the port's end.
      const ce = cg.edgeChain[end.edge];
      const ke = cg.edgeIndex[end.edge];
      if (ep.towardB) this.walkChain(ce, chainEdges(ce), ke + 1, chainEdges(ce) - 1, ke);
      else this.walkChain(ce, 0, ke, 0, ke);
      meters = this.finder.portCost(start, sp) + middle + this.finder.portCost(end, ep);
    }
    path.add(end.lat, end.lng);
    path.add(to.lat, to.lng);

    // Straighten the ends where the network zigzags near a port (never across a passage), then
    // the corners on the way.
    if (this.straight) {
      const startLimit = this.firstPassagePoint < 0 ? path.length - 1 : this.firstPassagePoint;
      const endLimit = this.lastPassagePoint < 0 ? 0 : this.lastPassagePoint;
      meters -= this.straight.straighten(path, startLimit, endLimit, startPoint, endPoint);
    }

    const passages: Passage[] = [];
    const edgePassage = this.graph.edgePassage;
    for (let k = 0; k < this.edgeCount; k++) {
      const p = passageOfId(edgePassage[this.edges[k]]);
      if (p && passages[passages.length - 1] !== p) passages.push(p);
    }
    return { meters, passages };
  }

  /** Chain c's vertices at positions [from..to] (either direction) and its edges between them. */
  private walkChain(
    c: number,
    fromPos: number,
    toPos: number,
    edgeFrom: number,
    edgeTo: number
  ): void {
    const g = this.graph;
    const cg = this.chains;
    const path = this.path;
    const vb = cg.chainVertexOffset[c];
    const eb = vb - c;
    const step = toPos >= fromPos ? 1 : -1;
    for (let i = fromPos; i !== toPos + step; i += step) {
      const v = cg.chainVertex[vb + i];
      path.add(g.lat[v], g.lng[v]);
    }
    if (edgeFrom < 0) return;
    const estep = edgeTo >= edgeFrom ? 1 : -1;
    for (let k = edgeFrom; k !== edgeTo + estep; k += estep) {
      const e = cg.chainEdge[eb + k];
      this.addEdge(e);
      // Path points next to a passage edge bound the straightening of the route's ends.
      if (g.edgePassage[e] !== 0) {
        if (this.firstPassagePoint < 0)
          this.firstPassagePoint = Math.max(0, path.length - (toPos - fromPos) * step - 1);
        this.lastPassagePoint = path.length - 1;
      }
    }
  }

  private addEdge(e: number): void {
    if (this.edgeCount === this.edges.length) this.edges = doubled(this.edges);
    this.edges[this.edgeCount++] = e;
  }
}

/** An assembled path's points, longitudes unwrapped where it crosses ±180°. */
export function pathPoints(path: PathBuffer): LatLng[] {
  return unwrapLongitudes(Array.from({ length: path.length }, (_, k) => path.point(k)));
}
