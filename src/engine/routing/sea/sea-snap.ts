/**
 * Snapping a query point onto the sea network: the nearest open edges (the network's edges a
 * closed-passage set leaves open), each with a connector from the point that keeps off land where
 * one can (the land raster, then the exact 1:50m rings), measured roughly for ranking and exactly
 * (on the ellipsoid) for the snap a route uses. The router (sea-router.ts) remembers the snaps
 * of each query point; this module only finds them.
 */
import { LatLng } from "../../types";
import {
  angleBetween,
  fastGeodesicMeters,
  MEAN_RADIUS_M,
  toLatLng,
  toUnit,
} from "../../geo/geodesy";
import { passageBit } from "./chains";
import { SeaGraph } from "./graph";
import { LandIndex } from "./land-crossing";
import { connectorIsClear, connectorLandSamples, LandRaster } from "./land-mask";
import { PassageArea, pointInPolygon } from "./passages";
import { EdgeSnap, edgesWithin, nearEdges } from "./spatial-index";
import {
  AT_VERTEX_M,
  CANALS,
  CANDIDATE_BAND_M,
  CANDIDATE_FACTOR,
  CANDIDATE_SLACK_M,
  CONNECTOR_SKIP_FROM_KM,
  CONNECTOR_SKIP_TO_KM,
  CONNECTOR_STEP_KM,
  LONG_SPOKE_M,
  MAX_CANDIDATES,
  PORT_SHORE_M,
  SPOKE_RADIUS_M,
  THIN_LAND_SAMPLES,
} from "./tuning";

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

export class SeaSnapper {
  /** Inside the area of a canal (a passage dug through land), when the router has their areas. */
  readonly inCanal: ((lat: number, lng: number) => boolean) | undefined;
  private readonly edgeSeen: Int32Array;
  private stamp = 0;

  /**
   * `land`: a snap whose straight connector from the query point crosses the raster's land is
   * dropped when another candidate's does not; `coast` (with `land`): the exact rings decide
   * the connectors the raster lets through; `areas`: the canals among them are inland water.
   */
  constructor(
    private readonly graph: SeaGraph,
    private readonly land: LandRaster | undefined,
    private readonly coast: LandIndex | undefined,
    areas: ReadonlyArray<PassageArea>
  ) {
    this.edgeSeen = new Int32Array(graph.edgeCount);
    const canals = areas.filter((a) => CANALS.includes(a.name));
    this.inCanal = canals.length ? passageTest(canals) : undefined;
  }

  /**
   * The nearest open edge and the other open edges almost as near: the search picks among them,
   * so a port whose nearest line is a dead-end approach can still leave by the lane next to it.
   * Distances here are spherical (for ranking); the chosen snaps are measured exactly at the end.
   */
  candidates(point: LatLng, closedMask: number): Snap[] {
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
  exact(point: LatLng, s: Snap): Snap {
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
}

/** Point-in-passage-area test with the areas' bounding boxes checked first (most samples are far from any). */
export function passageTest(
  areas: ReadonlyArray<PassageArea>
): (lat: number, lng: number) => boolean {
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
