/**
 * Barge routing: snap origin and destination to the nearest waterway segment (within `snapMeters`),
 * then Dijkstra over the waterway graph. No route (null) when a place is too far from any waterway or
 * the two waterways are not connected (barges do not go to sea).
 */
import { BargeRouter, RoutedPath } from "../../route-engine";
import { LatLng } from "../../types";
import { localSegmentMeters, metersToDegrees } from "../../geo/geodesy";
import { MinHeap } from "../../heap";
import { BargeNetwork } from "./barge-network";

export interface Snap {
  edge: number;
  /** Fraction along the edge from its `a` end. */
  t: number;
  point: LatLng;
  /** Distance from the query point to the waterway, metres. */
  offMeters: number;
}

export interface BargeRouterOptions {
  /** How far from a waterway a place may be and still be served by barge. */
  snapMeters?: number;
}

interface EdgeBox {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

export class BargeGraphRouter implements BargeRouter {
  readonly snapMeters: number;
  private readonly boxes: EdgeBox[];

  constructor(
    readonly network: BargeNetwork,
    options: BargeRouterOptions = {}
  ) {
    this.snapMeters = options.snapMeters ?? 25_000;
    this.boxes = network.edges.map((e) => {
      const a = network.nodes[e.a];
      const b = network.nodes[e.b];
      return {
        minLat: Math.min(a.lat, b.lat),
        maxLat: Math.max(a.lat, b.lat),
        minLng: Math.min(a.lng, b.lng),
        maxLng: Math.max(a.lng, b.lng),
      };
    });
  }

  /** Nearest point on the network within the snap radius, or null. */
  snap(p: LatLng): Snap | null {
    const dLat = metersToDegrees(this.snapMeters);
    const dLng = dLat / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
    let best: Snap | null = null;
    for (let i = 0; i < this.boxes.length; i++) {
      const box = this.boxes[i];
      if (
        p.lat < box.minLat - dLat ||
        p.lat > box.maxLat + dLat ||
        p.lng < box.minLng - dLng ||
        p.lng > box.maxLng + dLng
      )
        continue;
      const e = this.network.edges[i];
      const a = this.network.nodes[e.a];
      const b = this.network.nodes[e.b];
      const { meters, t } = localSegmentMeters(p, a, b);
      if (meters <= this.snapMeters && (!best || meters < best.offMeters)) {
        best = {
          edge: i,
          t,
          offMeters: meters,
          point: { lat: a.lat + t * (b.lat - a.lat), lng: a.lng + t * (b.lng - a.lng) },
        };
      }
    }
    return best;
  }

  route(from: LatLng, to: LatLng): RoutedPath | null {
    const s = this.snap(from);
    const d = this.snap(to);
    if (!s || !d) return null;
    const edges = this.network.edges;
    const se = edges[s.edge];
    const de = edges[d.edge];

    // Both on one edge: straight along it.
    let best = Infinity;
    let bestPath: LatLng[] = [];
    if (s.edge === d.edge) {
      best = Math.abs(s.t - d.t) * se.meters;
      bestPath = [s.point, d.point];
    }

    const { dist, prev } = this.dijkstra([
      { node: se.a, meters: s.t * se.meters },
      { node: se.b, meters: (1 - s.t) * se.meters },
    ]);
    const viaA = dist[de.a] + d.t * de.meters;
    const viaB = dist[de.b] + (1 - d.t) * de.meters;
    const end = viaA <= viaB ? de.a : de.b;
    const graphBest = Math.min(viaA, viaB);
    if (graphBest < best) {
      best = graphBest;
      const nodes: number[] = [];
      for (let n = end; n !== -1; n = prev[n]) nodes.push(n);
      nodes.reverse();
      bestPath = [s.point, ...nodes.map((n) => this.network.nodes[n]), d.point];
    }
    if (!Number.isFinite(best)) return null;
    return { meters: best, path: dedupe(bestPath) };
  }

  private dijkstra(starts: { node: number; meters: number }[]): {
    dist: Float64Array;
    prev: Int32Array;
  } {
    const n = this.network.nodes.length;
    const dist = new Float64Array(n).fill(Infinity);
    const prev = new Int32Array(n).fill(-1);
    const heap = new MinHeap();
    for (const s of starts) {
      if (s.meters < dist[s.node]) {
        dist[s.node] = s.meters;
        heap.push(s.meters, s.node);
      }
    }
    while (heap.size > 0) {
      const du = heap.peekKey();
      const u = heap.pop();
      if (du > dist[u]) continue;
      for (const ei of this.network.adjacency[u]) {
        const e = this.network.edges[ei];
        const v = e.a === u ? e.b : e.a;
        const dv = du + e.meters;
        if (dv < dist[v]) {
          dist[v] = dv;
          prev[v] = u;
          heap.push(dv, v);
        }
      }
    }
    return { dist, prev };
  }
}

function dedupe(path: LatLng[]): LatLng[] {
  return path.filter((p, i) => i === 0 || p.lat !== path[i - 1].lat || p.lng !== path[i - 1].lng);
}
