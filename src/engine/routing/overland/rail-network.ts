/**
 * The rail corridor graph: every corridor point is a node (points sharing a `node` id are one
 * junction), consecutive points are joined by their geodesic length, scaled to the published line
 * kilometres between km anchors. A trip enters the graph from its origin at one of the nearest nodes
 * and leaves it at one of the destination's nearest nodes; those access legs are priced by the
 * caller (great circle × circuity), and the cheapest combination wins (multi-source Dijkstra).
 */
import { LatLng } from "../../types";
import { fastGeodesicMeters, metersToDegrees } from "../../geo/geodesy";
import { CsrSearch } from "../../graph/csr-search";
import { RailCorridorsFile } from "./rail-corridors";

export interface RailNode {
  lat: number;
  lng: number;
  /** Junction id or station name, when the data gives one. */
  name?: string;
  junction?: string;
}

/** A candidate entry/exit node of a trip end and what the access leg to it costs. */
export interface RailAccess {
  node: number;
  meters: number;
}

export interface RailNetworkRoute {
  /** Access legs + corridor distance. */
  meters: number;
  /** Corridor part only. */
  corridorMeters: number;
  /** Graph nodes from the entry to the exit node. */
  nodes: number[];
}

export class RailNetwork {
  readonly nodes: RailNode[] = [];
  private readonly offsets: Int32Array;
  private readonly targets: Int32Array;
  private readonly weights: Float64Array;
  private readonly search: CsrSearch;

  constructor(readonly data: RailCorridorsFile) {
    const junctions = new Map<string, number>();
    const edges: Array<[number, number, number]> = [];
    for (const corridor of data.corridors) {
      const ids = corridor.points.map((p) => {
        if (p.node !== undefined) {
          const known = junctions.get(p.node);
          if (known !== undefined) return known;
          junctions.set(p.node, this.nodes.length);
        }
        this.nodes.push({ lat: p.lat, lng: p.lng, name: p.name, junction: p.node });
        return this.nodes.length - 1;
      });
      const scale = segmentScales(corridor.points, data.trackFactor);
      for (let i = 1; i < ids.length; i++) {
        const meters = segmentMeters(corridor.points[i - 1], corridor.points[i]) * scale[i - 1];
        edges.push([ids[i - 1], ids[i], meters]);
      }
    }
    // Compressed adjacency (both directions).
    const n = this.nodes.length;
    const degree = new Int32Array(n + 1);
    for (const [a, b] of edges) {
      degree[a + 1]++;
      degree[b + 1]++;
    }
    for (let i = 0; i < n; i++) degree[i + 1] += degree[i];
    this.offsets = degree;
    this.targets = new Int32Array(edges.length * 2);
    this.weights = new Float64Array(edges.length * 2);
    const fill = this.offsets.slice(0, n);
    for (const [a, b, w] of edges) {
      this.targets[fill[a]] = b;
      this.weights[fill[a]++] = w;
      this.targets[fill[b]] = a;
      this.weights[fill[b]++] = w;
    }
    this.search = new CsrSearch(this.offsets, this.targets, this.weights);
  }

  /** Nodes within `maxMeters` (geodesic) of p, nearest first, at most `limit`. */
  nearNodes(p: LatLng, maxMeters: number, limit: number): Array<{ node: number; meters: number }> {
    const dLat = metersToDegrees(maxMeters);
    const dLng = dLat / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
    const out: Array<{ node: number; meters: number }> = [];
    for (let i = 0; i < this.nodes.length; i++) {
      const q = this.nodes[i];
      if (Math.abs(q.lat - p.lat) > dLat) continue;
      let dl = Math.abs(q.lng - p.lng);
      if (dl > 180) dl = 360 - dl;
      if (dl > dLng) continue;
      // Andoyer-Lambert: metres off the exact geodesic at these distances, ~50x cheaper.
      const meters = fastGeodesicMeters(p.lat, p.lng, q.lat, q.lng);
      if (meters <= maxMeters) out.push({ node: i, meters });
    }
    out.sort((a, b) => a.meters - b.meters);
    return out.slice(0, limit);
  }

  /** Graph node of a junction id (e.g. "MANZHOULI"), or undefined. */
  junction(id: string): number | undefined {
    const i = this.nodes.findIndex((n) => n.junction === id);
    return i < 0 ? undefined : i;
  }

  /**
   * Cheapest way from any entry to any exit: entry access + corridor + exit access, through the
   * `via` nodes in order when given (a service's published hubs and border crossing). Null when
   * not connected.
   */
  route(entries: RailAccess[], exits: RailAccess[], via: number[] = []): RailNetworkRoute | null {
    let from = entries;
    let result: RailNetworkRoute | null = null;
    for (const stop of [...via, -1]) {
      const to = stop < 0 ? exits : [{ node: stop, meters: 0 }];
      const leg = this.cheapest(from, to);
      if (!leg) return null;
      result = result
        ? {
            meters: leg.meters,
            corridorMeters: result.corridorMeters + leg.corridorMeters,
            nodes: [...result.nodes, ...leg.nodes.slice(1)],
          }
        : leg;
      if (stop >= 0) from = [{ node: stop, meters: leg.meters }];
    }
    return result;
  }

  private cheapest(entries: RailAccess[], exits: RailAccess[]): RailNetworkRoute | null {
    const found = this.search.cheapest(entries, exits);
    if (!found) return null;
    const { meters, nodes, exitMeters } = found;
    const entry = entries
      .filter((e) => e.node === nodes[0])
      .reduce((a, b) => Math.min(a, b.meters), Infinity);
    return { meters, corridorMeters: meters - entry - exitMeters, nodes };
  }
}

/**
 * Per segment of a corridor: published km ÷ polyline length within km-anchored stretches (the
 * polyline of a few points per 100 km cuts the line's curves), the file's track factor elsewhere.
 */
function segmentScales(
  points: ReadonlyArray<LatLng & { km?: number }>,
  trackFactor: number
): number[] {
  const scale = new Array<number>(Math.max(0, points.length - 1)).fill(trackFactor);
  const anchors = points.map((p, i) => (p.km !== undefined ? i : -1)).filter((i) => i >= 0);
  for (let a = 1; a < anchors.length; a++) {
    const i = anchors[a - 1];
    const j = anchors[a];
    let polyline = 0;
    for (let k = i + 1; k <= j; k++) polyline += segmentMeters(points[k - 1], points[k]);
    const published = ((points[j].km as number) - (points[i].km as number)) * 1000;
    const s = polyline > 0 ? published / polyline : 1;
    for (let k = i; k < j; k++) scale[k] = s;
  }
  return scale;
}

/** Andoyer-Lambert length of a corridor segment: within metres of the exact geodesic per 100 km. */
function segmentMeters(a: LatLng, b: LatLng): number {
  return fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng);
}
