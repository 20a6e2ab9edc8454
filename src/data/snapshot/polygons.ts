/**
 * Polygon lists (outer ring then holes, [lng, lat] points) as flat typed arrays for a snapshot,
 * and back: decoding the world-atlas TopoJSON takes far longer than rebuilding the lists.
 */
import {
  FlatPolygons,
  flattenPolygons,
  PolygonRings,
  unflattenPolygons,
} from "../../engine/geo/flat-polygons";

export interface PackedPolygons extends FlatPolygons {  /** One label per polygon (e.g. its country), when the list has them. */
  labels?: string[];
}

export function packPolygons(polygons: ReadonlyArray<PolygonRings>, labels?: string[]): PackedPolygons {
  const flat = flattenPolygons(polygons);
  return labels ? { ...flat, labels } : flat;
}

export function unpackPolygons(packed: PackedPolygons): PolygonRings[] {
  return unflattenPolygons(packed);
}
