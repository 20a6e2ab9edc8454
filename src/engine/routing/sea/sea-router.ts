/**
 * Port-to-port sea distances on the network: snap both ends to the nearest point on an open edge,
 * then A* (admissible spherical bound) between the two virtual nodes. Results are LRU-cached.
 */
import type { RoutedPath, SeaRouter } from '../../route-engine';
import { LatLng, Passage } from '../../types';
import { angleBetween, geodesicMeters, LOWER_BOUND_RADIUS_M, MEAN_RADIUS_M, toLatLng, toUnit } from './geodesy';
import { SeaGraph } from './graph';
import { MinHeap } from './min-heap';
import { LruCache } from './lru-cache';
import { passageId, passageOfId } from './passages';
import { EdgeSnap, edgesWithin, nearestEdge } from './spatial-index';

/** Snap candidates: edges within this factor of the nearest edge's distance, plus the slack. */
const CANDIDATE_FACTOR = 1.5;
const CANDIDATE_SLACK_M = 25_000;
const MAX_CANDIDATES = 8;
const LONG_SPOKE_M = 300_000;
const SPOKE_RADIUS_M = 150_000;

export type SeaRoute = RoutedPath & { passages: Passage[] };

export interface SeaRouterOptions {
  cacheSize?: number;
  /** Decimals of degrees the cache key keeps (5 ≈ 1 m). */
  cacheKeyDecimals?: number;
  /** false = plain Dijkstra (no lower bound); for checks and benchmarks. */
  useAStar?: boolean;
}

interface Snap {
  edge: number;
  lat: number;
  lng: number;
  /** Metres from the query point to the snap point. */
  offset: number;
  /** Metres from the snap point to the edge's A and B ends. */
  toA: number;
  toB: number;
}

export class NetworkSeaRouter implements SeaRouter {
  private readonly cache: LruCache<string, SeaRoute | null>;
  private readonly keyDecimals: number;
  private readonly useAStar: boolean;
  private readonly heap = new MinHeap(4096);
  private readonly dist: Float64Array;
  private readonly predVertex: Int32Array;
  private readonly predEdge: Int32Array;
  private readonly reached: Int32Array;
  private readonly settled: Int32Array;
  private readonly edgeSeen: Int32Array;
  private readonly startOf: Int32Array;
  private stamp = 0;
  /** Number of searches run (cache misses), for tests and benchmarks. */
  searches = 0;

  constructor(readonly graph: SeaGraph, options: SeaRouterOptions = {}) {
    this.cache = new LruCache(options.cacheSize ?? 20_000);
    this.keyDecimals = options.cacheKeyDecimals ?? 5;
    this.useAStar = options.useAStar ?? true;
    const n = graph.vertexCount;
    this.dist = new Float64Array(n);
    this.predVertex = new Int32Array(n);
    this.predEdge = new Int32Array(n);
    this.reached = new Int32Array(n);
    this.settled = new Int32Array(n);
    this.edgeSeen = new Int32Array(graph.edgeCount);
    this.startOf = new Int32Array(n);
  }

  route(from: LatLng, to: LatLng, options: { closed: ReadonlySet<Passage> }): SeaRoute | null {
    const closedKey = [...options.closed].sort().join('+');
    const d = this.keyDecimals;
    const key = `${from.lat.toFixed(d)},${from.lng.toFixed(d)};${to.lat.toFixed(d)},${to.lng.toFixed(d)};${closedKey}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const result = this.search(from, to, options.closed);
    this.cache.set(key, result);
    return result;
  }

  /** Nearest point on an open edge of the main network (exposed for tests). */
  snap(point: LatLng, closed: ReadonlySet<Passage> = new Set()): Snap | null {
    return this.snapCandidates(point, closedMask(closed))[0] ?? null;
  }

  /**
   * The nearest open edge and the other open edges almost as near: the search picks among them,
   * so a port whose nearest line is a dead-end approach can still leave by the lane next to it.
   */
  private snapCandidates(point: LatLng, closedIds: Uint8Array): Snap[] {
    const g = this.graph;
    const accept = (e: number): boolean => g.edgeInMain[e] === 1 && closedIds[g.edgePassage[e]] === 0;
    const p = toUnit(point.lat, point.lng);
    const best = nearestEdge(g, point.lat, point.lng, p, accept, this.edgeSeen, ++this.stamp);
    if (!best) return [];
    let radius = best.angle * CANDIDATE_FACTOR + CANDIDATE_SLACK_M / MEAN_RADIUS_M;
    // A long dead-end approach leg (MARNET draws some ports as one long spoke, e.g. Colombo from the
    // west) only lets ships arrive from its far end: look wider for the lanes that pass nearby.
    if (this.isLongSpoke(best.edge)) radius = Math.max(radius, SPOKE_RADIUS_M / MEAN_RADIUS_M);
    const near = edgesWithin(g, point.lat, point.lng, p, radius, accept, this.edgeSeen, ++this.stamp);
    const hits = near.length ? near.slice(0, MAX_CANDIDATES) : [best];
    return hits.map((h) => this.describeSnap(point, h));
  }

  private isLongSpoke(e: number): boolean {
    const g = this.graph;
    const deg = (v: number): number => g.adjOffset[v + 1] - g.adjOffset[v];
    return g.edgeLength[e] > LONG_SPOKE_M && (deg(g.edgeA[e]) === 1 || deg(g.edgeB[e]) === 1);
  }

  private describeSnap(point: LatLng, hit: EdgeSnap): Snap {
    const g = this.graph;
    const p = toLatLng(hit.point);
    const a = g.edgeA[hit.edge];
    const b = g.edgeB[hit.edge];
    return {
      edge: hit.edge,
      lat: p.lat,
      lng: p.lng,
      offset: geodesicMeters(point.lat, point.lng, p.lat, p.lng),
      toA: geodesicMeters(p.lat, p.lng, g.lat[a], g.lng[a]),
      toB: geodesicMeters(p.lat, p.lng, g.lat[b], g.lng[b]),
    };
  }

  private search(from: LatLng, to: LatLng, closed: ReadonlySet<Passage>): SeaRoute | null {
    this.searches++;
    const g = this.graph;
    const closedIds = closedMask(closed);
    const starts = this.snapCandidates(from, closedIds);
    const ends = this.snapCandidates(to, closedIds);
    if (!starts.length || !ends.length) return null;

    const stamp = ++this.stamp;
    const { dist, predVertex, predEdge, reached, settled, heap, startOf } = this;
    heap.clear();
    const target = toUnit(ends[0].lat, ends[0].lng);
    // Lower bound to the nearest destination snap: to the first one minus how much nearer the others are.
    let slack = 0;
    for (const e of ends) {
      const d = LOWER_BOUND_RADIUS_M * angleBetween(...toUnit(e.lat, e.lng), target[0], target[1], target[2]);
      if (d > slack) slack = d;
    }
    const h = (v: number): number =>
      !this.useAStar ? 0 : Math.max(0, LOWER_BOUND_RADIUS_M * angleBetween(g.ux[v], g.uy[v], g.uz[v], target[0], target[1], target[2]) - slack);

    const relax = (v: number, cost: number, fromVertex: number, viaEdge: number, start: number): void => {
      if (reached[v] === stamp && dist[v] <= cost) return;
      reached[v] = stamp;
      dist[v] = cost;
      predVertex[v] = fromVertex;
      predEdge[v] = viaEdge;
      startOf[v] = start;
      heap.push(cost + h(v), v);
    };
    starts.forEach((s, i) => {
      relax(g.edgeA[s.edge], s.offset + s.toA, -1, s.edge, i);
      relax(g.edgeB[s.edge], s.offset + s.toB, -1, s.edge, i);
    });

    // Tails from the ends of the destination edges to the destination.
    const tail = new Map<number, { cost: number; end: number }>();
    ends.forEach((e, i) => {
      for (const [v, d] of [[g.edgeA[e.edge], e.toA], [g.edgeB[e.edge], e.toB]] as const) {
        const cost = d + e.offset;
        const old = tail.get(v);
        if (!old || cost < old.cost) tail.set(v, { cost, end: i });
      }
    });

    // The virtual target is vertex id n.
    const n = g.vertexCount;
    let best: { cost: number; vertex: number; start: number; end: number } | null = null;
    starts.forEach((s, i) => {
      ends.forEach((e, j) => {
        if (s.edge !== e.edge) return;
        const cost = s.offset + geodesicMeters(s.lat, s.lng, e.lat, e.lng) + e.offset;
        if (!best || cost < best.cost) best = { cost, vertex: -1, start: i, end: j };
      });
    });
    if (best) heap.push((best as { cost: number }).cost, n);

    while (heap.size > 0) {
      const key = heap.peekKey();
      const v = heap.pop();
      if (v === n) {
        if (best && key <= (best as { cost: number }).cost) break;
        continue;
      }
      if (settled[v] === stamp) continue;
      settled[v] = stamp;
      const gv = dist[v];
      const t = tail.get(v);
      if (t) {
        const total = gv + t.cost;
        if (!best || total < (best as { cost: number }).cost) {
          best = { cost: total, vertex: v, start: startOf[v], end: t.end };
          heap.push(total, n);
        }
      }
      for (let i = g.adjOffset[v]; i < g.adjOffset[v + 1]; i++) {
        const e = g.adjEdge[i];
        if (closedIds[g.edgePassage[e]] !== 0) continue;
        const w = g.adjTarget[i];
        if (settled[w] === stamp) continue;
        relax(w, gv + g.edgeLength[e], v, e, startOf[v]);
      }
    }
    if (!best) return null;
    const found = best as { cost: number; vertex: number; start: number; end: number };
    return this.assemble(from, to, starts[found.start], ends[found.end], found.cost, found.vertex);
  }

  private assemble(from: LatLng, to: LatLng, start: Snap, end: Snap, meters: number, lastVertex: number): SeaRoute {
    const g = this.graph;
    const vertices: number[] = [];
    const edges: number[] = [];
    if (lastVertex >= 0) {
      for (let v = lastVertex; v >= 0; v = this.predVertex[v]) {
        vertices.push(v);
        edges.push(this.predEdge[v]); // the source vertex carries the start edge
      }
      vertices.reverse();
      edges.reverse();
    } else {
      edges.push(start.edge);
    }
    edges.push(end.edge);

    const path: LatLng[] = [];
    const add = (lat: number, lng: number): void => {
      const last = path[path.length - 1];
      if (!last || last.lat !== lat || last.lng !== lng) path.push({ lat, lng });
    };
    add(from.lat, from.lng);
    add(start.lat, start.lng);
    for (const v of vertices) add(g.lat[v], g.lng[v]);
    add(end.lat, end.lng);
    add(to.lat, to.lng);

    const passages: Passage[] = [];
    for (const e of edges) {
      const p = passageOfId(g.edgePassage[e]);
      if (p && passages[passages.length - 1] !== p) passages.push(p);
    }
    return { meters, path, passages };
  }
}

function closedMask(closed: ReadonlySet<Passage>): Uint8Array {
  const mask = new Uint8Array(32);
  for (const p of closed) mask[passageId(p)] = 1;
  return mask;
}
