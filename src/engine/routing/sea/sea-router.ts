/**
 * Port-to-port sea distances on the network: snap both ends onto the nearest open edges, then find
 * the shortest way between them on the chain graph (the network contracted to its junctions).
 * For a closed-passage set with a prebuilt contraction hierarchy (the defaults of DEEPSEA and
 * SHORTSEA), a query is two small upward searches; for any other set, an A* search on the junctions.
 * Results are LRU-cached.
 *
 * Around that search: a point inside land starts at the nearest water (its port's water area);
 * where the water between the two points is open the route is the straight line; otherwise the
 * network route's ends are straightened and its corners smoothed against exact land
 * (straight-legs.ts). B→A is A→B read backwards, so both directions give the same distance.
 *
 * Paths: the route's polyline from origin to destination. Longitudes are unwrapped so that
 * consecutive points never jump by more than 180°: a trans-Pacific route eastward from Asia goes
 * on past 180 (e.g. 190 = 170°W) instead of jumping to -180, so maps draw one continuous line.
 */
import type { RoutedPath, SeaRouter } from "../../route-engine";
import { LatLng, Passage } from "../../types";
import { CoordMap } from "../../geo/coord-map";
import { buildChainGraph, ChainGraph, passageBit } from "./chains";
import { ContractionHierarchy } from "./contraction";
import { HierarchySearch, UpwardSpace } from "./hierarchy-search";
import {
  angleBetween,
  fastGeodesicMeters,
  geodesicMeters,
  LOWER_BOUND_RADIUS_M,
  MEAN_RADIUS_M,
  toLatLng,
  toUnit,
  Vec3,
} from "../../geo/geodesy";
import { SeaGraph } from "./graph";
import { JunctionSearch, JunctionStart } from "./junction-search";
import { LandIndex } from "./land-crossing";
import { connectorIsClear, connectorLandSamples, LandRaster } from "./land-mask";
import { compactRoute, withLazyPath } from "./compact-route";
import { PathBuffer } from "./path-buffer";
import { unwrapLongitudes } from "./longitudes";
import { LegMemo, StraightLegs } from "./straight-legs";
import { ByteLru, PATH_POINT_BYTES, RESULT_BYTES } from "../../byte-lru";
import { PassageArea, passageId, passageOfId, pointInPolygon } from "./passages";
import { EdgeSnap, edgesWithin, nearEdges } from "./spatial-index";
import {
  CANDIDATE_FACTOR,
  CANDIDATE_SLACK_M,
  CANDIDATE_BAND_M,
  MAX_CANDIDATES,
  LONG_SPOKE_M,
  SPOKE_RADIUS_M,
  SEA_CACHE_BYTES,
  REMEMBERED_ENDS,
  DIRECT_MAX_M,
  CONNECTOR_STEP_KM,
  CANALS,
  THIN_LAND_SAMPLES,
  AT_VERTEX_M,
  WATER_MOVE_MAX_M,
  WATER_DETOUR_MAX_M,
  WATER_DETOUR,
  CONNECTOR_SKIP_FROM_KM,
  CONNECTOR_SKIP_TO_KM,
  PORT_SHORE_M,
} from "./tuning";

export type SeaRoute = RoutedPath & {
  passages: Passage[];
  /** Metres from each query point to the network point it joined (0: straight from the point). */
  snapDistance: { origin: number; destination: number };
};

export interface SeaRouterOptions {
  /** Budget of the route cache (see byte-lru.ts); SEA_CACHE_BYTES by default. */
  cacheBytes?: number;
  /** Query points remembered (snaps, upward spaces, legs tried); REMEMBERED_ENDS by default. */
  rememberedEnds?: number;
  /** Decimals of degrees the cache key keeps (5 ≈ 1 m). */
  cacheKeyDecimals?: number;
  /** false = plain Dijkstra on the junctions, no lower bound and no hierarchy; for checks and benchmarks. */
  useAStar?: boolean;
  /** false = never use contraction hierarchies (always search). */
  useHierarchies?: boolean;
  /** The chain graph of `graph`, when already built. */
  chains?: ChainGraph;
  /** Contraction hierarchies, each for one set of closed passages (see buildContractionHierarchy). */
  hierarchies?: ReadonlyArray<ContractionHierarchy>;
  /**
   * Land raster: a snap whose straight connector from the query point crosses land is dropped when
   * another candidate's does not (a port is reached from the water, not over a headland).
   */
  land?: LandRaster;
  /**
   * Exact land (Natural Earth rings, with `land`): a connector or straight leg the raster lets
   * through must also cross none of it, but for its first kilometre at a query point (the port's
   * own shore). The raster's cells (≈ 5 km) miss thin land: spits, moles, narrow headlands.
   */
  coast?: LandIndex;
  /**
   * Passage areas (with `land`): a straight leg that would enter one is never taken, so straight
   * legs cannot bypass a canal or strait (or its closure).
   */
  areas?: ReadonlyArray<PassageArea>;
  /**
   * Fine regions (src/engine/routing/sea-fine/): a route with both ends in one runs on its 1:10m
   * water grid unless this router's own route (`network`) is clear of 1:10m land and about as
   * short; undefined (or null) from it leaves the route to this router.
   */
  fine?: {
    route(
      from: LatLng,
      to: LatLng,
      closed: ReadonlySet<Passage>,
      network: () => SeaRoute | null
    ): SeaRoute | null | undefined;
  };
}

export interface Snap {
  edge: number;
  lat: number;
  lng: number;
  /** Metres from the query point to the snap point. */
  offset: number;
  /** Metres from the snap point to the edge's A and B ends (toA + toB = the edge's length). */
  toA: number;
  toB: number;
}

/** Where a search may enter the junction graph from a snap: one end of the snapped chain. */
interface Port {
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
interface EndPoint extends LegMemo {
  snaps: Snap[];
  ports?: Port[];
  space?: UpwardSpace;
}

interface Found {
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

export class NetworkSeaRouter implements SeaRouter {
  readonly chains: ChainGraph;
  private readonly hierarchies = new Map<number, ContractionHierarchy>();
  private readonly cache: ByteLru<string, SeaRoute | null>;
  private readonly keyDecimals: number;
  private readonly useAStar: boolean;
  private readonly useHierarchies: boolean;
  private readonly land: LandRaster | undefined;
  private readonly coast: LandIndex | undefined;
  private readonly canalMask: number;
  private readonly inCanal: ((lat: number, lng: number) => boolean) | undefined;
  private readonly fine: SeaRouterOptions["fine"];
  /** Straight legs, end straightening and smoothing (with a land raster). */
  private readonly straight: StraightLegs | undefined;
  private readonly edgeSeen: Int32Array;
  private readonly fromSearch: JunctionSearch;
  private readonly hierarchySearch: HierarchySearch;
  private stamp = 0;
  private readonly path = new PathBuffer();
  /** Query points inside land and the water each starts from (null: none near). */
  private waterPoints = new CoordMap<(LatLng & { moveM: number }) | null>();
  /** Remembered query points, per closed-passage mask. */
  private readonly ends = new Map<number, CoordMap<EndPoint>>();
  private remembered = 0;
  private readonly rememberedEnds: number;
  private readonly finish = new Map<number, { cost: number; tag: number }>();
  /** Number of searches run (cache misses), for tests and benchmarks. */
  searches = 0;
  /** Of those, answered with a contraction hierarchy. */
  hierarchyHits = 0;

  constructor(
    readonly graph: SeaGraph,
    options: SeaRouterOptions = {}
  ) {
    this.cache = new ByteLru(options.cacheBytes ?? SEA_CACHE_BYTES);
    this.keyDecimals = options.cacheKeyDecimals ?? 5;
    this.rememberedEnds = options.rememberedEnds ?? REMEMBERED_ENDS;
    this.useAStar = options.useAStar ?? true;
    this.useHierarchies = (options.useHierarchies ?? true) && this.useAStar;
    this.chains = options.chains ?? buildChainGraph(graph);
    this.land = options.land;
    this.fine = options.fine;
    this.coast = options.land ? options.coast : undefined;
    this.canalMask = closedPassageMask(CANALS);
    this.straight = options.land
      ? new StraightLegs(options.land, this.coast, options.areas ?? [])
      : undefined;
    const canals = (options.areas ?? []).filter((a) => CANALS.includes(a.name));
    this.inCanal = canals.length ? passageTest(canals) : undefined;
    for (const h of options.hierarchies ?? []) this.addHierarchy(h);
    this.edgeSeen = new Int32Array(graph.edgeCount);
    this.fromSearch = new JunctionSearch(this.chains);
    this.hierarchySearch = new HierarchySearch(this.chains.junctionCount);
  }

  addHierarchy(h: ContractionHierarchy): void {
    if (h.junctionCount !== this.chains.junctionCount)
      throw new Error("contraction hierarchy built for another chain graph");
    this.hierarchies.set(h.closedMask, h);
  }

  hasHierarchy(closed: Iterable<Passage>): boolean {
    return this.hierarchies.has(closedPassageMask(closed));
  }

  route(from: LatLng, to: LatLng, options: { closed: ReadonlySet<Passage> }): SeaRoute | null {
    // The closed set by its bit mask: no sorted list of names per query.
    const closedMask = closedPassageMask(options.closed);
    const d = this.keyDecimals;
    // Joined, not a template: one flat string, not a tree of pieces, for each cached route.
    const key = [
      from.lat.toFixed(d),
      from.lng.toFixed(d),
      to.lat.toFixed(d),
      to.lng.toFixed(d),
      closedMask,
    ].join(",");
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    // One route for both directions: B→A is A→B read backwards, so the two distances are equal
    // (the searches and straightening from either end would otherwise differ by metres).
    let result: SeaRoute | null;
    if (to.lat < from.lat || (to.lat === from.lat && to.lng < from.lng)) {
      const r = this.route(to, from, options);
      result = r && reversedRoute(r);
    } else {
      // The cache keeps the numbers only: the path is made again when it is first read (the same
      // search, so the same points), then kept and counted. A route just searched holds its ends'
      // search state, kilobytes that thousands of cached lanes must not keep alive.
      // A route with both ends in one fine region may come from its 1:10m grid instead.
      const find = (p: LatLng, q: LatLng): SeaRoute | null =>
        this.fine?.route(p, q, options.closed, () => this.search(p, q, closedMask)) ??
        this.search(p, q, closedMask);
      const r = find(from, to);
      let path: LatLng[] | undefined;
      // The ends as plain points: a caller's place objects (names, codes) are not kept alive.
      const a = { lat: from.lat, lng: from.lng };
      const b = { lat: to.lat, lng: to.lng };
      const again = (): LatLng[] => {
        if (!path) {
          path = find(a, b)!.path;
          this.cache.grew(key, path.length * PATH_POINT_BYTES);
        }
        return path;
      };
      result = r && {
        meters: r.meters,
        passages: r.passages,
        snapDistance: r.snapDistance,
        get path(): LatLng[] {
          return again();
        },
      };
    }
    this.cache.set(key, result, RESULT_BYTES);
    return result;
  }

  /** Nearest point on an open edge of the main network (exposed for tests). */
  snap(point: LatLng, closed: ReadonlySet<Passage> = new Set()): Snap | null {
    const s = this.snapCandidates(point, closedPassageMask(closed))[0];
    return s ? this.exactSnap(point, s) : null;
  }

  /**
   * A query point as the router remembers it: a lane sheet names the same ports again and again,
   * and snapping (nearest edges, connector checks over the land raster) and the upward search
   * are most of a query. Callers only read the lists.
   */
  private endPoint(point: LatLng, closedMask: number): EndPoint {
    let points = this.ends.get(closedMask);
    if (!points) this.ends.set(closedMask, (points = new CoordMap()));
    let end = points.get(point.lat, point.lng);
    if (!end) {
      if (++this.remembered > this.rememberedEnds) {
        this.ends.clear();
        this.remembered = 1;
        this.ends.set(closedMask, (points = new CoordMap()));
      }
      points.set(point.lat, point.lng, (end = { snaps: this.snapCandidates(point, closedMask) }));
    }
    return end;
  }

  /**
   * The nearest open edge and the other open edges almost as near: the search picks among them,
   * so a port whose nearest line is a dead-end approach can still leave by the lane next to it.
   * Distances here are spherical (for ranking); the chosen snaps are measured exactly at the end.
   */
  private snapCandidates(point: LatLng, closedMask: number): Snap[] {
    const g = this.graph;
    const accept = (e: number): boolean =>
      e < g.snapEdgeCount &&
      g.edgeInMain[e] === 1 &&
      (passageBit(g.edgePassage[e]) & closedMask) === 0;
    const p = toUnit(point.lat, point.lng);
    // Far from the network (an inland or polar point), look at most CANDIDATE_BAND_M beyond the nearest edge.
    const band = (nearest: number): number =>
      nearest +
      Math.min(nearest * (CANDIDATE_FACTOR - 1), CANDIDATE_BAND_M / MEAN_RADIUS_M) +
      CANDIDATE_SLACK_M / MEAN_RADIUS_M;
    let near = nearEdges(
      g,
      point.lat,
      point.lng,
      p,
      accept,
      this.edgeSeen,
      ++this.stamp,
      band,
      MAX_CANDIDATES
    );
    if (!near.length) return [];
    // A long dead-end approach leg (MARNET draws some ports as one long spoke, e.g. Colombo from the
    // west) only lets ships arrive from its far end: look wider for the lanes that pass nearby.
    if (this.isLongSpoke(near[0].edge) && band(near[0].angle) < SPOKE_RADIUS_M / MEAN_RADIUS_M) {
      near = edgesWithin(
        g,
        point.lat,
        point.lng,
        p,
        SPOKE_RADIUS_M / MEAN_RADIUS_M,
        accept,
        this.edgeSeen,
        ++this.stamp
      ).slice(0, MAX_CANDIDATES);
    }
    const hits = near.map((h) => this.roughSnap(h));
    if (!this.land) return hits;
    const land = this.land;
    const clear = hits.filter(
      (s) =>
        connectorIsClear(
          land,
          point,
          s,
          CONNECTOR_SKIP_FROM_KM,
          CONNECTOR_SKIP_TO_KM,
          CONNECTOR_STEP_KM
        ) && this.connectorClearOfCoast(point, s)
    );
    if (clear.length) return clear;
    const over = hits.map((s) =>
      connectorLandSamples(land, point, s, CONNECTOR_SKIP_FROM_KM, CONNECTOR_STEP_KM)
    );
    // Clear of land but for a few cells of the raster (a harbour or channel it fills in).
    const exactClear = this.coast
      ? hits.filter((s, i) => over[i] <= THIN_LAND_SAMPLES && this.connectorClearOfCoast(point, s))
      : [];
    if (exactClear.length) return exactClear;
    // No way off the coast by water (a port inland at this scale): the snaps over the least land.
    const least = Math.min(...over);
    return hits.filter((_, i) => over[i] === least);
  }

  /**
   * A connector from a query point crosses no exact land beyond the port's own shore (true without
   * exact land; a connector along a canal is inland water, not checked).
   */
  private connectorClearOfCoast(point: LatLng, s: Snap): boolean {
    if (!this.coast) return true;
    const midInCanal =
      this.inCanal !== undefined && this.inCanal((point.lat + s.lat) / 2, (point.lng + s.lng) / 2);
    return midInCanal || !this.coast.crossesLand(point, s, PORT_SHORE_M, 0);
  }

  private isLongSpoke(e: number): boolean {
    const g = this.graph;
    const deg = (v: number): number => g.adjOffset[v + 1] - g.adjOffset[v];
    return g.edgeLength[e] > LONG_SPOKE_M && (deg(g.edgeA[e]) === 1 || deg(g.edgeB[e]) === 1);
  }

  private roughSnap(hit: EdgeSnap): Snap {
    const g = this.graph;
    const a = g.edgeA[hit.edge];
    const b = g.edgeB[hit.edge];
    const span = angleBetween(g.ux[a], g.uy[a], g.uz[a], g.ux[b], g.uy[b], g.uz[b]);
    const t =
      span > 0
        ? angleBetween(g.ux[a], g.uy[a], g.uz[a], hit.point[0], hit.point[1], hit.point[2]) / span
        : 0;
    // A snap on a vertex (a port that is the first point of its approach) takes the vertex's own
    // coordinates: the unit-vector round trip would put it a few nanometres off, and the path a
    // needless leg of that length.
    const atVertex = span * MEAN_RADIUS_M * Math.min(t, 1 - t) < AT_VERTEX_M;
    const p = atVertex
      ? t < 0.5
        ? { lat: g.lat[a], lng: g.lng[a] }
        : { lat: g.lat[b], lng: g.lng[b] }
      : toLatLng(hit.point);
    const toA = g.edgeLength[hit.edge] * Math.min(1, t);
    return {
      edge: hit.edge,
      lat: p.lat,
      lng: p.lng,
      offset: hit.angle * MEAN_RADIUS_M,
      toA,
      toB: g.edgeLength[hit.edge] - toA,
    };
  }

  /** The snap with its offset and its distance to the edge's A end measured on the ellipsoid. */
  private exactSnap(point: LatLng, s: Snap): Snap {
    const g = this.graph;
    const a = g.edgeA[s.edge];
    const len = g.edgeLength[s.edge];
    // Split the edge's exact length in the ratio of the two (fast) partial lengths: a snap on a
    // vertex gets exactly 0 or the whole length, whichever edge it was found on.
    const da = fastGeodesicMeters(s.lat, s.lng, g.lat[a], g.lng[a]);
    const db = fastGeodesicMeters(s.lat, s.lng, g.lat[g.edgeB[s.edge]], g.lng[g.edgeB[s.edge]]);
    const toA = da + db > 0 ? (len * da) / (da + db) : 0;
    return {
      ...s,
      offset: fastGeodesicMeters(point.lat, point.lng, s.lat, s.lng),
      toA,
      toB: len - toA,
    };
  }

  /**
   * A point inside land (a port whose quays 1:50m fills in, a LOCODE at the town centre) may also
   * start at the nearest water within WATER_MOVE_MAX_M, its port's water area: the route is the
   * shorter of the two (a port the network reaches by an approach lane keeps that way in when it
   * is the shorter). The move is part of the distance and of snapDistance.
   */
  private search(from: LatLng, to: LatLng, closedMask: number): SeaRoute | null {
    if (from.lat === to.lat && from.lng === to.lng) return this.searchOnWater(from, to, closedMask);
    const wa = this.waterOf(from);
    const wb = this.waterOf(to);
    // An end starts at its water when that is nearer than its network connection.
    const useA = wa !== null && this.networkOffset(from, closedMask) > wa.moveM;
    const useB = wb !== null && this.networkOffset(to, closedMask) > wb.moveM;
    let best = this.searchFrom(from, to, useA ? wa : null, useB ? wb : null, closedMask);
    // A short route that detours far may do better with the other choice at an end (a port's
    // approach lane that leads the wrong way, or water that does).
    const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
    const detours = !best || (gc < WATER_DETOUR_MAX_M && best.meters > WATER_DETOUR * gc);
    if (detours && (wa || wb)) {
      // The other choice at every end that has one.
      const r = this.searchFrom(
        from,
        to,
        wa && !useA ? wa : null,
        wb && !useB ? wb : null,
        closedMask
      );
      if (r && (!best || r.meters < best.meters)) best = r;
    }
    return best;
  }

  /** Metres from a point to the nearest open network line it may join (rough; Infinity: none). */
  private networkOffset(p: LatLng, closedMask: number): number {
    return this.endPoint(p, closedMask).snaps[0]?.offset ?? Infinity;
  }

  /** The route from `from` to `to`, starting at water `wa` / ending at water `wb` when given. */
  private searchFrom(
    from: LatLng,
    to: LatLng,
    wa: (LatLng & { moveM: number }) | null,
    wb: (LatLng & { moveM: number }) | null,
    closedMask: number
  ): SeaRoute | null {
    if (!wa && !wb) return this.searchOnWater(from, to, closedMask);
    const r = this.searchOnWater(wa ?? from, wb ?? to, closedMask);
    if (!r) return null;
    const moveA = wa ? wa.moveM : 0;
    const moveB = wb ? wb.moveM : 0;
    return withLazyPath(
      {
        meters: r.meters + moveA + moveB,
        passages: r.passages,
        snapDistance: {
          origin: r.snapDistance.origin + moveA,
          destination: r.snapDistance.destination + moveB,
        },
      },
      () => unwrapLongitudes([...(wa ? [{ ...from }] : []), ...r.path, ...(wb ? [{ ...to }] : [])])
    );
  }

  /** The nearest water to a point inside land, within WATER_MOVE_MAX_M (none in a canal area). */
  private waterOf(p: LatLng): (LatLng & { moveM: number }) | null {
    if (!this.coast || (this.inCanal && this.inCanal(p.lat, p.lng))) return null;
    let w = this.waterPoints.get(p.lat, p.lng);
    if (w === undefined) {
      if (this.waterPoints.size > this.rememberedEnds) this.waterPoints = new CoordMap();
      const water = this.coast.nearestWater(p.lat, p.lng, WATER_MOVE_MAX_M);
      w = water && { ...water, moveM: geodesicMeters(p.lat, p.lng, water.lat, water.lng) };
      this.waterPoints.set(p.lat, p.lng, w);
    }
    return w;
  }

  /**
   * How far a point is moved onto the network: to its nearest line, or to water first (a point
   * inside land) and from there to the nearest line, whichever is nearer.
   */
  snapDistance(point: LatLng, closed: ReadonlySet<Passage> = new Set()): number | null {
    const here = this.snap(point, closed);
    const w = this.waterOf(point);
    const there = w && this.snap(w, closed);
    if (!here) return there ? w!.moveM + there.offset : null;
    return there ? Math.min(here.offset, w!.moveM + there.offset) : here.offset;
  }

  private searchOnWater(from: LatLng, to: LatLng, closedMask: number): SeaRoute | null {
    this.searches++;
    if (this.straight) this.straight.refusedMask = closedMask | this.canalMask;
    if (from.lat === to.lat && from.lng === to.lng)
      return compactRoute({
        meters: 0,
        path: [{ lat: from.lat, lng: from.lng }],
        passages: [],
        snapDistance: NOT_MOVED,
      });
    const startPoint = this.endPoint(from, closedMask);
    const endPoint = this.endPoint(to, closedMask);
    const starts = startPoint.snaps;
    const ends = endPoint.snaps;
    if (!starts.length || !ends.length) return null;
    const g = this.graph;

    // Open water all the way (and no closed passage or canal on the way): the straight line is
    // the route.
    if (
      this.straight &&
      sphericalMeters(from, to) <= DIRECT_MAX_M &&
      this.straight.isClear(from, to, true, true)
    ) {
      return compactRoute({
        meters: geodesicMeters(from.lat, from.lng, to.lat, to.lng),
        path: unwrapLongitudes([{ ...from }, { ...to }]),
        passages: this.straight.passages(from, to),
        snapDistance: NOT_MOVED,
      });
    }

    // Both points nearest to the same edge: the straight way between them is the route (unless
    // it crosses land the raster cannot see: then the way along the edge).
    if (
      starts[0].edge === ends[0].edge &&
      (!this.coast || !this.coast.crossesLand(from, to, PORT_SHORE_M, PORT_SHORE_M))
    ) {
      const meters = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
      const p = passageOfId(g.edgePassage[starts[0].edge]);
      return compactRoute({
        meters,
        path: unwrapLongitudes([{ ...from }, { ...to }]),
        passages: p ? [p] : [],
        snapDistance: NOT_MOVED,
      });
    }

    const found = this.bestRoute(startPoint, endPoint, closedMask);
    if (!found) return null;
    const { meters, passages } = this.assemble(from, to, startPoint, endPoint, found);
    // The path is made again when it is read: a lane sheet wants distances only, and keeping
    // thousands of paths cost more than making again the few that are read.
    const snapDistance = {
      origin: this.exactSnap(from, starts[found.startSnap]).offset,
      destination: this.exactSnap(to, ends[found.endSnap]).offset,
    };
    return withLazyPath({ meters, passages, snapDistance }, () => {
      if (this.straight) this.straight.refusedMask = closedMask | this.canalMask;
      this.assemble(from, to, startPoint, endPoint, found);
      return pathPoints(this.path);
    });
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
  private chainPosition(s: Snap): number {
    const cg = this.chains;
    const c = cg.edgeChain[s.edge];
    const k = cg.edgeIndex[s.edge];
    const base = cg.chainVertexOffset[c];
    const vk = cg.chainVertex[base + k];
    return cg.chainVertexAt[base + k] + (this.graph.edgeA[s.edge] === vk ? s.toA : s.toB);
  }

  private bestRoute(start: EndPoint, end: EndPoint, closedMask: number): Found | null {
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

  /** The route's metres and passages; its path is left in this.path. */
  private assemble(
    from: LatLng,
    to: LatLng,
    startPoint: EndPoint,
    endPoint: EndPoint,
    found: Found
  ): { meters: number; passages: Passage[] } {
    const starts = startPoint.snaps;
    const ends = endPoint.snaps;
    const g = this.graph;
    const cg = this.chains;
    const start = this.exactSnap(from, starts[found.startSnap]);
    const end = this.exactSnap(to, ends[found.endSnap]);
    const path = this.path;
    path.clear();
    const edges: number[] = [];
    const add = (lat: number, lng: number): void => path.add(lat, lng);
    const addVertex = (v: number): void => path.add(g.lat[v], g.lng[v]);
    /** Chain c's vertices at positions [from..to] (either direction) and its edges between them. */
    const walkChain = (
      c: number,
      fromPos: number,
      toPos: number,
      edgeFrom: number,
      edgeTo: number
    ): void => {
      const vb = cg.chainVertexOffset[c];
      const eb = vb - c;
      const step = toPos >= fromPos ? 1 : -1;
      for (let i = fromPos; i !== toPos + step; i += step) addVertex(cg.chainVertex[vb + i]);
      const estep = edgeTo >= edgeFrom ? 1 : -1;
      if (edgeFrom >= 0) {
        for (let k = edgeFrom; k !== edgeTo + estep; k += estep) {
          const e = cg.chainEdge[eb + k];
          edges.push(e);
          // Path points next to a passage edge bound the straightening of the route's ends.
          if (g.edgePassage[e] !== 0) {
            if (firstPassagePoint < 0)
              firstPassagePoint = Math.max(0, path.length - (toPos - fromPos) * step - 1);
            lastPassagePoint = path.length - 1;
          }
        }
      }
    };
    let firstPassagePoint = -1;
    let lastPassagePoint = -1;
    const chainEdges = (c: number): number =>
      cg.chainVertexOffset[c + 1] - cg.chainVertexOffset[c] - 1;

    add(from.lat, from.lng);
    add(start.lat, start.lng);
    const cs = cg.edgeChain[start.edge];
    const ks = cg.edgeIndex[start.edge];
    let meters: number;
    if (found.direct) {
      const ke = cg.edgeIndex[end.edge];
      if (ks < ke) walkChain(cs, ks + 1, ke, ks, ke);
      else if (ks > ke) walkChain(cs, ks, ke + 1, ks, ke);
      else edges.push(start.edge);
      meters =
        start.offset + Math.abs(this.chainPosition(start) - this.chainPosition(end)) + end.offset;
    } else {
      const sp = found.startPort!;
      const ep = found.endPort!;
      // Leave the start chain by the port's end.
      if (sp.towardB) walkChain(cs, ks + 1, chainEdges(cs), ks, chainEdges(cs) - 1);
      else walkChain(cs, ks, 0, ks, 0);
      let j = sp.junction;
      let middle = 0;
      for (const c of found.chains ?? []) {
        const n = chainEdges(c);
        middle += cg.chainLength[c];
        if (cg.chainA[c] === j) {
          walkChain(c, 0, n, 0, n - 1);
          j = cg.chainB[c];
        } else {
          walkChain(c, n, 0, n - 1, 0);
          j = cg.chainA[c];
        }
      }
      // Enter the end chain by the port's end.
      const ce = cg.edgeChain[end.edge];
      const ke = cg.edgeIndex[end.edge];
      if (ep.towardB) walkChain(ce, chainEdges(ce), ke + 1, chainEdges(ce) - 1, ke);
      else walkChain(ce, 0, ke, 0, ke);
      meters = this.portCost(start, sp) + middle + this.portCost(end, ep);
    }
    add(end.lat, end.lng);
    add(to.lat, to.lng);

    // Straighten the ends where the network zigzags near a port (never across a passage), then
    // the corners on the way.
    if (this.straight) {
      const startLimit = firstPassagePoint < 0 ? path.length - 1 : firstPassagePoint;
      const endLimit = lastPassagePoint < 0 ? 0 : lastPassagePoint;
      meters -= this.straight.straighten(path, startLimit, endLimit, startPoint, endPoint);
    }

    const passages: Passage[] = [];
    for (const e of edges) {
      const p = passageOfId(g.edgePassage[e]);
      if (p && passages[passages.length - 1] !== p) passages.push(p);
    }
    return { meters, passages };
  }

  /** Metres from the query point through its snap to the port's junction (exact snap). */
  private portCost(s: Snap, port: Port): number {
    const cg = this.chains;
    const c = cg.edgeChain[s.edge];
    const pos = this.chainPosition(s);
    return s.offset + (port.towardB ? cg.chainLength[c] - pos : pos);
  }
}

const NOT_MOVED = Object.freeze({ origin: 0, destination: 0 });

/** The route read from its end: same metres, passages and points in reverse order. */
function reversedRoute(r: SeaRoute): SeaRoute {
  const snapDistance = { origin: r.snapDistance.destination, destination: r.snapDistance.origin };
  return withLazyPath(
    { meters: r.meters, passages: [...r.passages].reverse(), snapDistance },
    () => {
      const points = [...r.path].reverse();
      // Unwrapped longitudes start near the other end now: shift them so the first is in [-180, 180].
      const shift = points.length ? 360 * Math.round(points[0].lng / 360) : 0;
      return shift === 0 ? points : points.map((p) => ({ lat: p.lat, lng: p.lng - shift }));
    }
  );
}

/** A circle round an area: its vertices' mean direction and the widest angle to a vertex (+1 km). */
/** Point-in-passage-area test with the areas' bounding boxes checked first (most samples are far from any). */
function passageTest(areas: ReadonlyArray<PassageArea>): (lat: number, lng: number) => boolean {
  const box = new Float64Array(areas.length * 4);
  areas.forEach((area, i) => {
    const lngs = area.polygon.map((q) => q[0]);
    const lats = area.polygon.map((q) => q[1]);
    box.set([Math.min(...lngs), Math.min(...lats), Math.max(...lngs), Math.max(...lats)], 4 * i);
  });
  return (lat: number, lng: number): boolean => {
    for (let i = 0; i < areas.length; i++) {
      if (lng < box[4 * i] || lat < box[4 * i + 1] || lng > box[4 * i + 2] || lat > box[4 * i + 3])
        continue;
      if (pointInPolygon(lng, lat, areas[i].polygon)) return true;
    }
    return false;
  };
}

/** An assembled path's points, longitudes unwrapped where it crosses ±180°. */
function pathPoints(path: PathBuffer): LatLng[] {
  return unwrapLongitudes(Array.from({ length: path.length }, (_, k) => path.point(k)));
}

function sphericalMeters(a: LatLng, b: LatLng): number {
  const ua = toUnit(a.lat, a.lng);
  const ub = toUnit(b.lat, b.lng);
  return MEAN_RADIUS_M * angleBetween(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]);
}

export { unwrapLongitudes };
export type { Vec3 };
