/**
 * A landmass index's answers precomputed on a grid, so that most look-ups cost one binary search
 * in a row instead of a point-in-polygon test against every ring (Eurasia alone has 11,000 points:
 * ~40 µs a look-up, and the terrain test of a TRUCK lane makes up to a hundred).
 *
 * A cell answers for every point in it only where the exact test cannot change inside it:
 * - no polygon edge, and no side of a polygon's bounding box, touches the cell, so each point of it
 *   is inside the same polygons as its neighbours (even-odd parity only changes across an edge).
 *   Cells linked through such cells form a component with one answer, found by asking the exact
 *   test once, at one cell of it;
 * - a cell inside no polygon answers "at sea" only when no edge is within the snap radius's
 *   bounding box of any of its points (the exact snap test would reject every edge there);
 * - a cell of the snap band, or one a coast crosses, answers polygon i when i is the only polygon
 *   with an edge that near, one edge of i is within the snap radius of all of the cell (its four
 *   corners, the distance being convex) and no other polygon holds any of it (a coast cell then
 *   needs a neighbour at sea): inside i or off its coast, every point of it answers i.
 * Every other cell says "ask the exact test". Built once, at snapshot time (src/data/inland.ts);
 * a property test checks it against the exact answers.
 */
import { metersToDegrees, MEAN_RADIUS_M } from "../../geo/geodesy";
import type { FlatPolygons } from "../../geo/flat-polygons";
import type { LatLng } from "../../types";
import type { PreparedLandmassIndex } from "./landmass-index";

/** Cell value: the exact test must answer. */
const ASK = 0;
/** Cell value: at sea, farther than the snap radius from every polygon. */
const AT_SEA = 1;
/** Cell value of polygon i: FIRST_ID + i. */
const FIRST_ID = 2;

/** Owner of a cell while building: no polygon near (0), polygon i (1 + i), or several. */
const SEVERAL = 0xffff;

/**
 * Margin (degrees) added round every edge, so that a point a rounding error outside a cell is
 * still covered by the cell's answer.
 */
const EPS = 1e-9;

/** The default cell: 1/16° (about 7 km), a binary fraction so cell indices compute exactly. */
export const DEFAULT_CELL_DEGREES = 1 / 16;

/** Run-length rows of cell values over the whole globe, cells from (-90, -180). */
export interface LandmassRaster {
  cellDegrees: number;
  rows: number;
  cols: number;
  /** Runs of row r: [rowStart[r], rowStart[r + 1]). */
  rowStart: Int32Array;
  /** First column of each run. */
  runCol: Int32Array;
  /** Value of each run: 0 ask, 1 at sea, 2 + i polygon i. */
  runValue: Int32Array;
  /**
   * The index's own look-up structures, stored with the raster (LandmassIndex.prepared()): an
   * index given this raster takes them instead of building them.
   */
  prepared?: PreparedLandmassIndex;
}

/** What the raster is built from: the index's polygons, snap radius and exact containment. */
export interface RasterSource {
  flat: FlatPolygons;
  snapMeters: number;
  /** The polygon containing a point by the exact test (no snapping), or null. */
  polygonContaining(p: LatLng): number | null;
}

/**
 * The raster's answer for a point: a polygon id, null (at sea beyond the snap radius), or
 * undefined when the exact test must answer (coasts, the snap band, points off the grid).
 */
export function rasterLandmass(
  r: LandmassRaster,
  lat: number,
  lng: number
): number | null | undefined {
  const row = Math.floor((lat + 90) / r.cellDegrees);
  const col = Math.floor((lng + 180) / r.cellDegrees);
  if (!(row >= 0 && row < r.rows && col >= 0 && col < r.cols)) return undefined;
  // The last run starting at or before col.
  let lo = r.rowStart[row];
  let hi = r.rowStart[row + 1] - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (r.runCol[mid] <= col) lo = mid;
    else hi = mid - 1;
  }
  const v = r.runValue[lo];
  return v === ASK ? undefined : v === AT_SEA ? null : v - FIRST_ID;
}

export function buildLandmassRaster(
  source: RasterSource,
  cellDegrees = DEFAULT_CELL_DEGREES
): LandmassRaster {
  const grid = new Grid(Math.round(180 / cellDegrees), Math.round(360 / cellDegrees), cellDegrees);
  const edge = new Uint8Array(grid.rows * grid.cols);
  const owner = new Uint16Array(grid.rows * grid.cols);
  markEdges(source, grid, edge, owner);
  const runs = edgeFreeRuns(source, grid, edge);
  const edges = source.snapMeters > 0 ? new EdgeBuckets(source.flat) : undefined;
  const metres = source.snapMeters - 1; // a metre for rounding

  const rowStart = new Int32Array(grid.rows + 1);
  const runCol: number[] = [];
  const runValue: number[] = [];
  for (let r = 0; r < grid.rows; r++) {
    rowStart[r] = runCol.length;
    let run = runs.rowStart[r];
    for (let c = 0; c < grid.cols; c++) {
      while (run < runs.rowStart[r + 1] && runs.to[run] < c) run++;
      const cell = r * grid.cols + c;
      const inRun = run < runs.rowStart[r + 1] && runs.from[run] <= c;
      const contained = inRun ? runs.answer[run] : -1;
      let v: number = ASK;
      if (contained >= 0) v = FIRST_ID + contained;
      else if (owner[cell] === 0) v = inRun ? AT_SEA : ASK;
      else if (
        edges &&
        owner[cell] !== SEVERAL &&
        (inRun || runs.seaNeighbour(grid, r, c)) &&
        edges.covers(grid, r, c, owner[cell] - 1, metres)
      )
        v = FIRST_ID + owner[cell] - 1;
      if (runCol.length === rowStart[r] || runValue[runValue.length - 1] !== v) {
        runCol.push(c);
        runValue.push(v);
      }
    }
  }
  rowStart[grid.rows] = runCol.length;
  return {
    cellDegrees,
    rows: grid.rows,
    cols: grid.cols,
    rowStart,
    runCol: Int32Array.from(runCol),
    runValue: Int32Array.from(runValue),
  };
}

class Grid {
  constructor(
    readonly rows: number,
    readonly cols: number,
    readonly g: number
  ) {}

  rowOf(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.g)));
  }

  colOf(lng: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((lng + 180) / this.g)));
  }
}

/**
 * Marks the cells every edge touches (`edge`), and the polygons whose edges the snap test could
 * weigh from some point of a cell (`owner`), with the sides of the polygons' bounding boxes.
 */
function markEdges(
  { flat, snapMeters }: RasterSource,
  grid: Grid,
  edge: Uint8Array,
  owner: Uint16Array
): void {
  const { coords, ringStart, polygonStart } = flat;
  const { cols, g } = grid;
  const own = (cell: number, id: number) => {
    const o = owner[cell];
    if (o === 0) owner[cell] = id;
    else if (o !== id) owner[cell] = SEVERAL;
  };
  const mark = (id: number, lat0: number, lat1: number, lng0: number, lng1: number) => {
    const c0 = grid.colOf(lng0 - EPS);
    const c1 = grid.colOf(lng1 + EPS);
    for (let r = grid.rowOf(lat0 - EPS), r1 = grid.rowOf(lat1 + EPS); r <= r1; r++)
      for (let c = c0; c <= c1; c++) {
        edge[r * cols + c] = 1;
        own(r * cols + c, id);
      }
  };
  const dLat = metersToDegrees(snapMeters);
  for (let p = 0; p + 1 < polygonStart.length; p++) {
    for (let ring = polygonStart[p]; ring < polygonStart[p + 1]; ring++) {
      const from = ringStart[ring];
      const to = ringStart[ring + 1];
      // Every edge, the closing one included (the containment test walks it).
      for (let i = from, j = to - 1; i < to; j = i++) {
        const lng1 = coords[2 * j];
        const lat1 = coords[2 * j + 1];
        const lng2 = coords[2 * i];
        const lat2 = coords[2 * i + 1];
        const latLo = Math.min(lat1, lat2);
        const latHi = Math.max(lat1, lat2);
        if (Math.abs(lng1 - lng2) > 180) {
          // Cut at ±180°: the ring is tested unwrapped, holes as they are; the whole band asks.
          mark(SEVERAL, latLo, latHi, -180, 180);
          continue;
        }
        const lngLo = Math.min(lng1, lng2);
        const lngHi = Math.max(lng1, lng2);
        mark(1 + p, latLo, latHi, lngLo, lngHi);
        // The snap test's cheap rejects: latitude within dLat, longitude within dLat / cos(lat).
        for (
          let r = grid.rowOf(latLo - dLat - EPS), r1 = grid.rowOf(latHi + dLat + EPS);
          r <= r1;
          r++
        ) {
          const poleward = Math.min(90, Math.max(Math.abs(r * g - 90), Math.abs((r + 1) * g - 90)));
          const dLng = dLat / Math.max(0.05, Math.cos((poleward * Math.PI) / 180));
          for (
            let c = grid.colOf(lngLo - dLng - EPS), c1 = grid.colOf(lngHi + dLng + EPS);
            c <= c1;
            c++
          )
            own(r * cols + c, 1 + p);
        }
      }
    }
    // The exact test skips a polygon outside its (raw) bounding box: for a ring cut at ±180°,
    // tested unwrapped, a side of that box can cut through it, so the box's sides ask too.
    const outer = polygonStart[p];
    if (outer >= polygonStart[p + 1]) continue;
    let minLng = Infinity,
      minLat = Infinity,
      maxLng = -Infinity,
      maxLat = -Infinity,
      cut = false;
    for (let k = ringStart[outer]; k < ringStart[outer + 1]; k++) {
      minLng = Math.min(minLng, coords[2 * k]);
      maxLng = Math.max(maxLng, coords[2 * k]);
      minLat = Math.min(minLat, coords[2 * k + 1]);
      maxLat = Math.max(maxLat, coords[2 * k + 1]);
      if (k > ringStart[outer] && Math.abs(coords[2 * k] - coords[2 * k - 2]) > 180) cut = true;
    }
    if (!cut) continue;
    mark(SEVERAL, minLat, maxLat, minLng, minLng);
    mark(SEVERAL, minLat, maxLat, maxLng, maxLng);
    mark(SEVERAL, minLat, minLat, minLng, maxLng);
    mark(SEVERAL, maxLat, maxLat, minLng, maxLng);
  }
}

/**
 * The runs of edge-free cells of each row, joined into components (a run and the runs it shares
 * a column with in the row below), each with the exact containment at one of its cells: the id
 * of the polygon holding it, or -1.
 */
class EdgeFreeRuns {
  constructor(
    readonly rowStart: Int32Array,
    readonly from: Int32Array,
    readonly to: Int32Array,
    readonly answer: Int32Array
  ) {}

  /** Whether a cell next to (r, c) is edge-free and inside no polygon. */
  seaNeighbour(grid: Grid, r: number, c: number): boolean {
    const at = (rr: number, cc: number) => {
      if (rr < 0 || rr >= grid.rows || cc < 0 || cc >= grid.cols) return false;
      let lo = this.rowStart[rr];
      let hi = this.rowStart[rr + 1] - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.from[mid] <= cc) lo = mid;
        else hi = mid - 1;
      }
      return lo <= hi && this.from[lo] <= cc && cc <= this.to[lo] && this.answer[lo] === -1;
    };
    return at(r - 1, c) || at(r + 1, c) || at(r, c - 1) || at(r, c + 1);
  }
}

function edgeFreeRuns(source: RasterSource, grid: Grid, edge: Uint8Array): EdgeFreeRuns {
  const { rows, cols, g } = grid;
  const rowStart = new Int32Array(rows + 1);
  const runRow: number[] = [];
  const runFrom: number[] = [];
  const runTo: number[] = [];
  const parent: number[] = [];
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (let r = 0; r < rows; r++) {
    rowStart[r] = runRow.length;
    let p = r > 0 ? rowStart[r - 1] : 0;
    const prevEnd = rowStart[r];
    for (let c = 0; c < cols;) {
      if (edge[r * cols + c]) {
        c++;
        continue;
      }
      const from = c;
      while (c < cols && !edge[r * cols + c]) c++;
      const id = runRow.length;
      runRow.push(r);
      runFrom.push(from);
      runTo.push(c - 1);
      parent.push(id);
      while (p < prevEnd && runTo[p] < from) p++;
      for (let q = p; q < prevEnd && runFrom[q] <= c - 1; q++) {
        const a = find(q);
        const b = find(id);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
  }
  rowStart[rows] = runRow.length;
  const answer = new Int32Array(runRow.length);
  const byRoot = new Map<number, number>();
  for (let id = 0; id < runRow.length; id++) {
    const root = find(id);
    let a = byRoot.get(root);
    if (a === undefined) {
      const centre = { lat: (runRow[root] + 0.5) * g - 90, lng: (runFrom[root] + 0.5) * g - 180 };
      a = source.polygonContaining(centre) ?? -1;
      byRoot.set(root, a);
    }
    answer[id] = a;
  }
  return new EdgeFreeRuns(rowStart, Int32Array.from(runFrom), Int32Array.from(runTo), answer);
}

const RAD = Math.PI / 180;
/** Edge buckets: 1° cells. */
const BUCKET_DEGREES = 1;

/**
 * The edges the snap test walks (a ring's consecutive points; not the closing edge, not those
 * cut at ±180°) by 1° cell, with their polygon, to find one edge near all of a cell.
 */
class EdgeBuckets {
  private readonly start: Int32Array;
  /** Point index k of each bucketed edge (from k - 1 to k). */
  private readonly items: Int32Array;
  private readonly polygonOfPoint: Int32Array;

  constructor(private readonly flat: FlatPolygons) {
    const { coords, ringStart, polygonStart } = flat;
    this.polygonOfPoint = new Int32Array(coords.length / 2);
    for (let p = 0; p + 1 < polygonStart.length; p++)
      this.polygonOfPoint.fill(p, ringStart[polygonStart[p]], ringStart[polygonStart[p + 1]]);
    const lists: number[][] = Array.from({ length: 180 * 360 }, () => []);
    for (let ring = 0; ring + 1 < ringStart.length; ring++) {
      for (let k = ringStart[ring] + 1; k < ringStart[ring + 1]; k++) {
        const lng1 = coords[2 * k - 2];
        const lng2 = coords[2 * k];
        if (Math.abs(lng1 - lng2) > 180) continue;
        const lat1 = coords[2 * k - 1];
        const lat2 = coords[2 * k + 1];
        for (let r = bucketRow(Math.min(lat1, lat2)); r <= bucketRow(Math.max(lat1, lat2)); r++)
          for (let c = bucketCol(Math.min(lng1, lng2)); c <= bucketCol(Math.max(lng1, lng2)); c++)
            lists[r * 360 + c].push(k);
      }
    }
    this.start = new Int32Array(lists.length + 1);
    for (let b = 0; b < lists.length; b++) this.start[b + 1] = this.start[b] + lists[b].length;
    this.items = new Int32Array(this.start[lists.length]);
    lists.forEach((l, b) => this.items.set(l, this.start[b]));
  }

  /**
   * Whether one edge of polygon `id` (in the 3 × 3 buckets round the cell) lies within `metres`
   * of every point of cell (r, c), by the snap test's measure: the distance with the cell's
   * largest cos(lat) bounds each point's own, and is convex, so its four corners decide.
   */
  covers(grid: Grid, r: number, c: number, id: number, metres: number): boolean {
    const lat0 = r * grid.g - 90;
    const lat1 = lat0 + grid.g;
    const lng0 = c * grid.g - 180;
    const lng1 = lng0 + grid.g;
    if (Math.abs(lat0) > 85 || Math.abs(lat1) > 85) return false;
    const k = Math.cos(
      RAD * (lat0 <= 0 && lat1 >= 0 ? 0 : Math.min(Math.abs(lat0), Math.abs(lat1)))
    );
    const limit = metres / (RAD * MEAN_RADIUS_M);
    const { coords } = this.flat;
    const br = bucketRow((lat0 + lat1) / 2);
    const bc = bucketCol((lng0 + lng1) / 2);
    for (let rr = Math.max(0, br - 1); rr <= Math.min(179, br + 1); rr++)
      for (let cc = Math.max(0, bc - 1); cc <= Math.min(359, bc + 1); cc++) {
        const b = rr * 360 + cc;
        for (let i = this.start[b]; i < this.start[b + 1]; i++) {
          const e = this.items[i];
          if (this.polygonOfPoint[e] !== id) continue;
          const aLng = coords[2 * e - 2];
          const aLat = coords[2 * e - 1];
          const bLng = coords[2 * e];
          const bLat = coords[2 * e + 1];
          if (
            within(k, limit, lat0, lng0, aLat, aLng, bLat, bLng) &&
            within(k, limit, lat0, lng1, aLat, aLng, bLat, bLng) &&
            within(k, limit, lat1, lng0, aLat, aLng, bLat, bLng) &&
            within(k, limit, lat1, lng1, aLat, aLng, bLat, bLng)
          )
            return true;
        }
      }
    return false;
  }
}

function bucketRow(lat: number): number {
  return Math.min(179, Math.max(0, Math.floor((lat + 90) / BUCKET_DEGREES)));
}

function bucketCol(lng: number): number {
  return Math.min(359, Math.max(0, Math.floor((lng + 180) / BUCKET_DEGREES)));
}

/** localSegmentMeters' planar distance (degrees) from (lat, lng) to a segment, with scale k, ≤ limit. */
function within(
  k: number,
  limit: number,
  lat: number,
  lng: number,
  aLat: number,
  aLng: number,
  bLat: number,
  bLng: number
): boolean {
  if (Math.abs(aLng - lng) > 90 || Math.abs(bLng - lng) > 90) return false;
  const ax = (aLng - lng) * k;
  const ay = aLat - lat;
  const dx = (bLng - lng) * k - ax;
  const dy = bLat - lat - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
  return Math.hypot(ax + t * dx, ay + t * dy) <= limit;
}
