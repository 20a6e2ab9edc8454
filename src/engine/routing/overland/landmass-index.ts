/**
 * Which landmass (land polygon) a point lies on. Polygons come from Natural Earth land (loaded by
 * src/data/inland.ts); a landmass id is the polygon's index. Points in the sea just off a coast
 * (ports, quays, coarse coastlines) snap to the nearest landmass within `snapMeters`.
 */
import { LatLng } from "../../types";
import { LandmassRaster, rasterLandmass } from "./landmass-raster";
import { bandOf, bandRange, LatitudeBands, latitudeBands } from "../../geo/latitude-bands";
import { localSegmentMeters, metersToDegrees } from "../../geo/geodesy";
import {
  FlatPolygons,
  flattenPolygons,
  polygonCount,
  PolygonRings,
  ringContainsFlat,
} from "../../geo/flat-polygons";

export type { PolygonRings } from "../../geo/flat-polygons";

export interface LandmassIndexOptions {
  /** How far off the coast a point may be and still count as on that landmass. */
  snapMeters?: number;
  /** How many point→landmass answers to remember. */
  cacheSize?: number;
  /** Answers precomputed on a grid (landmass-raster.ts, built from this index at snapshot time). */
  raster?: LandmassRaster;
  /**
   * Rings and polygons of more points than this are tested through latitude bands (2,000 by
   * default: on short rings, building the bands costs more than the full loops they save).
   */
  bandedPoints?: number;
  /**
   * The index's own look-up structures built ahead (prepared(), stored in a snapshot next to the
   * raster): taken as they are instead of built at start or on first use.
   */
  prepared?: PreparedLandmassIndex;
}

/** Latitude bands of several rings or polygons, packed into flat arrays (one snapshot entry). */
export interface PackedBands {
  /** Ring or polygon id of each entry. */
  ids: Int32Array;
  /** Per entry: its first band. */
  first: Int32Array;
  /** Per entry e: its band starts are start[startAt[e] .. startAt[e + 1]). */
  startAt: Int32Array;
  start: Int32Array;
  /** Per entry e: its items are items[itemsAt[e] .. itemsAt[e + 1]). */
  itemsAt: Int32Array;
  items: Int32Array;
}

/**
 * Everything an index builds from its polygons, as flat arrays: the bounding boxes, the outer
 * rings cut at ±180° unwrapped, and the latitude bands of every long ring and polygon (built at
 * snapshot time, so a start neither loops over every point nor builds Eurasia's bands on the
 * first coastal look-up).
 */
export interface PreparedLandmassIndex {
  boxes: Float64Array;
  /** Polygon ids of the unwrapped outer rings, their xs (unwrappedAt offsets) and [min, max]. */
  unwrappedIds: Int32Array;
  unwrappedAt: Int32Array;
  unwrappedXs: Float64Array;
  unwrappedRange: Float64Array;
  ringBands: PackedBands;
  polygonBands: PackedBands;
}

export class LandmassIndex {
  readonly flat: FlatPolygons;
  /** Per polygon, its outer ring's bounding box: minLng, minLat, maxLng, maxLat. */
  private readonly boxes: Float64Array;
  readonly snapMeters: number;
  readonly raster?: LandmassRaster;
  private readonly cacheSize: number;
  private readonly cache = new Map<string, number | null>();
  /**
   * Outer rings that cross ±180° (Eurasia through Chukotka, Fiji, Antarctica), by polygon, with
   * their longitudes unwrapped (continued past 180 after each jump) and that longitude range.
   */
  private readonly unwrapped = new Map<number, { xs: Float64Array; min: number; max: number }>();
  /** Latitude bands of long rings (containment) and polygons (snapping), built on first use. */
  private readonly ringBands = new Map<number, LatitudeBands>();
  private readonly polygonBands = new Map<number, LatitudeBands>();
  private scratch: Int32Array = new Int32Array(1024);
  private readonly bandedPoints: number;

  /** Polygons nested, or flat (as a snapshot holds them: used as they are, not copied). */
  constructor(
    polygons: ReadonlyArray<PolygonRings> | FlatPolygons,
    options: LandmassIndexOptions = {}
  ) {
    this.snapMeters = options.snapMeters ?? 20_000;
    this.cacheSize = options.cacheSize ?? 100_000;
    this.raster = options.raster;
    this.bandedPoints = options.bandedPoints ?? 2000;
    const flat = Array.isArray(polygons)
      ? flattenPolygons(polygons as ReadonlyArray<PolygonRings>)
      : (polygons as FlatPolygons);
    this.flat = flat;
    const prepared = options.prepared ?? options.raster?.prepared;
    if (prepared) {
      this.boxes = prepared.boxes;
      for (let u = 0; u < prepared.unwrappedIds.length; u++)
        this.unwrapped.set(prepared.unwrappedIds[u], {
          xs: prepared.unwrappedXs.subarray(prepared.unwrappedAt[u], prepared.unwrappedAt[u + 1]),
          min: prepared.unwrappedRange[2 * u],
          max: prepared.unwrappedRange[2 * u + 1],
        });
      unpackBands(prepared.ringBands, this.ringBands);
      unpackBands(prepared.polygonBands, this.polygonBands);
      return;
    }
    const n = polygonCount(flat);
    this.boxes = new Float64Array(4 * n);
    for (let i = 0; i < n; i++) {
      let minLng = Infinity,
        minLat = Infinity,
        maxLng = -Infinity,
        maxLat = -Infinity;
      const outer = flat.polygonStart[i];
      if (outer < flat.polygonStart[i + 1]) {
        for (let k = flat.ringStart[outer]; k < flat.ringStart[outer + 1]; k++) {
          const lng = flat.coords[2 * k];
          const lat = flat.coords[2 * k + 1];
          if (lng < minLng) minLng = lng;
          if (lng > maxLng) maxLng = lng;
          if (lat < minLat) minLat = lat;
          if (lat > maxLat) maxLat = lat;
        }
      }
      this.boxes[4 * i] = minLng;
      this.boxes[4 * i + 1] = minLat;
      this.boxes[4 * i + 2] = maxLng;
      this.boxes[4 * i + 3] = maxLat;
    }
    for (let i = 0; i < n; i++) {
      const outer = flat.polygonStart[i];
      if (outer >= flat.polygonStart[i + 1]) continue;
      const ring = unwrapRing(flat.coords, flat.ringStart[outer], flat.ringStart[outer + 1]);
      if (ring) this.unwrapped.set(i, ring);
    }
  }

  /**
   * The look-up structures of this index, all built (the bands of every ring and polygon the
   * tests walk through bands), as flat arrays for a snapshot: `prepared` in the options of an
   * index over the same polygons and options takes them back.
   */
  prepared(): PreparedLandmassIndex {
    const { ringStart, polygonStart } = this.flat;
    const rings: number[] = [];
    const polygons: number[] = [];
    for (let i = 0; i + 1 < polygonStart.length; i++) {
      // The tests band a polygon, an outer ring or a hole by the same rule (see below).
      if (ringStart[polygonStart[i + 1]] - ringStart[polygonStart[i]] > this.bandedPoints)
        polygons.push(i);
      for (let r = polygonStart[i]; r < polygonStart[i + 1]; r++)
        if (ringStart[r + 1] - ringStart[r] > this.bandedPoints) rings.push(r);
    }
    const ids = [...this.unwrapped.keys()].sort((a, b) => a - b);
    const at = new Int32Array(ids.length + 1);
    ids.forEach((id, u) => (at[u + 1] = at[u] + this.unwrapped.get(id)!.xs.length));
    const xs = new Float64Array(at[ids.length]);
    const range = new Float64Array(2 * ids.length);
    ids.forEach((id, u) => {
      const ring = this.unwrapped.get(id)!;
      xs.set(ring.xs, at[u]);
      range[2 * u] = ring.min;
      range[2 * u + 1] = ring.max;
    });
    return {
      boxes: this.boxes,
      unwrappedIds: Int32Array.from(ids),
      unwrappedAt: at,
      unwrappedXs: xs,
      unwrappedRange: range,
      ringBands: packBands(rings.map((r) => [r, this.bandsOfRing(r)])),
      polygonBands: packBands(polygons.map((i) => [i, this.bandsOfPolygon(i)])),
    };
  }

  get size(): number {
    return polygonCount(this.flat);
  }

  /** The landmass id of the point, or null when it is at sea farther than the snap radius. */
  landmassOf(p: LatLng): number | null {
    const known = this.raster && rasterLandmass(this.raster, p.lat, p.lng);
    if (known !== undefined) return known;
    const key = `${p.lat},${p.lng}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const id = this.polygonContaining(p) ?? this.nearestWithinSnap(p);
    if (this.cache.size >= this.cacheSize) this.cache.clear();
    this.cache.set(key, id);
    return id;
  }

  /** The first polygon containing the point (even-odd, holes excluded), without snapping. */
  polygonContaining(p: LatLng): number | null {
    const { polygonStart } = this.flat;
    const box = this.boxes;
    for (let i = 0; i < polygonStart.length - 1; i++) {
      if (
        p.lng < box[4 * i] ||
        p.lat < box[4 * i + 1] ||
        p.lng > box[4 * i + 2] ||
        p.lat > box[4 * i + 3]
      )
        continue;
      const outer = polygonStart[i];
      if (outer >= polygonStart[i + 1]) continue;
      const across = this.unwrapped.get(i);
      const inOuter = across
        ? this.unwrappedContains(outer, across, p.lng, p.lat)
        : this.ringContains(outer, p.lng, p.lat);
      if (!inOuter) continue;
      let inHole = false;
      for (let h = outer + 1; h < polygonStart[i + 1]; h++) {
        if (this.ringContains(h, p.lng, p.lat)) {
          inHole = true;
          break;
        }
      }
      if (!inHole) return i;
    }
    return null;
  }

  private nearestWithinSnap(p: LatLng): number | null {
    const { ringStart, polygonStart } = this.flat;
    const box = this.boxes;
    const dLat = metersToDegrees(this.snapMeters);
    const dLng = dLat / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180));
    let best: number | null = null;
    let bestMeters = this.snapMeters;
    for (let i = 0; i < polygonStart.length - 1; i++) {
      if (p.lat < box[4 * i + 1] - dLat || p.lat > box[4 * i + 3] + dLat) continue;
      if (p.lng < box[4 * i] - dLng || p.lng > box[4 * i + 2] + dLng) continue;
      if (ringStart[polygonStart[i + 1]] - ringStart[polygonStart[i]] <= this.bandedPoints) {
        for (let r = polygonStart[i]; r < polygonStart[i + 1]; r++) {
          for (let k = ringStart[r] + 1; k < ringStart[r + 1]; k++) {
            const meters = this.edgeMeters(p, k, dLat, dLng);
            if (meters <= bestMeters) {
              bestMeters = meters;
              best = i;
            }
          }
        }
        continue;
      }
      // A long coast: only the edges of the bands the snap radius reaches, in the same order.
      const bands = this.bandsOfPolygon(i);
      let n = 0;
      for (let b = bandOf(p.lat - dLat), last = bandOf(p.lat + dLat); b <= last; b++) {
        const [from, to] = bandRange(bands, b);
        if (n + to - from > this.scratch.length)
          this.scratch = doubledTo(this.scratch, n + to - from);
        this.scratch.set(bands.items.subarray(from, to), n);
        n += to - from;
      }
      const edges = this.scratch.subarray(0, n).sort();
      for (let e = 0; e < n; e++) {
        if (e > 0 && edges[e] === edges[e - 1]) continue;
        const meters = this.edgeMeters(p, edges[e], dLat, dLng);
        if (meters <= bestMeters) {
          bestMeters = meters;
          best = i;
        }
      }
    }
    return best;
  }

  /**
   * Metres from the point to the edge from point k - 1 to point k; Infinity when the cheap
   * rejects put it outside the snap box or it is an antimeridian cut.
   */
  private edgeMeters(p: LatLng, k: number, dLat: number, dLng: number): number {
    const { coords } = this.flat;
    const lat1 = coords[2 * k - 1];
    const lat2 = coords[2 * k + 1];
    // Cheap rejects: the edge's latitude or longitude span is outside the snap box.
    if (
      (lat1 < p.lat - dLat && lat2 < p.lat - dLat) ||
      (lat1 > p.lat + dLat && lat2 > p.lat + dLat)
    )
      return Infinity;
    const lng1 = coords[2 * k - 2];
    const lng2 = coords[2 * k];
    if (
      (lng1 < p.lng - dLng && lng2 < p.lng - dLng) ||
      (lng1 > p.lng + dLng && lng2 > p.lng + dLng)
    )
      return Infinity;
    if (Math.abs(lng1 - lng2) > 180) return Infinity; // antimeridian cut edge
    return localSegmentMeters(p, { lat: lat1, lng: lng1 }, { lat: lat2, lng: lng2 }).meters;
  }

  /** Even-odd containment in ring r; a long ring walks only the edges of the point's band. */
  private ringContains(r: number, x: number, y: number): boolean {
    const { coords, ringStart } = this.flat;
    const from = ringStart[r];
    const to = ringStart[r + 1];
    if (to - from <= this.bandedPoints) return ringContainsFlat(coords, from, to, x, y);
    const bands = this.bandsOfRing(r);
    const [s, e] = bandRange(bands, bandOf(y));
    let inside = false;
    for (let k = s; k < e; k++) {
      const i = bands.items[k];
      const j = i === from ? to - 1 : i - 1;
      const xi = coords[2 * i];
      const yi = coords[2 * i + 1];
      const xj = coords[2 * j];
      const yj = coords[2 * j + 1];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
    return inside;
  }

  /** ringContainsUnwrapped on ring r, through its bands when it is long. */
  private unwrappedContains(
    r: number,
    ring: { xs: Float64Array; min: number; max: number },
    lng: number,
    lat: number
  ): boolean {
    const { coords, ringStart } = this.flat;
    const from = ringStart[r];
    const n = ring.xs.length;
    if (n <= this.bandedPoints) return ringContainsUnwrapped(coords, from, ring, lng, lat);
    const { xs } = ring;
    const bands = this.bandsOfRing(r);
    const [s, e] = bandRange(bands, bandOf(lat));
    for (const shift of [0, 360, -360]) {
      const x = lng + shift;
      if (x < ring.min || x > ring.max) continue;
      let inside = false;
      for (let k = s; k < e; k++) {
        const i = bands.items[k] - from;
        const j = i === 0 ? n - 1 : i - 1;
        const yi = coords[2 * (from + i) + 1];
        const yj = coords[2 * (from + j) + 1];
        if (yi > lat !== yj > lat && x < ((xs[j] - xs[i]) * (lat - yi)) / (yj - yi) + xs[i])
          inside = !inside;
      }
      if (inside) return true;
    }
    return false;
  }

  /** Bands of ring r's edges as the containment test walks them (point i from the one before). */
  private bandsOfRing(r: number): LatitudeBands {
    let bands = this.ringBands.get(r);
    if (!bands) {
      const { coords, ringStart } = this.flat;
      const from = ringStart[r];
      const to = ringStart[r + 1];
      const ids = new Int32Array(to - from);
      const lo = new Float64Array(to - from);
      const hi = new Float64Array(to - from);
      for (let i = from; i < to; i++) {
        const j = i === from ? to - 1 : i - 1;
        ids[i - from] = i;
        lo[i - from] = Math.min(coords[2 * i + 1], coords[2 * j + 1]);
        hi[i - from] = Math.max(coords[2 * i + 1], coords[2 * j + 1]);
      }
      this.ringBands.set(r, (bands = latitudeBands(ids, lo, hi)));
    }
    return bands;
  }

  /** Bands of polygon i's edges as the snap test walks them (point k from k - 1 in each ring). */
  private bandsOfPolygon(i: number): LatitudeBands {
    let bands = this.polygonBands.get(i);
    if (!bands) {
      const { coords, ringStart, polygonStart } = this.flat;
      const ids: number[] = [];
      const lo: number[] = [];
      const hi: number[] = [];
      for (let r = polygonStart[i]; r < polygonStart[i + 1]; r++)
        for (let k = ringStart[r] + 1; k < ringStart[r + 1]; k++) {
          ids.push(k);
          lo.push(Math.min(coords[2 * k - 1], coords[2 * k + 1]));
          hi.push(Math.max(coords[2 * k - 1], coords[2 * k + 1]));
        }
      this.polygonBands.set(i, (bands = latitudeBands(ids, lo, hi)));
    }
    return bands;
  }
}

function packBands(list: Array<[number, LatitudeBands]>): PackedBands {
  const startAt = new Int32Array(list.length + 1);
  const itemsAt = new Int32Array(list.length + 1);
  list.forEach(([, b], e) => {
    startAt[e + 1] = startAt[e] + b.start.length;
    itemsAt[e + 1] = itemsAt[e] + b.items.length;
  });
  const start = new Int32Array(startAt[list.length]);
  const items = new Int32Array(itemsAt[list.length]);
  list.forEach(([, b], e) => {
    start.set(b.start, startAt[e]);
    items.set(b.items, itemsAt[e]);
  });
  return {
    ids: Int32Array.from(list.map(([id]) => id)),
    first: Int32Array.from(list.map(([, b]) => b.first)),
    startAt,
    start,
    itemsAt,
    items,
  };
}

/** The packed bands as views (no copies) into `into`, by ring or polygon id. */
function unpackBands(packed: PackedBands, into: Map<number, LatitudeBands>): void {
  for (let e = 0; e < packed.ids.length; e++)
    into.set(packed.ids[e], {
      first: packed.first[e],
      start: packed.start.subarray(packed.startAt[e], packed.startAt[e + 1]),
      items: packed.items.subarray(packed.itemsAt[e], packed.itemsAt[e + 1]),
    });
}

function doubledTo(a: Int32Array, n: number): Int32Array {
  const out = new Int32Array(Math.max(n, 2 * a.length));
  out.set(a);
  return out;
}

/**
 * A ring cut at ±180° with its longitudes continued past 180 after each jump, or undefined when
 * it has no jump. Its jump edges would otherwise cross the whole map at their latitude and flip
 * the even-odd answer for every point of that latitude band (inland Lapland and the Russian north
 * fell off Eurasia, La Paz fell into Fiji).
 */
function unwrapRing(
  coords: Float64Array,
  from: number,
  to: number
): { xs: Float64Array; min: number; max: number } | undefined {
  let jumps = false;
  for (let k = from + 1; k < to && !jumps; k++)
    jumps = Math.abs(coords[2 * k] - coords[2 * (k - 1)]) > 180;
  if (!jumps) return undefined;
  const xs = new Float64Array(to - from);
  let offset = 0;
  let jumped = false;
  let min = Infinity;
  let max = -Infinity;
  for (let k = 0; k < xs.length; k++) {
    const x = coords[2 * (from + k)];
    if (k > 0) {
      const step = x - coords[2 * (from + k - 1)];
      if (step > 180) [offset, jumped] = [offset - 360, true];
      else if (step < -180) [offset, jumped] = [offset + 360, true];
    }
    xs[k] = x + offset;
    min = Math.min(min, xs[k]);
    max = Math.max(max, xs[k]);
  }
  return jumped ? { xs, min, max } : undefined;
}

/** Even-odd containment on an unwrapped ring, the point tried at lng, lng ± 360 in its range. */
function ringContainsUnwrapped(
  coords: Float64Array,
  from: number,
  ring: { xs: Float64Array; min: number; max: number },
  lng: number,
  lat: number
): boolean {
  const { xs } = ring;
  const n = xs.length;
  for (const shift of [0, 360, -360]) {
    const x = lng + shift;
    if (x < ring.min || x > ring.max) continue;
    let inside = false;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const yi = coords[2 * (from + i) + 1];
      const yj = coords[2 * (from + j) + 1];
      if (yi > lat !== yj > lat && x < ((xs[j] - xs[i]) * (lat - yi)) / (yj - yi) + xs[i])
        inside = !inside;
    }
    if (inside) return true;
  }
  return false;
}
