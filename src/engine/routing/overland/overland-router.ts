/**
 * RAIL and TRUCK distances without a road or rail network: ellipsoidal great-circle distance times a
 * circuity factor for the modality and region. Both ends must be on the same landmass, or on
 * landmasses joined by a fixed link (tunnel/bridge) open to the modality; otherwise there is no route.
 */
import { OverlandRouter, RoutedPath } from '../../route-engine';
import { LatLng } from '../../types';
import { CircuityRegion, CircuityTable, OverlandModality, tripRegion } from './circuity';
import { geodesicMeters, geodesicPath } from './geodesic';
import { LandmassIndex } from './landmass-index';

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
      if (a === null || b === null) throw new Error(`land link ${link.name}: an end point is not on land`);
      for (const m of link.modalities) this.components[m].union(a, b);
    }
  }

  route(from: LatLng, to: LatLng, modality: OverlandModality): RoutedPath | null {
    if (!this.connected(from, to, modality)) return null;
    const region = tripRegion(modality, this.parts.regionOf(from), this.parts.regionOf(to));
    const { factor } = this.parts.circuity.lookup(modality, region);
    const greatCircle = geodesicMeters(from, to);
    const segments = Math.min(32, Math.max(1, Math.ceil(greatCircle / PATH_SEGMENT_METERS)));
    return { meters: greatCircle * factor, path: geodesicPath(from, to, segments) };
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
    while (this.parent.has(root) && this.parent.get(root) !== root) root = this.parent.get(root) as number;
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
