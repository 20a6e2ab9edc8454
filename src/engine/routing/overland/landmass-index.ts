/**
 * Which landmass (land polygon) a point lies on. Polygons come from Natural Earth land (loaded by
 * src/data/inland.ts); a landmass id is the polygon's index. Points in the sea just off a coast
 * (ports, quays, coarse coastlines) snap to the nearest landmass within `snapMeters`.
 */
import { LatLng } from "../../types";
import { localSegmentMeters, metersToDegrees } from "../../geo/geodesy";

/** One polygon: outer ring then holes, each ring a closed list of [lng, lat]. */
export type PolygonRings = ReadonlyArray<ReadonlyArray<readonly [number, number]>>;

interface IndexedPolygon {
  rings: PolygonRings;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export interface LandmassIndexOptions {
  /** How far off the coast a point may be and still count as on that landmass. */
  snapMeters?: number;
  /** How many point→landmass answers to remember. */
  cacheSize?: number;
}

export class LandmassIndex {
  private readonly polygons: IndexedPolygon[];
  private readonly snapMeters: number;
  private readonly cacheSize: number;
  private readonly cache = new Map<string, number | null>();

  constructor(polygons: ReadonlyArray<PolygonRings>, options: LandmassIndexOptions = {}) {
    this.snapMeters = options.snapMeters ?? 20_000;
    this.cacheSize = options.cacheSize ?? 100_000;
    this.polygons = polygons.map((rings) => {
      let minLng = Infinity,
        minLat = Infinity,
        maxLng = -Infinity,
        maxLat = -Infinity;
      for (const [lng, lat] of rings[0] ?? []) {
        if (lng < minLng) minLng = lng;
        if (lng > maxLng) maxLng = lng;
        if (lat < minLat) minLat = lat;
        if (lat > maxLat) maxLat = lat;
      }
      return { rings, minLng, minLat, maxLng, maxLat };
    });
  }

  get size(): number {
    return this.polygons.length;
  }

  /** The landmass id of the point, or null when it is at sea farther than the snap radius. */
  landmassOf(p: LatLng): number | null {
    const key = `${p.lat},${p.lng}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const id = this.containing(p) ?? this.nearestWithinSnap(p);
    if (this.cache.size >= this.cacheSize) this.cache.clear();
    this.cache.set(key, id);
    return id;
  }

  private containing(p: LatLng): number | null {
    for (let i = 0; i < this.polygons.length; i++) {
      const poly = this.polygons[i];
      if (p.lng < poly.minLng || p.lng > poly.maxLng || p.lat < poly.minLat || p.lat > poly.maxLat)
        continue;
      if (!ringContains(poly.rings[0], p.lng, p.lat)) continue;
      let inHole = false;
      for (let h = 1; h < poly.rings.length; h++) {
        if (ringContains(poly.rings[h], p.lng, p.lat)) {
          inHole = true;
          break;
        }
      }
      if (!inHole) return i;
    }
    return null;
  }

  private nearestWithinSnap(p: LatLng): number | null {
    const dLat = metersToDegrees(this.snapMeters);
    const dLng = dLat / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
    let best: number | null = null;
    let bestMeters = this.snapMeters;
    for (let i = 0; i < this.polygons.length; i++) {
      const poly = this.polygons[i];
      if (p.lat < poly.minLat - dLat || p.lat > poly.maxLat + dLat) continue;
      if (p.lng < poly.minLng - dLng || p.lng > poly.maxLng + dLng) continue;
      for (const ring of poly.rings) {
        for (let k = 1; k < ring.length; k++) {
          const [lng1, lat1] = ring[k - 1];
          const [lng2, lat2] = ring[k];
          // Cheap reject: the edge's latitude span is outside the snap band.
          if (
            (lat1 < p.lat - dLat && lat2 < p.lat - dLat) ||
            (lat1 > p.lat + dLat && lat2 > p.lat + dLat)
          )
            continue;
          if (Math.abs(lng1 - lng2) > 180) continue; // antimeridian cut edge
          const { meters } = localSegmentMeters(
            p,
            { lat: lat1, lng: lng1 },
            { lat: lat2, lng: lng2 }
          );
          if (meters <= bestMeters) {
            bestMeters = meters;
            best = i;
          }
        }
      }
    }
    return best;
  }
}

/** Even-odd ray casting in lng/lat; the Natural Earth rings are cut at the antimeridian. */
function ringContains(
  ring: ReadonlyArray<readonly [number, number]>,
  x: number,
  y: number
): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const xi = ring[i][0],
      yi = ring[i][1];
    const xj = ring[j][0],
      yj = ring[j][1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
