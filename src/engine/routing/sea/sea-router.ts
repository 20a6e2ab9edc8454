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
import { angleBetween, geodesicMeters, MEAN_RADIUS_M, toUnit, Vec3 } from "../../geo/geodesy";
import { ByteLru, PATH_POINT_BYTES, RESULT_BYTES } from "../../byte-lru";
import { buildChainGraph, ChainGraph } from "./chains";
import { ChainRouteFinder, closedPassageMask, EndPoint } from "./chain-route";
import { compactRoute, withLazyPath } from "./compact-route";
import { ContractionHierarchy } from "./contraction";
import { SeaGraph } from "./graph";
import { LandIndex } from "./land-crossing";
import { LandRaster } from "./land-mask";
import { unwrapLongitudes } from "./longitudes";
import { PassageArea, passageOfId } from "./passages";
import { pathPoints, RouteAssembler } from "./route-assembly";
import { SeaSnapper, Snap } from "./sea-snap";
import { StraightLegs } from "./straight-legs";
import {
  CANALS,
  DIRECT_MAX_M,
  PORT_SHORE_M,
  REMEMBERED_ENDS,
  SEA_CACHE_BYTES,
  WATER_DETOUR,
  WATER_DETOUR_MAX_M,
  WATER_MOVE_MAX_M,
  WATER_SIDES,
} from "./tuning";

export { closedPassageMask };
export type { Snap };

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
   * Fine regions (src/engine/routing/sea-fine/): a route with an end in one may run on its 1:10m
   * water grid (and on by `network`, this router's own search between two points) unless this
   * router's own route is clear of 1:10m land and about as short; undefined (or null) from it
   * leaves the route to this router.
   */
  fine?: {
    route(
      from: LatLng,
      to: LatLng,
      closed: ReadonlySet<Passage>,
      network: (from: LatLng, to: LatLng) => SeaRoute | null
    ): SeaRoute | null | undefined;
  };
}

export class NetworkSeaRouter implements SeaRouter {
  readonly chains: ChainGraph;
  private readonly cache: ByteLru<string, SeaRoute | null>;
  private readonly keyDecimals: number;
  private readonly coast: LandIndex | undefined;
  private readonly canalMask: number;
  private readonly fine: SeaRouterOptions["fine"];
  /** Straight legs, end straightening and smoothing (with a land raster). */
  private readonly straight: StraightLegs | undefined;
  private readonly snapper: SeaSnapper;
  private readonly finder: ChainRouteFinder;
  private readonly assembler: RouteAssembler;
  /** Query points inside land and the water each starts from (null: none near). */
  private waterPoints = new CoordMap<Array<LatLng & { moveM: number }>>();
  /** Remembered query points, per closed-passage mask. */
  private readonly ends = new Map<number, CoordMap<EndPoint>>();
  private remembered = 0;
  private readonly rememberedEnds: number;
  /** Number of searches run (cache misses), for tests and benchmarks. */
  searches = 0;

  constructor(
    readonly graph: SeaGraph,
    options: SeaRouterOptions = {}
  ) {
    this.cache = new ByteLru(options.cacheBytes ?? SEA_CACHE_BYTES);
    this.keyDecimals = options.cacheKeyDecimals ?? 5;
    this.rememberedEnds = options.rememberedEnds ?? REMEMBERED_ENDS;
    const useAStar = options.useAStar ?? true;
    this.chains = options.chains ?? buildChainGraph(graph);
    this.fine = options.fine;
    this.coast = options.land ? options.coast : undefined;
    this.canalMask = closedPassageMask(CANALS);
    this.straight = options.land
      ? new StraightLegs(options.land, this.coast, options.areas ?? [])
      : undefined;
    this.snapper = new SeaSnapper(graph, options.land, this.coast, options.areas ?? []);
    this.finder = new ChainRouteFinder(
      graph,
      this.chains,
      useAStar,
      (options.useHierarchies ?? true) && useAStar
    );
    for (const h of options.hierarchies ?? []) this.addHierarchy(h);
    this.assembler = new RouteAssembler(graph, this.chains, this.finder, this.straight);
  }

  /** Of the searches run, those answered with a contraction hierarchy. */
  get hierarchyHits(): number {
    return this.finder.hierarchyHits;
  }

  addHierarchy(h: ContractionHierarchy): void {
    this.finder.addHierarchy(h);
  }

  hasHierarchy(closed: Iterable<Passage>): boolean {
    return this.finder.hasHierarchy(closedPassageMask(closed));
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
      // A route with an end in a fine region may come from its 1:10m grid instead.
      const find = (p: LatLng, q: LatLng): SeaRoute | null =>
        this.fine?.route(p, q, options.closed, (x, y) => this.search(x, y, closedMask)) ??
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
    const s = this.snapper.candidates(point, closedPassageMask(closed))[0];
    return s ? this.snapper.exact(point, s) : null;
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
      points.set(
        point.lat,
        point.lng,
        (end = { snaps: this.snapper.candidates(point, closedMask) })
      );
    }
    return end;
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
    // approach lane that leads the wrong way, or water that does). The great circle is measured
    // only for an end that has water to choose (most have none: no GeographicLib call for them).
    const detours = (meters: number): boolean => {
      // The spherical distance settles most routes without GeographicLib: the ellipsoid's is
      // within SPHERE_ERROR of it, so outside that margin both give the same answer.
      const s = sphericalMeters(from, to);
      if (
        s > WATER_DETOUR_MAX_M * (1 + SPHERE_ERROR) ||
        meters <= WATER_DETOUR * s * (1 - SPHERE_ERROR)
      )
        return false;
      const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
      return gc < WATER_DETOUR_MAX_M && meters > WATER_DETOUR * gc;
    };
    if ((wa || wb) && (!best || detours(best.meters))) {
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
    // A point that 1:50m draws in the middle of its island or peninsula (Road Town, Charlestown)
    // is about as near the water on another side, the one facing the other end: that way too.
    const fa = wa && this.waterOf(from, to);
    const fb = wb && this.waterOf(to, from);
    if (fa !== wa || fb !== wb) {
      const r = this.searchFrom(
        from,
        to,
        fa !== wa ? fa : useA ? wa : null,
        fb !== wb ? fb : useB ? wb : null,
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
  private waterOf(p: LatLng, toward?: LatLng): (LatLng & { moveM: number }) | null {
    const inCanal = this.snapper.inCanal;
    if (!this.coast || (inCanal && inCanal(p.lat, p.lng))) return null;
    let ws = this.waterPoints.get(p.lat, p.lng);
    if (ws === undefined) {
      if (this.waterPoints.size > this.rememberedEnds) this.waterPoints = new CoordMap();
      ws = this.coast
        .watersAround(p.lat, p.lng, WATER_MOVE_MAX_M, WATER_SIDES)
        .map((w) => ({ ...w, moveM: geodesicMeters(p.lat, p.lng, w.lat, w.lng) }));
      this.waterPoints.set(p.lat, p.lng, ws);
    }
    if (!ws.length) return null;
    if (!toward || ws.length === 1) return ws[0];
    // The side that faces `toward`: the least move plus the straight way on from the water.
    let best = ws[0];
    let cost = Infinity;
    for (const w of ws) {
      const c = w.moveM + sphericalMeters(w, toward);
      if (c < cost) {
        cost = c;
        best = w;
      }
    }
    return best;
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

    const found = this.finder.find(startPoint, endPoint, closedMask);
    if (!found) return null;
    const start = this.snapper.exact(from, starts[found.startSnap]);
    const end = this.snapper.exact(to, ends[found.endSnap]);
    const assembler = this.assembler;
    const { meters, passages } = assembler.assemble(
      from,
      to,
      start,
      end,
      startPoint,
      endPoint,
      found
    );
    // The path is made again when it is read: a lane sheet wants distances only, and keeping
    // thousands of paths cost more than making again the few that are read.
    const snapDistance = { origin: start.offset, destination: end.offset };
    return withLazyPath({ meters, passages, snapDistance }, () => {
      if (this.straight) this.straight.refusedMask = closedMask | this.canalMask;
      assembler.assemble(from, to, start, end, startPoint, endPoint, found);
      return pathPoints(assembler.path);
    });
  }
}

const NOT_MOVED = Object.freeze({ origin: 0, destination: 0 });

/**
 * Bound on |ellipsoidal / spherical (MEAN_RADIUS_M) − 1| for any two points: the WGS84 geodesic
 * differs from the mean-radius great circle by under 0.6 % (flattening 1/298); 1 % leaves room.
 */
export const SPHERE_ERROR = 0.01;

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

function sphericalMeters(a: LatLng, b: LatLng): number {
  const ua = toUnit(a.lat, a.lng);
  const ub = toUnit(b.lat, b.lng);
  return MEAN_RADIUS_M * angleBetween(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]);
}

export { unwrapLongitudes };
export type { Vec3 };
