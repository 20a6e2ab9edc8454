/**
 * The engine's one point-in-polygon test: even-odd ray casting in the lng/lat plane, for small
 * areas (passage areas, trade-lane shapes, emission control areas) where the plane is exact enough.
 * A ring is [lng, lat] vertices, closed or open; it must not cross the antimeridian.
 */
export function pointInPolygon(
  lng: number,
  lat: number,
  polygon: ReadonlyArray<readonly [number, number]>
): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const xi = polygon[i][0];
    const yi = polygon[i][1];
    const xj = polygon[j][0];
    const yj = polygon[j][1];
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
