/**
 * Polygon lists as flat typed arrays: every point's lng and lat one after another, rings and
 * polygons as start offsets. Point-in-polygon and nearest-coast tests run on these directly, and a
 * snapshot stores them as they are (no million small [lng, lat] arrays to build and collect).
 */

/** One polygon: outer ring then holes, each ring a closed list of [lng, lat]. */
export type PolygonRings = ReadonlyArray<ReadonlyArray<readonly [number, number]>>;

export interface FlatPolygons {
  /** lng, lat of every point, ring after ring. */
  coords: Float64Array;
  /** Rings: points [ringStart[r], ringStart[r + 1]) (in points, not numbers). */
  ringStart: Int32Array;
  /** Polygons: rings [polygonStart[p], polygonStart[p + 1]). */
  polygonStart: Int32Array;
}

export function flattenPolygons(polygons: ReadonlyArray<PolygonRings>): FlatPolygons {
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
  return { coords, ringStart, polygonStart };
}

/** The nested form back (for code that walks rings as arrays). */
export function unflattenPolygons(flat: FlatPolygons): PolygonRings[] {
  const { coords, ringStart, polygonStart } = flat;
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

/** The polygons of `a` followed by those of `b`. */
export function concatFlatPolygons(a: FlatPolygons, b: FlatPolygons): FlatPolygons {
  const aRings = a.ringStart.length - 1;
  const aPoints = a.coords.length / 2;
  const aPolygons = a.polygonStart.length - 1;
  const coords = new Float64Array(a.coords.length + b.coords.length);
  coords.set(a.coords);
  coords.set(b.coords, a.coords.length);
  const ringStart = new Int32Array(aRings + b.ringStart.length);
  ringStart.set(a.ringStart.subarray(0, aRings));
  for (let r = 0; r < b.ringStart.length; r++) ringStart[aRings + r] = b.ringStart[r] + aPoints;
  const polygonStart = new Int32Array(aPolygons + b.polygonStart.length);
  polygonStart.set(a.polygonStart.subarray(0, aPolygons));
  for (let p = 0; p < b.polygonStart.length; p++)
    polygonStart[aPolygons + p] = b.polygonStart[p] + aRings;
  return { coords, ringStart, polygonStart };
}

export function polygonCount(flat: FlatPolygons): number {
  return flat.polygonStart.length - 1;
}

/** Even-odd ray casting in lng/lat over points [from, to) of the flat coordinates. */
export function ringContainsFlat(
  coords: Float64Array,
  from: number,
  to: number,
  x: number,
  y: number
): boolean {
  let inside = false;
  for (let i = from, j = to - 1; i < to; j = i++) {
    const xi = coords[2 * i];
    const yi = coords[2 * i + 1];
    const xj = coords[2 * j];
    const yj = coords[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
