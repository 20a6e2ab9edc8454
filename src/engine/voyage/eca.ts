/**
 * How much of a sea route lies inside emission control areas: the route's polyline (the one /path
 * draws) cut into short pieces, each counted in the area that holds its midpoint. The share of the
 * polyline's length inside is applied to the routed distance, so the figures add up with it.
 */
import { greatCircleMeters } from "../geo/geodesy";
import { pointInPolygon } from "../geo/polygon";
import { LatLng } from "../types";

export interface EcaArea {
  name: string;
  label?: string;
  type: string;
  /** ISO date from which the area applies. */
  effectiveFrom: string;
  polygon: Array<[number, number]>;
  source: string;
}

export interface EcaResult {
  /** Metres of the routed distance inside areas in force at the date. */
  distanceInside: number;
  /** distanceInside ÷ distance. */
  share: number;
  areas: Array<{ name: string; type: string; distance: number }>;
  /** The date the areas were taken at. */
  asOf: string;
}

/** Pieces at most this long (m): fine enough for areas whose edges are ~200 nm offshore. */
const STEP_METERS = 10_000;

interface Shape {
  area: EcaArea;
  minLng: number;
  maxLng: number;
  minLat: number;
  maxLat: number;
}

export class EcaAreas {
  private readonly shapes: Shape[];

  constructor(readonly areas: readonly EcaArea[]) {
    this.shapes = areas.map((area) => {
      const lngs = area.polygon.map((p) => p[0]);
      const lats = area.polygon.map((p) => p[1]);
      return {
        area,
        minLng: Math.min(...lngs),
        maxLng: Math.max(...lngs),
        minLat: Math.min(...lats),
        maxLat: Math.max(...lats),
      };
    });
  }

  /** The first area in force at `asOf` holding the point, or undefined. */
  areaAt(p: LatLng, asOf: string): EcaArea | undefined {
    for (const s of this.shapes) {
      if (s.area.effectiveFrom > asOf) continue;
      if (p.lng < s.minLng || p.lng > s.maxLng || p.lat < s.minLat || p.lat > s.maxLat) continue;
      if (pointInPolygon(p.lng, p.lat, s.area.polygon)) return s.area;
    }
    return undefined;
  }

  /** Distance inside the areas for a route of `distance` metres along `path`. */
  measure(path: readonly LatLng[], distance: number, asOf: string): EcaResult {
    const inside = new Map<string, number>();
    let total = 0;
    for (let i = 1; i < path.length; i++) {
      const a = path[i - 1];
      // Joined the short way: a step across ±180° is unwrapped before interpolating.
      let dLng = path[i].lng - a.lng;
      if (dLng > 180) dLng -= 360;
      if (dLng < -180) dLng += 360;
      const b = { lat: path[i].lat, lng: a.lng + dLng };
      const len = greatCircleMeters(a, b);
      if (len === 0) continue;
      total += len;
      const n = Math.max(1, Math.ceil(len / STEP_METERS));
      for (let k = 0; k < n; k++) {
        const t = (k + 0.5) / n;
        const mid = { lat: a.lat + (b.lat - a.lat) * t, lng: wrap(a.lng + (b.lng - a.lng) * t) };
        const area = this.areaAt(mid, asOf);
        if (area) inside.set(area.name, (inside.get(area.name) ?? 0) + len / n);
      }
    }
    const scale = total > 0 ? distance / total : 0;
    const areas = this.areas
      .filter((a) => inside.has(a.name))
      .map((a) => ({
        name: a.name,
        type: a.type,
        distance: Math.round(inside.get(a.name)! * scale),
      }));
    const distanceInside = areas.reduce((t, a) => t + a.distance, 0);
    return {
      distanceInside,
      share: distance > 0 ? Math.round((distanceInside / distance) * 10000) / 10000 : 0,
      areas,
      asOf,
    };
  }
}

function wrap(lng: number): number {
  return lng > 180 ? lng - 360 : lng < -180 ? lng + 360 : lng;
}
