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

  /** The lane joining the two ends' regions (either direction), or undefined. */
  find(ends: LaneEnds): TradeLane | undefined {
    const a = this.regionOf(ends.from);
    const b = this.regionOf(ends.to);
    if (!a || !b) return undefined;
    return this.lanes.find(
      (l) =>
        (l.between[0] === a && l.between[1] === b) || (l.between[0] === b && l.between[1] === a)
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
