/**
 * Trade-lane lookup: which published lane (if any) a sea leg between two points belongs to.
 * Regions are coarse polygons; a point in no region, or a pair no lane covers, gets no lane, and
 * the modality's default intensity applies.
 */
import { CoordMap } from "../geo/coord-map";
import { pointInPolygon } from "../geo/polygon";
import { LatLng } from "../types";
import { Region, TradeLane } from "./factor-data";

export interface LaneEnds {
  from: LatLng;
  to: LatLng;
}

/** Points whose regions are remembered: a lane sheet repeats its ports thousands of times. */
const REMEMBERED_POINTS = 4096;

export class TradeLanes {
  private readonly regionNames: string[];
  private readonly shapes: RegionShape[];
  private readonly remembered = new CoordMap<string[]>();

  constructor(
    private readonly regions: Record<string, Region>,
    private readonly lanes: readonly TradeLane[]
  ) {
    this.regionNames = Object.keys(regions);
    this.shapes = this.regionNames.map((name) => regionShape(regions[name].polygon));
    for (const lane of lanes) {
      for (const r of lane.between) {
        if (!regions[r])
          throw new Error(`emission-factors: lane ${lane.name} names unknown region ${r}`);
      }
    }
  }

  /** The first region containing the point, or undefined. */
  regionOf(p: LatLng): string | undefined {
    return this.containing(p)[0];
  }

  /** Every region containing the point (regions nest: NORTH_EUROPE lies in EUROPE_NORTH_MED). */
  regionsOf(p: LatLng): Set<string> {
    return new Set(this.containing(p));
  }

  /** Names of the regions containing the point, in the file's order (remembered per point). */
  private containing(p: LatLng): string[] {
    let names = this.remembered.get(p.lat, p.lng);
    if (names) return names;
    names = this.regionNames.filter((_, i) => insideShape(p, this.shapes[i]));
    if (this.remembered.size >= REMEMBERED_POINTS) this.remembered.clear();
    this.remembered.set(p.lat, p.lng, names);
    return names;
  }

  /**
   * The first listed lane joining a region of one end to a region of the other (either
   * direction), or undefined; the data lists specific lanes before wider groupings.
   */
  find(ends: LaneEnds): TradeLane | undefined {
    // The remembered lists themselves (a point lies in one to three regions): no set per call.
    const a = this.containing(ends.from);
    if (!a.length) return undefined;
    const b = this.containing(ends.to);
    if (!b.length) return undefined;
    for (const lane of this.lanes) {
      const [x, y] = lane.between;
      if ((a.includes(x) && b.includes(y)) || (a.includes(y) && b.includes(x))) return lane;
    }
    return undefined;
  }
}

/** A region's polygon as flat coordinates with its bounding box (most points are outside it). */
interface RegionShape {
  polygon: ReadonlyArray<readonly [number, number]>;
  minLng: number;
  maxLng: number;
  minLat: number;
  maxLat: number;
}

function regionShape(polygon: ReadonlyArray<readonly [number, number]>): RegionShape {
  const lngs = polygon.map((v) => v[0]);
  const lats = polygon.map((v) => v[1]);
  return {
    polygon,
    minLng: Math.min(...lngs),
    maxLng: Math.max(...lngs),
    minLat: Math.min(...lats),
    maxLat: Math.max(...lats),
  };
}

function insideShape(p: LatLng, s: RegionShape): boolean {
  if (p.lng < s.minLng || p.lng > s.maxLng || p.lat < s.minLat || p.lat > s.maxLat) return false;
  return pointInPolygon(p.lng, p.lat, s.polygon);
}
