/**
 * Trade-lane lookup: which published lane (if any) a sea leg between two points belongs to.
 * Regions are coarse polygons; a point in no region, or a pair no lane covers, gets no lane, and
 * the modality's default intensity applies.
 */
import { LatLng } from "../types";
import { Region, TradeLane } from "./factor-data";

export interface LaneEnds {
  from: LatLng;
  to: LatLng;
}

export class TradeLanes {
  private readonly regionNames: string[];

  constructor(
    private readonly regions: Record<string, Region>,
    private readonly lanes: readonly TradeLane[]
  ) {
    this.regionNames = Object.keys(regions);
    for (const lane of lanes) {
      for (const r of lane.between) {
        if (!regions[r])
          throw new Error(`emission-factors: lane ${lane.name} names unknown region ${r}`);
      }
    }
  }

  /** The first region containing the point, or undefined. */
  regionOf(p: LatLng): string | undefined {
    return this.regionNames.find((name) => insidePolygon(p, this.regions[name].polygon));
  }

  /** Every region containing the point (regions nest: NORTH_EUROPE lies in EUROPE_NORTH_MED). */
  regionsOf(p: LatLng): Set<string> {
    return new Set(this.regionNames.filter((name) => insidePolygon(p, this.regions[name].polygon)));
  }

  /**
   * The first listed lane joining a region of one end to a region of the other (either
   * direction), or undefined; the data lists specific lanes before wider groupings.
   */
  find(ends: LaneEnds): TradeLane | undefined {
    const a = this.regionsOf(ends.from);
    if (!a.size) return undefined;
    const b = this.regionsOf(ends.to);
    if (!b.size) return undefined;
    return this.lanes.find(
      ({ between: [x, y] }) => (a.has(x) && b.has(y)) || (a.has(y) && b.has(x))
    );
  }
}

/** Even-odd ray casting on [lng, lat] vertices; fine for polygons that do not cross the antimeridian. */
export function insidePolygon(
  p: LatLng,
  polygon: ReadonlyArray<readonly [number, number]>
): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if (yi > p.lat !== yj > p.lat && p.lng < ((xj - xi) * (p.lat - yi)) / (yj - yi) + xi)
      inside = !inside;
  }
  return inside;
}
