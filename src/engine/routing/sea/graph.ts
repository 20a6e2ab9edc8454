/**
 * The sea network as a compact graph: typed arrays, CSR adjacency, ellipsoidal edge lengths and a
 * passage label per edge. Built once from polylines (Eurostat MARNET) and shared by all queries.
 */
import { UnionFind } from "../../graph/union-find";
import {
  angleBetween,
  geodesicMeters,
  MEAN_RADIUS_KM,
  slerp,
  toLatLng,
  toUnit,
  Vec3,
} from "../../geo/geodesy";
import { PassageArea, passageAt } from "./passages";
import { buildEdgeGrid, EdgeGrid, nearestEdge } from "./spatial-index";

export type Polyline = ReadonlyArray<readonly [number, number] | ReadonlyArray<number>>;

export interface SeaGraph {
  /** Number of dangling ends joined to another piece of the network while building. */
  stitched: number;
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
  /**
   * Edges [0, snapEdgeCount) are the network's lines and are snapped to; the edges after them
   * (BuildOptions.extraLines: open-sea shortcuts) are only travelled, so a port never snaps onto a
   * long ocean shortcut, and the snapping grid stays small.
   */
  snapEdgeCount: number;
  /** 1 when the edge belongs to the largest connected piece (the only one queries snap to). */
  edgeInMain: Uint8Array;
  grid: EdgeGrid;
}

/** Vertices closer than this (degrees) are the same point: MARNET repeats shared vertices exactly. */
const MERGE_PRECISION = 1e6;

export interface BuildOptions {
  /** Grid cell size for the stitching index, degrees. */
  cellDegrees?: number;
  /** Grid cell size for the snapping index, degrees (finer: fewer edges per cell looked at per query). */
  snapCellDegrees?: number;
  /** Dangling ends of detached pieces within this many km of another piece's edge are joined to it. */
  stitchKm?: number;
  /**
   * Lines added after the stitching (open-sea shortcuts between vertices of the network): they
   * take no part in it, so long lines do not slow it down.
   */
  extraLines?: ReadonlyArray<Polyline>;
  /**
   * Lines added after the stitching but snapped onto like the first (generated island rings and
   * their links, which join the network at its vertices): a piece's loose end is still stitched to
   * the line it was stitched to without them.
   */
  joinedLines?: ReadonlyArray<Polyline>;
}

/**
 * MARNET has many short pieces (port approaches, rivers) whose ends stop on, or just short of,
 * another line's interior instead of at a shared vertex: left alone they are unreachable islands.
 */
const DEFAULT_STITCH_KM = 10;

export function buildSeaGraph(
  lines: ReadonlyArray<Polyline>,
  areas: ReadonlyArray<PassageArea>,
  options: BuildOptions = {}
): SeaGraph {
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
  const addLines = (list: ReadonlyArray<Polyline>): void => {
    for (const line of list) {
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
  };
  addLines(lines);
  const beforeStitch = lats.length;
  const stitched = stitchComponents(
    lats,
    lngs,
    ea,
    eb,
    options.stitchKm ?? DEFAULT_STITCH_KM,
    options.cellDegrees ?? 1
  );
  // Vertices made by splitting edges are vertices too: later lines (shortcuts) must find them.
  for (let v = beforeStitch; v < lats.length; v++) {
    const keyLng = lngs[v] >= 180 ? lngs[v] - 360 : lngs[v];
    const key = `${Math.round(lats[v] * MERGE_PRECISION)}:${Math.round(keyLng * MERGE_PRECISION)}`;
    if (!vertexOf.has(key)) vertexOf.set(key, v);
  }
  if (options.joinedLines) addLines(options.joinedLines);
  const snapEdgeCount = ea.length;
  if (options.extraLines) addLines(options.extraLines);
  const n = lats.length;
  const m = ea.length;
  const lat = Float64Array.from(lats);
  const lng = Float64Array.from(lngs);
  const { ux, uy, uz } = unitVectors(lat, lng);

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
    adjTarget[fill[a]] = b;
    adjEdge[fill[a]++] = e;
    adjTarget[fill[b]] = a;
    adjEdge[fill[b]++] = e;
  }

  const edgeInMain = mainComponentEdges(n, edgeA, edgeB);
  const partial = {
    stitched,
    snapEdgeCount,
    edgeInMain,
    vertexCount: n,
    edgeCount: m,
    lat,
    lng,
    ux,
    uy,
    uz,
    adjOffset,
    adjTarget,
    adjEdge,
    edgeA,
    edgeB,
    edgeLength,
    edgePassage,
  };
  return { ...partial, grid: buildEdgeGrid(partial, options.snapCellDegrees ?? 1, snapEdgeCount) };
}

function unitVectors(
  lat: Float64Array,
  lng: Float64Array
): { ux: Float64Array; uy: Float64Array; uz: Float64Array } {
  const n = lat.length;
  const ux = new Float64Array(n);
  const uy = new Float64Array(n);
  const uz = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const u = toUnit(lat[i], lng[i]);
    ux[i] = u[0];
    uy[i] = u[1];
    uz[i] = u[2];
  }
  return { ux, uy, uz };
}

/**
 * Joins each dangling end (degree 1) of a piece that is not the largest connected piece to the
 * nearest edge of another piece within `maxKm`: that edge is split at the nearest point and a
 * connector edge added. Mutates the vertex and edge lists; returns the number of joins.
 */
function stitchComponents(
  lats: number[],
  lngs: number[],
  ea: number[],
  eb: number[],
  maxKm: number,
  cellDegrees: number
): number {
  const n = lats.length;
  const sets = new UnionFind(n);
  const find = (x: number): number => sets.find(x);
  const degree = new Int32Array(n);
  for (let e = 0; e < ea.length; e++) {
    degree[ea[e]]++;
    degree[eb[e]]++;
    sets.union(ea[e], eb[e]);
  }
  const largest = sets.largestRoot();

  const lat = Float64Array.from(lats);
  const lng = Float64Array.from(lngs);
  const { ux, uy, uz } = unitVectors(lat, lng);
  const geometry = {
    edgeCount: ea.length,
    edgeA: Int32Array.from(ea),
    edgeB: Int32Array.from(eb),
    ux,
    uy,
    uz,
  };
  const grid = buildEdgeGrid(geometry, cellDegrees);
  const seen = new Int32Array(ea.length);
  const maxAngle = maxKm / MEAN_RADIUS_KM;

  // Split requests per edge: the point on it and the dangling vertex to connect.
  const splits = new Map<number, Array<{ point: Vec3; vertex: number }>>();
  let stamp = 0;
  for (let v = 0; v < n; v++) {
    if (degree[v] !== 1 || find(v) === find(largest)) continue;
    const own = find(v);
    const hit = nearestEdge(
      { ...geometry, grid },
      lat[v],
      lng[v],
      [ux[v], uy[v], uz[v]],
      (e) => find(ea[e]) !== own,
      seen,
      ++stamp
    );
    if (!hit || hit.angle > maxAngle) continue;
    let list = splits.get(hit.edge);
    if (!list) splits.set(hit.edge, (list = []));
    list.push({ point: hit.point, vertex: v });
  }

  const removed = new Set<number>();
  for (const [e, list] of splits) {
    const a = ea[e];
    const b = eb[e];
    const A: Vec3 = [ux[a], uy[a], uz[a]];
    const span = angleBetween(ux[a], uy[a], uz[a], ux[b], uy[b], uz[b]);
    const points = list
      .map((s) => ({
        ...s,
        t: span > 0 ? angleBetween(A[0], A[1], A[2], s.point[0], s.point[1], s.point[2]) / span : 0,
      }))
      .sort((x, y) => x.t - y.t);
    removed.add(e);
    let prev = a;
    for (const s of points) {
      let at: number;
      if (s.t <= 1e-9) at = a;
      else if (s.t >= 1 - 1e-9) at = b;
      else {
        const ll = toLatLng(s.point);
        at = lats.length;
        lats.push(ll.lat);
        lngs.push(ll.lng);
      }
      if (at !== prev) {
        ea.push(prev);
        eb.push(at);
      }
      prev = at;
      if (s.vertex !== at) {
        ea.push(s.vertex);
        eb.push(at);
      }
    }
    if (prev !== b) {
      ea.push(prev);
      eb.push(b);
    }
  }
  if (removed.size) {
    let w = 0;
    for (let e = 0; e < ea.length; e++) {
      if (removed.has(e)) continue;
      ea[w] = ea[e];
      eb[w] = eb[e];
      w++;
    }
    ea.length = w;
    eb.length = w;
  }
  return [...splits.values()].reduce((sum, l) => sum + l.length, 0);
}

/** Flags the edges of the largest connected piece. */
function mainComponentEdges(n: number, edgeA: Int32Array, edgeB: Int32Array): Uint8Array {
  const sets = new UnionFind(n);
  for (let e = 0; e < edgeA.length; e++) sets.union(edgeA[e], edgeB[e]);
  const root = sets.find(sets.largestRoot());
  const flags = new Uint8Array(edgeA.length);
  for (let e = 0; e < edgeA.length; e++) flags[e] = sets.find(edgeA[e]) === root ? 1 : 0;
  return flags;
}
