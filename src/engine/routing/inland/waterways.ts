/**
 * The inland-waterway data model (data/waterways.json): each waterway is a polyline of [lng, lat]
 * points; a point may carry attributes. Points of different waterways that share a `node` id are one
 * junction. `km` is the official fairway kilometre (chainage) of the point in the waterway's own
 * kilometre system; between two such anchors the router scales the polyline to the chainage.
 */
import { readWaypoint } from "../../geo/waypoint";

export interface WaterwayPointAttrs {
  /** Junction id: every point with this id, in any waterway, is the same graph node. */
  node?: string;
  name?: string;
  /** UN/LOCODE of the port at this point, only where known. */
  locode?: string;
  /** Official river/canal kilometre of this point (waterway's kmSystem). */
  km?: number;
  /** Set on a mouth node where barges meet sea-going ships: the sea area. */
  sea?: string;
}

export interface WaterwayPoint extends WaterwayPointAttrs {
  lng: number;
  lat: number;
}

export interface Waterway {
  id: string;
  name: string;
  /** How the waterway's kilometres are counted, when it has any. */
  kmSystem?: string;
  /** Where the course, kilometres and ports come from. */
  source: string;
  points: WaterwayPoint[];
}

export interface WaterwaysFile {
  waterways: Waterway[];
}

/** Validates the raw JSON; throws with the waterway and point at fault. */
export function parseWaterways(json: unknown): WaterwaysFile {
  const root = json as { waterways?: unknown };
  if (!root || !Array.isArray(root.waterways))
    throw new Error('waterways.json: "waterways" must be an array');
  const ids = new Set<string>();
  const waterways = root.waterways.map((raw, wi): Waterway => {
    const w = raw as {
      id?: unknown;
      name?: unknown;
      kmSystem?: unknown;
      source?: unknown;
      points?: unknown;
    };
    const where = `waterways.json waterway #${wi}${typeof w.id === "string" ? ` (${w.id})` : ""}`;
    if (typeof w.id !== "string" || !w.id)
      throw new Error(`${where}: id must be a non-empty string`);
    if (ids.has(w.id)) throw new Error(`${where}: duplicate id`);
    ids.add(w.id);
    if (typeof w.name !== "string" || !w.name)
      throw new Error(`${where}: name must be a non-empty string`);
    if (typeof w.source !== "string" || !w.source.trim())
      throw new Error(`${where}: source must cite where the data comes from`);
    if (!Array.isArray(w.points) || w.points.length < 2)
      throw new Error(`${where}: needs at least 2 points`);
    const points = w.points.map((p, pi): WaterwayPoint => {
      const at = `${where} point #${pi}`;
      const { lng, lat, attrs: a } = readWaypoint<WaterwayPointAttrs>(p, at);
      if (a.km !== undefined && typeof a.km !== "number")
        throw new Error(`${at}: km must be a number`);
      if (a.locode !== undefined && !/^[A-Z]{2}[A-Z2-9]{3}$/.test(a.locode))
        throw new Error(`${at}: locode "${a.locode}" is not a UN/LOCODE`);
      return { lng, lat, ...a };
    });
    return {
      id: w.id,
      name: w.name,
      kmSystem: typeof w.kmSystem === "string" ? w.kmSystem : undefined,
      source: w.source,
      points,
    };
  });
  return { waterways };
}
