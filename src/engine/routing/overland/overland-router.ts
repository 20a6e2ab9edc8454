/**
 * RAIL and TRUCK distances without a road or rail network: ellipsoidal great-circle distance times a
 * circuity factor for the modality and region. Both ends must be on the same landmass, or on
 * landmasses joined by a fixed link (tunnel/bridge) open to the modality; otherwise there is no route.
 */
import { OverlandRouter, RoutedPath } from "../../route-engine";
import { LatLng } from "../../types";
import { CircuityRegion, CircuityTable, OverlandModality, tripRegion } from "./circuity";
import { geodesicMetersBetween as geodesicMeters, geodesicPath } from "../../geo/geodesy";
import { LandmassIndex } from "./landmass-index";

/** A fixed link between two landmasses, given by one point on each side. */
export interface LandLink {
  name: string;
  modalities: ReadonlyArray<OverlandModality>;
  a: LatLng;
  b: LatLng;
}

export interface OverlandRouterParts {
  landmasses: LandmassIndex;
  links: ReadonlyArray<LandLink>;
  circuity: CircuityTable;
  /** Region of a point for choosing the circuity factor. */
  regionOf: (p: LatLng) => CircuityRegion;
}

/** Great-circle path points: one every ~250 km, between 1 and 32 segments. */
const PATH_SEGMENT_METERS = 250_000;

export class CircuityOverlandRouter implements OverlandRouter {
  private readonly components: Record<OverlandModality, UnionFind>;

  constructor(private readonly parts: OverlandRouterParts) {
    this.components = { RAIL: new UnionFind(), TRUCK: new UnionFind() };
    for (const link of parts.links) {
      const a = parts.landmasses.landmassOf(link.a);
      const b = parts.landmasses.landmassOf(link.b);
      if (a === null || b === null)
        throw new Error(`land link ${link.name}: an end point is not on land`);
      for (const m of link.modalities) this.components[m].union(a, b);
    }
  }

  route(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    if (!this.connected(from, to, modality)) return null;
    const a = this.parts.landmasses.landmassOf(from);
    const b = this.parts.landmasses.landmassOf(to);
    if (a === b) return this.overland(from, to, modality);
    return this.viaLinks(from, to, modality);
  }

  /** One stretch over land: great circle times the region's circuity factor. */
  private overland(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath {
    const region = tripRegion(modality, this.parts.regionOf(from), this.parts.regionOf(to));
    const { factor } = this.parts.circuity.lookup(modality, region);
    const greatCircle = geodesicMeters(from, to);
    const segments = Math.min(32, Math.max(1, Math.ceil(greatCircle / PATH_SEGMENT_METERS)));
    return { meters: greatCircle * factor, path: geodesicPath(from, to, segments) };
  }

  /**
   * Ends on different landmasses joined by fixed links: the trip has to cross the links, so it runs
   * over land to a link's near end, through the link, and on from its far end (Felixstowe→Rotterdam
   * by truck goes through the Channel Tunnel, not across the North Sea). Dijkstra over the two ends
   * and the links' end points; there are only a handful of links.
   */
  private viaLinks(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    const links = this.parts.links.filter((l) => l.modalities.includes(modality));
    const points: LatLng[] = [from, to, ...links.flatMap((l) => [l.a, l.b])];
    const land = points.map((p) => this.parts.landmasses.landmassOf(p));
    const n = points.length;
    const dist = new Array<number>(n).fill(Infinity);
    const prev = new Array<number>(n).fill(-1);
    const viaLink = new Array<boolean>(n).fill(false);
    const done = new Array<boolean>(n).fill(false);
    dist[0] = 0;
    for (;;) {
      let u = -1;
      for (let i = 0; i < n; i++)
        if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
      if (u < 0 || u === 1) break;
      done[u] = true;
      for (let v = 0; v < n; v++) {
        if (done[v] || v === u) continue;
        // Link ends 2+2k and 3+2k are the two sides of link k.
        const sameLink = u >= 2 && v >= 2 && (u - 2) >> 1 === (v - 2) >> 1;
        let step: number;
        if (sameLink) step = geodesicMeters(points[u], points[v]);
        else if (land[u] !== null && land[u] === land[v])
          step = this.overland(points[u], points[v], modality).meters;
        else continue;
        if (dist[u] + step < dist[v]) {
          dist[v] = dist[u] + step;
          prev[v] = u;
          viaLink[v] = sameLink;
        }
      }
    }
    if (dist[1] === Infinity) return null;
    const chain: number[] = [];
    for (let v = 1; v >= 0; v = prev[v]) chain.unshift(v);
    const path: LatLng[] = [from];
    for (let i = 1; i < chain.length; i++) {
      const [p, q] = [points[chain[i - 1]], points[chain[i]]];
      path.push(...(viaLink[chain[i]] ? [q] : this.overland(p, q, modality).path.slice(1)));
    }
    return { meters: dist[1], path };
  }

  /** Whether both points are on land joined for the modality (same landmass or a fixed link). */
  connected(from: LatLng, to: LatLng, modality: OverlandModality): boolean {
    const a = this.parts.landmasses.landmassOf(from);
    const b = this.parts.landmasses.landmassOf(to);
    if (a === null || b === null) return false;
    return a === b || this.components[modality].find(a) === this.components[modality].find(b);
  }

  /** The circuity region the router would use for a trip (for explanations and tests). */
  regionFor(from: LatLng, to: LatLng, modality: OverlandModality): CircuityRegion {
    return tripRegion(modality, this.parts.regionOf(from), this.parts.regionOf(to));
  }
}

class UnionFind {
  private readonly parent = new Map<number, number>();

  find(x: number): number {
    let root = x;
    while (this.parent.has(root) && this.parent.get(root) !== root)
      root = this.parent.get(root) as number;
    // Path compression.
    let cur = x;
    while (cur !== root) {
      const next = this.parent.get(cur) as number;
      this.parent.set(cur, root);
      cur = next;
    }
    return root;
  }

  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent.set(ra, rb);
  }
}
