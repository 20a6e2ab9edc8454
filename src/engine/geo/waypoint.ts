/**
 * A waypoint of a polyline data file (waterways, rail corridors): `[lng, lat]` or
 * `[lng, lat, {attributes}]`. The files' readers check their own attributes; the shape and the
 * coordinate ranges are checked here once.
 */
export function readWaypoint<A extends object>(
  p: unknown,
  at: string
): { lng: number; lat: number; attrs: Partial<A> } {
  if (!Array.isArray(p) || p.length < 2 || p.length > 3)
    throw new Error(`${at}: must be [lng, lat] or [lng, lat, {attributes}]`);
  const [lng, lat, attrs] = p as [unknown, unknown, unknown];
  if (
    typeof lng !== "number" ||
    typeof lat !== "number" ||
    Math.abs(lat) > 90 ||
    Math.abs(lng) > 180
  )
    throw new Error(`${at}: lng/lat out of range`);
  return { lng, lat, attrs: (attrs ?? {}) as Partial<A> };
}
