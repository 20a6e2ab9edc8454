/**
 * Straight legs of a sea route: whether a great-circle leg keeps to open water (clear of land and
 * of the areas of closed passages and canals), the straightening of a route's ends where the
 * network zigzags near a port, and any-angle smoothing of the rest (string-pull.ts). The router
 * asks; this module decides.
 */
import { LatLng } from "../../types";
import { CoordMap } from "../../geo/coord-map";
import { angleBetween, fastGeodesicMeters, MEAN_RADIUS_M, RAD } from "../../geo/geodesy";
import { LandIndex } from "./land-crossing";
import { connectorIsClear, crossesDeepLand, LandRaster } from "./land-mask";
import { PassageArea } from "./passages";
import { PassageLegs } from "./passage-legs";
import { PathBuffer } from "./path-buffer";
import { pullStraight } from "./string-pull";
import { tightenCorners } from "./tighten";
import {
  PULL_MAX_M,
  PULL_POINTS,
  PULL_OPTIONS,
  PULL_PASSES,
  INNER_LEGS_FROM,
  STRAIGHT_STEP_KM,
  QUICK_STEP_KM,
  QUICK_MIN_M,
  CONNECTOR_SKIP_FROM_KM,
  CONNECTOR_SKIP_TO_KM,
  HARBOUR_LEG_MAX_M,
  PORT_SHORE_M,
  TIGHTEN_OPTIONS,
  TIGHTEN_SHORE_M,
  TIGHTEN_SHORE_SHARE,
  TIGHTEN_MIN_DETOUR,
} from "./tuning";

/** What a query point remembers of the straight legs tried from it (by their far end). */
export interface LegMemo {
  legs?: CoordMap<boolean>;
  /** Straight legs tried to it (by their start), in smoothing. */
  legsTo?: CoordMap<boolean>;
}

export class StraightLegs {
  /** Passages a straight leg may not enter in the current query: the closed ones and the canals. */
  refusedMask = 0;
  private readonly legs: PassageLegs;
  private readonly pullUnits = new Float64Array(3 * (PULL_POINTS + 1));
  private readonly pullAlong = new Float64Array(PULL_POINTS + 1);
  private readonly startPoint: LatLng = { lat: 0, lng: 0 };
  private readonly endPoint: LatLng = { lat: 0, lng: 0 };
  /**
   * Straight legs between network points tried by smoothing, clear or not: by closed-passage
   * mask, then by the two ends (emptied when it holds too many start points).
   */
  private readonly innerLegs = new Map<number, CoordMap<CoordMap<boolean>>>();

  constructor(
    private readonly land: LandRaster,
    private readonly coast: LandIndex | undefined,
    areas: ReadonlyArray<PassageArea>
  ) {
    this.legs = new PassageLegs(areas);
  }

  /** The passages whose areas a straight leg crosses, in order. */
  passages(a: LatLng, b: LatLng): ReturnType<PassageLegs["listed"]> {
    return this.legs.listed(a, b, STRAIGHT_STEP_KM);
  }

  /**
   * Straightens both ends of `path` (not past `startLimit` from the start, nor before `endLimit`
   * from the end: the passages), then smooths what is left; returns the metres saved.
   */
  straighten(
    path: PathBuffer,
    startLimit: number,
    endLimit: number,
    start: LegMemo,
    end: LegMemo
  ): number {
    let saved = this.straightenEnd(path, startLimit, start);
    path.reverse();
    saved += this.straightenEnd(path, path.length - 1 - endLimit, end);
    path.reverse();
    // Then any corner left on the way where the water is open; again while that saves (a pass
    // looks PULL_OPTIONS.window points ahead, and the first pass brings far points near).
    for (let pass = 0; pass < PULL_PASSES; pass++) {
      const last = path.length - 1;
      const pass_ = pullStraight(
        path,
        0,
        last,
        (i, j) => this.innerLegIsClear(path, i, j, last, start, end),
        PULL_OPTIONS
      );
      saved += pass_.saved;
      if (!pass_.reachedWindow) break;
    }
    // Where the straight line between the two ends is open water but for their shores, the
    // corners left are the network's, not the sea's: pulled in round the land that makes them.
    if (
      path.length > 2 &&
      this.detours(path) &&
      this.openButShores(path.point(0), path.point(path.length - 1))
    )
      saved += tightenCorners(
        path,
        (a, b, ia, ib) => this.isClear(a, b, ia === 0, ib === path.length - 1),
        TIGHTEN_OPTIONS
      );
    return saved;
  }

  /**
   * A straight leg clear of land (the query's own end points may sit on the coast) that enters no
   * area of a closed passage or canal: the water of an open strait may be crossed straight, a
   * closed one never (nor a canal, which only its own edges follow).
   */
  isClear(a: LatLng, b: LatLng, aIsQueryPoint: boolean, bIsQueryPoint: boolean): boolean {
    const skipA = aIsQueryPoint ? CONNECTOR_SKIP_FROM_KM : CONNECTOR_SKIP_TO_KM;
    const skipB = bIsQueryPoint ? CONNECTOR_SKIP_FROM_KM : CONNECTOR_SKIP_TO_KM;
    if (!this.coast)
      return (
        this.legs.entered(a, b, skipA, skipB, STRAIGHT_STEP_KM, this.refusedMask) === 0 &&
        connectorIsClear(this.land, a, b, skipA, skipB, STRAIGHT_STEP_KM)
      );
    // The exact rings decide (the raster's ≈ 5 km cells would refuse legs that pass close to a
    // coast); a few raster samples first refuse most legs across land at little cost. The passage
    // areas come last: nine legs in ten tried cross land, and the exact test refuses them sooner
    // (the three tests are pure, so their order changes no answer).
    if (
      fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) > QUICK_MIN_M &&
      crossesDeepLand(this.land, a, b, skipA, skipB, QUICK_STEP_KM)
    )
      return false;
    if (
      this.coast.crossesLand(
        a,
        b,
        aIsQueryPoint ? PORT_SHORE_M : 0,
        bIsQueryPoint ? PORT_SHORE_M : 0
      )
    )
      return false;
    return this.legs.entered(a, b, skipA, skipB, STRAIGHT_STEP_KM, this.refusedMask) === 0;
  }

  /** Whether the path is longer than the straight line between its ends by more than a corner's worth. */
  private detours(path: PathBuffer): boolean {
    let along = 0;
    for (let k = 1; k < path.length; k++)
      along += fastGeodesicMeters(path.lat(k - 1), path.lng(k - 1), path.lat(k), path.lng(k));
    const n = path.length - 1;
    const straight = fastGeodesicMeters(path.lat(0), path.lng(0), path.lat(n), path.lng(n));
    return along - straight > Math.max(TIGHTEN_OPTIONS.minSaveM, TIGHTEN_MIN_DETOUR * straight);
  }

  /**
   * Whether the straight line between two query points is open water (no land, no refused
   * passage) but for TIGHTEN_SHORE_M at each end (at most TIGHTEN_SHORE_SHARE of the way): a
   * headland, a mole or a basin at a port's door.
   */
  private openButShores(a: LatLng, b: LatLng): boolean {
    if (!this.coast) return false;
    const straight = fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng);
    const shoreM = Math.min(TIGHTEN_SHORE_M, TIGHTEN_SHORE_SHARE * straight);
    const skipKm = shoreM / 1000;
    if (straight > QUICK_MIN_M && crossesDeepLand(this.land, a, b, skipKm, skipKm, QUICK_STEP_KM))
      return false;
    if (this.coast.crossesLand(a, b, shoreM, shoreM)) return false;
    return this.legs.entered(a, b, skipKm, skipKm, STRAIGHT_STEP_KM, this.refusedMask) === 0;
  }

  /** isClear for the leg between path points i and j. */
  private legOfPathIsClear(
    path: PathBuffer,
    i: number,
    j: number,
    iIsQueryPoint: boolean,
    jIsQueryPoint: boolean
  ): boolean {
    return this.isClear(this.legStart(path, i), this.legEnd(path, j), iIsQueryPoint, jIsQueryPoint);
  }

  /**
   * Path point i in a reused object (the land and passage tests read their ends and keep
   * nothing): no two objects per leg tried.
   */
  private legStart(path: PathBuffer, i: number): LatLng {
    this.startPoint.lat = path.lat(i);
    this.startPoint.lng = path.lng(i);
    return this.startPoint;
  }

  private legEnd(path: PathBuffer, j: number): LatLng {
    this.endPoint.lat = path.lat(j);
    this.endPoint.lng = path.lng(j);
    return this.endPoint;
  }

  /**
   * straightIsClear for a leg of the path; legs between network points are remembered (routes of a
   * lane sheet share their network stretches, and so the corners smoothing tries).
   */
  private innerLegIsClear(
    path: PathBuffer,
    i: number,
    j: number,
    last: number,
    start: LegMemo,
    end: LegMemo
  ): boolean {
    // Legs from the start point are the ones straightenEnd tries (remembered by that point); legs
    // to the end point are remembered by it too (its own map: a leg is tested from its start).
    if (i === 0 && j !== last) return this.legIsClear(path, 0, j, true, start);
    if (i !== 0 && j === last) return this.legToEndIsClear(path, i, last, end);
    if (i === 0) return this.legOfPathIsClear(path, i, j, true, true);
    return this.networkLegIsClear(path, i, j);
  }

  /**
   * isClear for a leg between two points that are not query points (a pure function of its ends
   * and the refused passages), remembered by both ends.
   */
  private networkLegIsClear(path: PathBuffer, i: number, j: number): boolean {
    let byMask = this.innerLegs.get(this.refusedMask);
    if (!byMask) this.innerLegs.set(this.refusedMask, (byMask = new CoordMap()));
    let fromHere = byMask.get(path.lat(i), path.lng(i));
    if (!fromHere) {
      if (byMask.size >= INNER_LEGS_FROM) byMask.clear();
      byMask.set(path.lat(i), path.lng(i), (fromHere = new CoordMap()));
    }
    let clear = fromHere.get(path.lat(j), path.lng(j));
    if (clear === undefined) {
      clear = this.legOfPathIsClear(path, i, j, false, false);
      fromHere.set(path.lat(j), path.lng(j), clear);
    }
    return clear;
  }

  /**
   * Joins point `first` straight to the farthest of the next few points when that leg is clear
   * and shortens the route (not past `limit` points on, the first point of a passage). Returns the
   * metres saved.
   */
  private straightenStart(
    path: PathBuffer,
    limit: number,
    fromQueryPoint: boolean,
    first: number,
    end?: LegMemo
  ): number {
    if (path.length - first < 3) return 0;
    const last = Math.min(path.length - 1 - first, PULL_POINTS, limit);
    // Unit vectors and spherical along-route distances of the first points (reused buffers).
    const u = this.pullUnits;
    const along = this.pullAlong;
    for (let k = 0; k <= last; k++) {
      const phi = path.lat(first + k) * RAD;
      const lam = path.lng(first + k) * RAD;
      const c = Math.cos(phi);
      u[3 * k] = c * Math.cos(lam);
      u[3 * k + 1] = c * Math.sin(lam);
      u[3 * k + 2] = Math.sin(phi);
      along[k] =
        k === 0
          ? 0
          : along[k - 1] +
            MEAN_RADIUS_M *
              angleBetween(
                u[3 * k - 3],
                u[3 * k - 2],
                u[3 * k - 1],
                u[3 * k],
                u[3 * k + 1],
                u[3 * k + 2]
              );
    }
    for (let j = last; j >= 2; j--) {
      const straight =
        MEAN_RADIUS_M * angleBetween(u[0], u[1], u[2], u[3 * j], u[3 * j + 1], u[3 * j + 2]);
      if (straight > PULL_MAX_M || along[j] < straight * 1.01 + 500) continue;
      if (!this.legIsClear(path, first, first + j, fromQueryPoint, end)) continue;
      let replaced = 0;
      for (let k = first; k < first + j; k++)
        replaced += fastGeodesicMeters(path.lat(k), path.lng(k), path.lat(k + 1), path.lng(k + 1));
      const saved =
        replaced -
        fastGeodesicMeters(
          path.lat(first),
          path.lng(first),
          path.lat(first + j),
          path.lng(first + j)
        );
      if (saved <= 0) return 0;
      path.remove(first + 1, j - 1);
      return saved;
    }
    return 0;
  }

  /**
   * straightIsClear from path point `a` to point `b`; remembered by the query point `end` when
   * `a` is that point: a lane sheet leaves the same port the same way again and again.
   */
  private legIsClear(
    path: PathBuffer,
    a: number,
    b: number,
    fromQueryPoint: boolean,
    end: LegMemo | undefined
  ): boolean {
    // From a snap point (straightenEnd's second try): remembered with the legs smoothing tries.
    if (!end)
      return fromQueryPoint
        ? this.legOfPathIsClear(path, a, b, true, false)
        : this.networkLegIsClear(path, a, b);
    const legs = (end.legs ??= new CoordMap());
    let clear = legs.get(path.lat(b), path.lng(b));
    if (clear === undefined) {
      clear = this.legOfPathIsClear(path, a, b, fromQueryPoint, false);
      legs.set(path.lat(b), path.lng(b), clear);
    }
    return clear;
  }

  /** straightIsClear from network point `a` to the query point `b` (the path's last), remembered by `end`. */
  private legToEndIsClear(path: PathBuffer, a: number, b: number, end: LegMemo): boolean {
    const legs = (end.legsTo ??= new CoordMap());
    let clear = legs.get(path.lat(a), path.lng(a));
    if (clear === undefined) {
      clear = this.legOfPathIsClear(path, a, b, false, true);
      legs.set(path.lat(a), path.lng(a), clear);
    }
    return clear;
  }

  /**
   * straightenStart from the query point `end` (path[0]); when nothing is saved and the first leg itself runs over land (a port whose
   * approach leaves over quays or a channel that 1:50m draws as land, a few km), straightening
   * from that leg's far end instead, so the route still leaves the approach by the shortest clear
   * way.
   */
  straightenEnd(path: PathBuffer, limit: number, end: LegMemo): number {
    const saved = this.straightenStart(path, limit, true, 0, end);
    if (saved > 0 || path.length < 4 || limit < 3 || !this.coast) return saved;
    const first = fastGeodesicMeters(path.lat(0), path.lng(0), path.lat(1), path.lng(1));
    if (
      first > HARBOUR_LEG_MAX_M ||
      !this.coast.crossesLand(this.legStart(path, 0), this.legEnd(path, 1), PORT_SHORE_M, 0)
    )
      return 0;
    return this.straightenStart(path, limit - 1, false, 1);
  }
}
