/**
 * Polygon lists (outer ring then holes, [lng, lat] points) as flat typed arrays for a snapshot,
 * and back: decoding the world-atlas TopoJSON takes far longer than rebuilding the lists.
 */
import type { PolygonRings } from "../../engine/routing/overland/landmass-index";

export interface PackedPolygons {
  /** lng, lat of every point, ring after ring. */
  coords: Float64Array;
  /** Rings: points [ringStart[r], ringStart[r + 1]) (in points, not numbers). */
  ringStart: Int32Array;
  /** Polygons: rings [polygonStart[p], polygonStart[p + 1]). */
  polygonStart: Int32Array;
  /** One label per polygon (e.g. its country), when the list has them. */
  labels?: string[];
}

export function packPolygons(polygons: ReadonlyArray<PolygonRings>, labels?: string[]): PackedPolygons {
  let rings = 0;
  let points = 0;
  for (const p of polygons) {
    rings += p.length;
    for (const r of p) points += r.length;
  }
  const coords = new Float64Array(2 * points);
  const ringStart = new Int32Array(rings + 1);
  const polygonStart = new Int32Array(polygons.length + 1);
  let ri = 0;
  let pi = 0;
  polygons.forEach((polygon, i) => {
    polygonStart[i] = ri;
    for (const ring of polygon) {
      ringStart[ri++] = pi;
      for (const point of ring) {
        coords[2 * pi] = point[0];
        coords[2 * pi + 1] = point[1];
        pi++;
      }
    }
  });
  polygonStart[polygons.length] = ri;
  ringStart[rings] = pi;
  return labels ? { coords, ringStart, polygonStart, labels } : { coords, ringStart, polygonStart };
}

export function unpackPolygons(packed: PackedPolygons): PolygonRings[] {
  const { coords, ringStart, polygonStart } = packed;
  const out: PolygonRings[] = [];
  for (let p = 0; p + 1 < polygonStart.length; p++) {
    const rings: Array<Array<[number, number]>> = [];
    for (let r = polygonStart[p]; r < polygonStart[p + 1]; r++) {
      const ring: Array<[number, number]> = new Array(ringStart[r + 1] - ringStart[r]);
      for (let i = ringStart[r], k = 0; i < ringStart[r + 1]; i++, k++)
        ring[k] = [coords[2 * i], coords[2 * i + 1]];
      rings.push(ring);
    }
    out.push(rings);
  }
  return out;
}
