/**
 * Port-to-port sea distances on the network: snap both ends to the nearest point on an open edge,
 * then A* (admissible spherical bound) between the two virtual nodes. Results are LRU-cached.
 */
import type { RoutedPath, SeaRouter } from '../../route-engine';
import { LatLng, Passage } from '../../types';
import { angleBetween, geodesicMeters, LOWER_BOUND_RADIUS_M, toLatLng, toUnit } from './geodesy';
import { SeaGraph } from './graph';
import { MinHeap } from './min-heap';
import { LruCache } from './lru-cache';
import { passageId, passageOfId } from './passages';
import { EdgeSnap, nearestEdge } from './spatial-index';

export type SeaRoute = RoutedPath & { passages: Passage[] };

export interface SeaRouterOptions {
  cacheSize?: number;
  /** Decimals of degrees the cache key keeps (5 ≈ 1 m). */
  cacheKeyDecimals?: number;
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
  private readonly heap = new MinHeap(4096);
  private readonly dist: Float64Array;
  private readonly predVertex: Int32Array;
  private readonly predEdge: Int32Array;
  private readonly reached: Int32Array;
  private readonly settled: Int32Array;
  private readonly edgeSeen: Int32Array;
  private stamp = 0;
  /** Number of searches run (cache misses), for tests and benchmarks. */
  searches = 0;

  constructor(readonly graph: SeaGraph, options: SeaRouterOptions = {}) {
    this.cache = new LruCache(options.cacheSize ?? 20_000);
    this.keyDecimals = options.cacheKeyDecimals ?? 5;
    const n = graph.vertexCount;
    this.dist = new Float64Array(n);
    this.predVertex = new Int32Array(n);
    this.predEdge = new Int32Array(n);
    this.reached = new Int32Array(n);
    this.settled = new Int32Array(n);
    this.edgeSeen = new Int32Array(graph.edgeCount);
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

  /** Nearest point on an edge not in a closed passage (exposed for tests). */
  snap(point: LatLng, closed: ReadonlySet<Passage> = new Set()): Snap | null {
    const closedIds = closedMask(closed);
    const hit = nearestEdge(this.graph, point.lat, point.lng, toUnit(point.lat, point.lng),
      (e) => closedIds[this.graph.edgePassage[e]] === 0, this.edgeSeen, ++this.stamp);
    return hit ? this.describeSnap(point, hit) : null;
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
    const start = this.snap(from, closed);
    const end = this.snap(to, closed);
    if (!start || !end) return null;

    const stamp = ++this.stamp;
    const { dist, predVertex, predEdge, reached, settled, heap } = this;
    heap.clear();
    const target = toUnit(end.lat, end.lng);
    const h = (v: number): number =>
      LOWER_BOUND_RADIUS_M * angleBetween(g.ux[v], g.uy[v], g.uz[v], target[0], target[1], target[2]);

    const relax = (v: number, cost: number, fromVertex: number, viaEdge: number): void => {
      if (reached[v] === stamp && dist[v] <= cost) return;
      reached[v] = stamp;
      dist[v] = cost;
      predVertex[v] = fromVertex;
      predEdge[v] = viaEdge;
      heap.push(cost + h(v), v);
    };
    relax(g.edgeA[start.edge], start.offset + start.toA, -1, start.edge);
    relax(g.edgeB[start.edge], start.offset + start.toB, -1, start.edge);

    // The virtual target is vertex id n; reaching it from an end of the destination's edge.
    const n = g.vertexCount;
    const endA = g.edgeA[end.edge];
    const endB = g.edgeB[end.edge];
    let bestCost = Infinity;
    let bestVia = -2; // -1 = along the shared edge, without the network
    if (start.edge === end.edge) {
      bestCost = start.offset + geodesicMeters(start.lat, start.lng, end.lat, end.lng) + end.offset;
      bestVia = -1;
      heap.push(bestCost, n);
    }

    while (heap.size > 0) {
      const key = heap.peekKey();
      const v = heap.pop();
      if (v === n) {
        if (key <= bestCost) break;
        continue;
      }
      if (settled[v] === stamp) continue;
      settled[v] = stamp;
      const gv = dist[v];
      if (v === endA || v === endB) {
        const total = gv + (v === endA ? end.toA : end.toB) + end.offset;
        if (total < bestCost) {
          bestCost = total;
          bestVia = v;
          heap.push(total, n);
        }
      }
      for (let i = g.adjOffset[v]; i < g.adjOffset[v + 1]; i++) {
        const e = g.adjEdge[i];
        if (closedIds[g.edgePassage[e]] !== 0) continue;
        const w = g.adjTarget[i];
        if (settled[w] === stamp) continue;
        relax(w, gv + g.edgeLength[e], v, e);
      }
    }
    if (bestVia === -2) return null;
    return this.assemble(from, to, start, end, bestCost, bestVia);
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
