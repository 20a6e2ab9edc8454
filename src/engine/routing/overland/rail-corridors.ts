/**
 * The rail-corridor data model (data/rail-corridors.json), shaped like the waterways: each corridor
 * is a polyline of [lng, lat] points along a freight main line; a point may carry attributes. Points
 * of different corridors that share a `node` id are one junction (border crossings, hubs). `km` is
 * the published line kilometre of the point; between two such anchors the network scales the
 * polyline to the published length.
 */
import { readWaypoint } from "../../geo/waypoint";

export interface RailPointAttrs {
  /** Junction id: every point with this id, in any corridor, is the same graph node. */
  node?: string;
  name?: string;
  /** Published line kilometre of this point (the corridor's kmSystem). */
  km?: number;
}

export interface RailPoint extends RailPointAttrs {
  lng: number;
  lat: number;
}

export interface RailCorridor {
  id: string;
  name: string;
  kmSystem?: string;
  /** Where the course and kilometres come from. */
  source: string;
  points: RailPoint[];
}

export interface RailCorridorsFile {
  corridors: RailCorridor[];
  /**
   * Track length ÷ polyline length for stretches without km anchors: a polyline of one point per
   * 50-150 km cuts the line's curves. Measured on the km-anchored stretches (see the data file).
   */
  trackFactor: number;
}

/** Validates the raw JSON; throws naming the corridor and point at fault. */
export function parseRailCorridors(json: unknown): RailCorridorsFile {
  const root = json as { corridors?: unknown; trackFactor?: { value?: unknown; source?: unknown } };
  if (!root || !Array.isArray(root.corridors))
    throw new Error('rail-corridors.json: "corridors" must be an array');
  const ids = new Set<string>();
  const corridors = root.corridors.map((raw, ci): RailCorridor => {
    const c = raw as Record<string, unknown>;
    const where = `rail-corridors.json corridor #${ci}${typeof c.id === "string" ? ` (${c.id})` : ""}`;
    if (typeof c.id !== "string" || !c.id)
      throw new Error(`${where}: id must be a non-empty string`);
    if (ids.has(c.id)) throw new Error(`${where}: duplicate id`);
    ids.add(c.id);
    if (typeof c.name !== "string" || !c.name) throw new Error(`${where}: name must be a string`);
    if (typeof c.source !== "string" || !c.source.trim())
      throw new Error(`${where}: source must cite where the line comes from`);
    if (!Array.isArray(c.points) || c.points.length < 2)
      throw new Error(`${where}: needs at least 2 points`);
    const points = c.points.map((p, pi) => parsePoint(p, `${where} point #${pi}`));
    checkKmAnchors(points, where);
    return {
      id: c.id,
      name: c.name,
      kmSystem: typeof c.kmSystem === "string" ? c.kmSystem : undefined,
      source: c.source,
      points,
    };
  });
  const tf = root.trackFactor;
  if (!tf || typeof tf.value !== "number" || !(tf.value >= 1 && tf.value < 1.5))
    throw new Error('rail-corridors.json: "trackFactor.value" must be a number in [1, 1.5)');
  if (typeof tf.source !== "string" || !tf.source.trim())
    throw new Error(
      'rail-corridors.json: "trackFactor.source" must say where the factor comes from'
    );
  return { corridors, trackFactor: tf.value };
}

function parsePoint(p: unknown, at: string): RailPoint {
  const { lng, lat, attrs: a } = readWaypoint<RailPointAttrs>(p, at);
  if (a.km !== undefined && (typeof a.km !== "number" || a.km < 0))
    throw new Error(`${at}: km must be a number ≥ 0`);
  if (a.node !== undefined && (typeof a.node !== "string" || !a.node))
    throw new Error(`${at}: node must be a non-empty string`);
  return { lng, lat, node: a.node, name: a.name, km: a.km };
}

/** Kilometre anchors must increase along the corridor, or the scaling would be meaningless. */
function checkKmAnchors(points: RailPoint[], where: string): void {
  let last = -Infinity;
  for (const p of points) {
    if (p.km === undefined) continue;
    if (p.km <= last) throw new Error(`${where}: km anchors must increase along the corridor`);
    last = p.km;
  }
}
