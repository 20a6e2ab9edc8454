/**
 * The sea network as a compact graph: typed arrays, CSR adjacency, ellipsoidal edge lengths and a
 * passage label per edge. Built once from polylines (Eurostat MARNET) and shared by all queries.
 */
import { geodesicMeters, slerp, toLatLng, toUnit } from './geodesy';
import { PassageArea, passageAt } from './passages';
import { buildEdgeGrid, EdgeGrid } from './spatial-index';

export type Polyline = ReadonlyArray<readonly [number, number] | ReadonlyArray<number>>;

export interface SeaGraph {
  vertexCount: number;
  edgeCount: number;
  lat: Float64Array;
  lng: Float64Array;
  /** Unit vectors of the vertices, for snapping and the A* bound. */
  ux: Float64Array;
  uy: Float64Array;
  uz: Float64Array;
  /** CSR adjacency: the neighbours of v are adjTarget[adjOffset[v] .. adjOffset[v+1]). */
  adjOffset: Int32Array;
  adjTarget: Int32Array;
  /** Undirected edge id of each adjacency entry. */
  adjEdge: Int32Array;
  edgeA: Int32Array;
  edgeB: Int32Array;
  /** Metres on the WGS84 ellipsoid. */
  edgeLength: Float64Array;
  /** 0 = open sea, else 1 + index in PASSAGES. */
  edgePassage: Uint8Array;
  grid: EdgeGrid;
}

/** Vertices closer than this (degrees) are the same point: MARNET repeats shared vertices exactly. */
const MERGE_PRECISION = 1e6;

export interface BuildOptions {
  /** Grid cell size for the snapping index, degrees. */
  cellDegrees?: number;
}

export function buildSeaGraph(lines: ReadonlyArray<Polyline>, areas: ReadonlyArray<PassageArea>, options: BuildOptions = {}): SeaGraph {
  const vertexOf = new Map<string, number>();
  const lats: number[] = [];
  const lngs: number[] = [];
  const vertex = (lng: number, lat: number): number => {
    // ±180° are one meridian: joining them lets trans-Pacific routes cross the antimeridian.
    const keyLng = lng >= 180 ? lng - 360 : lng;
    const key = `${Math.round(lat * MERGE_PRECISION)}:${Math.round(keyLng * MERGE_PRECISION)}`;
    let id = vertexOf.get(key);
    if (id === undefined) {
      id = lats.length;
      vertexOf.set(key, id);
      lats.push(lat);
      lngs.push(lng);
    }
    return id;
  };

  const edgeSeen = new Set<number>();
  const ea: number[] = [];
  const eb: number[] = [];
  for (const line of lines) {
    let prev = -1;
    for (const c of line) {
      const v = vertex(c[0], c[1]);
      if (prev >= 0 && prev !== v) {
        const lo = Math.min(prev, v);
        const hi = Math.max(prev, v);
        const key = lo * 16_777_216 + hi;
        if (!edgeSeen.has(key)) {
          edgeSeen.add(key);
          ea.push(lo);
          eb.push(hi);
        }
      }
      prev = v;
    }
  }

  const n = lats.length;
  const m = ea.length;
  const lat = Float64Array.from(lats);
  const lng = Float64Array.from(lngs);
  const ux = new Float64Array(n);
  const uy = new Float64Array(n);
  const uz = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = toUnit(lat[i], lng[i]);
    ux[i] = u[0]; uy[i] = u[1]; uz[i] = u[2];
  }

  const edgeA = Int32Array.from(ea);
  const edgeB = Int32Array.from(eb);
  const edgeLength = new Float64Array(m);
  const edgePassage = new Uint8Array(m);
  for (let e = 0; e < m; e++) {
    const a = edgeA[e];
    const b = edgeB[e];
    edgeLength[e] = geodesicMeters(lat[a], lng[a], lat[b], lng[b]);
    const mid = toLatLng(slerp([ux[a], uy[a], uz[a]], [ux[b], uy[b], uz[b]], 0.5));
    edgePassage[e] = passageAt(mid.lng, mid.lat, areas);
  }

  // CSR: count degrees, prefix-sum, fill.
  const adjOffset = new Int32Array(n + 1);
  for (let e = 0; e < m; e++) {
    adjOffset[edgeA[e] + 1]++;
    adjOffset[edgeB[e] + 1]++;
  }
  for (let i = 0; i < n; i++) adjOffset[i + 1] += adjOffset[i];
  const fill = adjOffset.slice(0, n);
  const adjTarget = new Int32Array(2 * m);
  const adjEdge = new Int32Array(2 * m);
  for (let e = 0; e < m; e++) {
    const a = edgeA[e];
    const b = edgeB[e];
    adjTarget[fill[a]] = b; adjEdge[fill[a]++] = e;
    adjTarget[fill[b]] = a; adjEdge[fill[b]++] = e;
  }

  const partial = { vertexCount: n, edgeCount: m, lat, lng, ux, uy, uz, adjOffset, adjTarget, adjEdge, edgeA, edgeB, edgeLength, edgePassage };
  return { ...partial, grid: buildEdgeGrid(partial, options.cellDegrees ?? 1) };
}
