/**
 * One fine region's water grid over Natural Earth 1:10m land: a cell is water when its centre is
 * outside every land ring (even-odd scanline at the row's centre latitude), and a move between two
 * neighbouring water cells (8 directions) is allowed only when the straight line between their
 * centres crosses no ring edge, so a grid path never steps over a spit or a causeway thinner than
 * a cell. The same ring edges give the exact land test of legs (crossesLand) that pulls grid paths
 * straight. Coordinates are planar lng/lat inside the region (legs here are short: a lat/lng chord
 * of 50 km is within tens of metres of the great circle).
 */
import { MEAN_RADIUS_M, RAD } from "../../geo/geodesy";
import { decodeRing, FineRegionData } from "./fine-land-file";

/** A grid's computed arrays: ring edges, their cells (CSR), water cells and clear steps. */
export interface FineGridParts {
  ax: Float64Array;
  ay: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  cellStart: Int32Array;
  cellEdges: Int32Array;
  water: Uint8Array;
  stepMask: Uint8Array;
}

export class FineGrid {
  readonly id: string;
  readonly west: number;
  readonly south: number;
  readonly east: number;
  readonly north: number;
  readonly dLat: number;
  readonly dLng: number;
  readonly rows: number;
  readonly cols: number;
  /** 1: water. */
  readonly water: Uint8Array;
  /** Ring edges: (ax, ay) → (bx, by). */
  private readonly ax: Float64Array;
  private readonly ay: Float64Array;
  private readonly bx: Float64Array;
  private readonly by: Float64Array;
  /** CSR: edges touching cell i are cellEdges[cellStart[i] .. cellStart[i + 1]). */
  private readonly cellStart: Int32Array;
  private readonly cellEdges: Int32Array;
  private cellEdgesInit?: Int32Array;
  private stepMaskMade?: Uint8Array;
  private readonly seen: Int32Array;
  private tick = 0;
  /** Metres of one step east in each row, and of one step north. */
  readonly stepEast: Float64Array;
  readonly stepNorth: number;

  /**
   * The grid of a region, made from its rings, or put back from `parts` (a snapshot of an
   * earlier grid of the same region: see parts()).
   */
  constructor(region: FineRegionData, parts?: FineGridParts) {
    this.id = region.id;
    [this.west, this.south, this.east, this.north] = region.box;
    this.dLat = region.cellDegrees;
    const mid = ((this.south + this.north) / 2) * RAD;
    this.dLng = region.cellDegrees / Math.cos(mid);
    this.rows = Math.ceil((this.north - this.south) / this.dLat);
    this.cols = Math.ceil((this.east - this.west) / this.dLng);
    this.stepNorth = this.dLat * RAD * MEAN_RADIUS_M;
    this.stepEast = new Float64Array(this.rows);
    for (let r = 0; r < this.rows; r++)
      this.stepEast[r] = this.dLng * RAD * MEAN_RADIUS_M * Math.cos(this.rowLat(r) * RAD);
    if (parts) {
      ({ ax: this.ax, ay: this.ay, bx: this.bx, by: this.by, water: this.water } = parts);
      this.cellStart = parts.cellStart;
      this.cellEdges = parts.cellEdges;
      this.stepMaskMade = parts.stepMask;
      this.seen = new Int32Array(this.ax.length);
      if (
        this.water.length !== this.rows * this.cols ||
        this.cellStart.length !== this.water.length + 1
      )
        throw new Error(`fine grid ${this.id}: stored parts do not fit the region`);
      return;
    }

    const ax: number[] = [];
    const ay: number[] = [];
    const bx: number[] = [];
    const by: number[] = [];
    for (const enc of region.rings) {
      const p = decodeRing(enc);
      const n = p.length / 2;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n;
        if (p[2 * i] === p[2 * j] && p[2 * i + 1] === p[2 * j + 1]) continue;
        ax.push(p[2 * i]);
        ay.push(p[2 * i + 1]);
        bx.push(p[2 * j]);
        by.push(p[2 * j + 1]);
      }
    }
    this.ax = Float64Array.from(ax);
    this.ay = Float64Array.from(ay);
    this.bx = Float64Array.from(bx);
    this.by = Float64Array.from(by);
    const cells = this.rows * this.cols;
    const { rows, cols, west, south, dLat, dLng } = this;
    const counts = new Int32Array(cells + 1);
    // Bucket each edge into the cells of its bounding box (1:10m edges are short), in two passes.
    for (let pass = 0; pass < 2; pass++) {
      const fill = pass === 1 ? counts.slice(0, cells) : counts;
      const out = pass === 1 ? new Int32Array(counts[cells]) : undefined;
      for (let e = 0; e < ax.length; e++) {
        const c0 = Math.max(0, Math.floor((Math.min(ax[e], bx[e]) - west) / dLng));
        const c1 = Math.min(cols - 1, Math.floor((Math.max(ax[e], bx[e]) - west) / dLng));
        const r0 = Math.max(0, Math.floor((Math.min(ay[e], by[e]) - south) / dLat));
        const r1 = Math.min(rows - 1, Math.floor((Math.max(ay[e], by[e]) - south) / dLat));
        for (let r = r0; r <= r1; r++)
          for (let c = c0; c <= c1; c++) {
            if (out) out[fill[r * cols + c]++] = e;
            else counts[r * cols + c + 1]++;
          }
      }
      if (pass === 0) for (let i = 0; i < cells; i++) counts[i + 1] += counts[i];
      else this.cellEdgesInit = out;
    }
    this.cellStart = counts;
    this.cellEdges = this.cellEdgesInit!;
    this.cellEdgesInit = undefined;
    this.seen = new Int32Array(ax.length);

    // Water: even-odd along each row's centre latitude (every ring edge counts, also those in the
    // margin beyond the box, so the parity is that of the whole clipped land): land spans between
    // pairs of crossings.
    this.water = new Uint8Array(cells).fill(1);
    const byRow: number[][] = Array.from({ length: rows }, () => []);
    for (let e = 0; e < ax.length; e++) {
      // One row more each side: the crossing test below decides (rounding must not drop an edge).
      const r0 = Math.max(0, Math.ceil((Math.min(ay[e], by[e]) - south) / dLat - 0.5) - 1);
      const r1 = Math.min(rows - 1, Math.floor((Math.max(ay[e], by[e]) - south) / dLat - 0.5) + 1);
      for (let r = r0; r <= r1; r++) byRow[r].push(e);
    }
    const cross: number[] = [];
    for (let r = 0; r < rows; r++) {
      const lat = south + (r + 0.5) * dLat;
      cross.length = 0;
      for (const e of byRow[r]) {
        const ya = ay[e];
        const yb = by[e];
        if (ya > lat === yb > lat) continue;
        cross.push(ax[e] + ((lat - ya) * (bx[e] - ax[e])) / (yb - ya));
      }
      cross.sort((a, b) => a - b);
      // Cells whose centre x lies in [cross[2k], cross[2k + 1]) are land.
      for (let k = 0; k + 1 < cross.length; k += 2) {
        const c0 = Math.max(0, Math.ceil((cross[k] - west) / dLng - 0.5));
        const c1 = Math.min(cols, Math.ceil((cross[k + 1] - west) / dLng - 0.5));
        if (c1 > c0) this.water.fill(0, r * cols + c0, r * cols + c1);
      }
    }
  }

  rowLat(r: number): number {
    return this.south + (r + 0.5) * this.dLat;
  }

  colLng(c: number): number {
    return this.west + (c + 0.5) * this.dLng;
  }

  row(lat: number): number {
    return Math.floor((lat - this.south) / this.dLat);
  }

  col(lng: number): number {
    return Math.floor((lng - this.west) / this.dLng);
  }

  /** Is the point inside the box, at least `cells` cells from its edge? */
  contains(lat: number, lng: number, cells = 0): boolean {
    const r = this.row(lat);
    const c = this.col(lng);
    return r >= cells && c >= cells && r < this.rows - cells && c < this.cols - cells;
  }

  /** Edges crossed by the segment, counted once each (stops at the first when `any`). */
  private crossings(x1: number, y1: number, x2: number, y2: number, any: boolean): number {
    const t = ++this.tick;
    let n = 0;
    // Pieces no longer than half a cell, each looking at the cells of its bounding box.
    const steps = Math.max(
      1,
      Math.ceil(Math.max(Math.abs(x2 - x1) / this.dLng, Math.abs(y2 - y1) / this.dLat) * 2)
    );
    for (let s = 0; s < steps; s++) {
      const px = x1 + ((x2 - x1) * s) / steps;
      const py = y1 + ((y2 - y1) * s) / steps;
      const qx = x1 + ((x2 - x1) * (s + 1)) / steps;
      const qy = y1 + ((y2 - y1) * (s + 1)) / steps;
      const c0 = Math.max(0, this.col(Math.min(px, qx)));
      const c1 = Math.min(this.cols - 1, this.col(Math.max(px, qx)));
      const r0 = Math.max(0, this.row(Math.min(py, qy)));
      const r1 = Math.min(this.rows - 1, this.row(Math.max(py, qy)));
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = r * this.cols + c;
          for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
            const e = this.cellEdges[k];
            if (this.seen[e] === t) continue;
            this.seen[e] = t;
            if (segmentsCross(x1, y1, x2, y2, this.ax[e], this.ay[e], this.bx[e], this.by[e])) {
              n++;
              if (any) return n;
            }
          }
        }
      }
    }
    return n;
  }

  /** Does the leg a → b cross a ring edge (within the box)? */
  legCrossesEdges(a: { lat: number; lng: number }, b: { lat: number; lng: number }): boolean {
    // Clipped to the box first (Liang–Barsky): an ocean leg may be thousands of km long.
    const dx = b.lng - a.lng;
    const dy = b.lat - a.lat;
    let t0 = 0;
    let t1 = 1;
    const clip = (p: number, q: number): boolean => {
      if (p === 0) return q >= 0;
      const t = q / p;
      if (p < 0) {
        if (t > t1) return false;
        if (t > t0) t0 = t;
      } else {
        if (t < t0) return false;
        if (t < t1) t1 = t;
      }
      return true;
    };
    if (
      !clip(-dx, a.lng - this.west) ||
      !clip(dx, this.east - a.lng) ||
      !clip(-dy, a.lat - this.south) ||
      !clip(dy, this.north - a.lat)
    )
      return false;
    return (
      this.crossings(a.lng + t0 * dx, a.lat + t0 * dy, a.lng + t1 * dx, a.lat + t1 * dy, true) > 0
    );
  }

  /** Does the leg's bounding box meet the box? (a leg may cross it with both ends outside) */
  legMeetsBox(a: { lat: number; lng: number }, b: { lat: number; lng: number }): boolean {
    return (
      Math.max(a.lng, b.lng) >= this.west &&
      Math.min(a.lng, b.lng) <= this.east &&
      Math.max(a.lat, b.lat) >= this.south &&
      Math.min(a.lat, b.lat) <= this.north
    );
  }

  /** Exact: is the point on 1:10m land? (its cell centre's side, flipped per edge crossed to it) */
  isLand(lat: number, lng: number): boolean {
    const r = Math.min(this.rows - 1, Math.max(0, this.row(lat)));
    const c = Math.min(this.cols - 1, Math.max(0, this.col(lng)));
    const centreWater = this.water[r * this.cols + c] === 1;
    const flips = this.crossings(this.colLng(c), this.rowLat(r), lng, lat, false);
    return centreWater === ((flips & 1) === 1);
  }

  /** Does the straight leg a → b touch 1:10m land (an edge crossed, or an end on land)? */
  crossesLand(aLat: number, aLng: number, bLat: number, bLng: number): boolean {
    return this.crossings(aLng, aLat, bLng, bLat, true) > 0 || this.isLand(aLat, aLng);
  }

  /** Everything the constructor computes, as typed arrays (for a snapshot). */
  parts(): FineGridParts {
    return {
      ax: this.ax,
      ay: this.ay,
      bx: this.bx,
      by: this.by,
      cellStart: this.cellStart,
      cellEdges: this.cellEdges,
      water: this.water,
      stepMask: this.stepMask,
    };
  }

  /**
   * Per water cell, bit k set when the step to its neighbour STEPS[k] is to water and clear
   * (stepIsClear): made once, on first use, so searches read a byte instead of testing edges.
   */
  get stepMask(): Uint8Array {
    if (this.stepMaskMade) return this.stepMaskMade;
    const { rows, cols, water } = this;
    const mask = new Uint8Array(rows * cols);
    for (let r = 0; r < rows; r++)
      for (let c = 0; c < cols; c++) {
        const u = r * cols + c;
        if (water[u] !== 1) continue;
        let m = 0;
        for (let k = 0; k < 8; k++) {
          const rr = r + STEPS[k][0];
          const cc = c + STEPS[k][1];
          if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
          const v = rr * cols + cc;
          if (water[v] === 1 && this.stepIsClear(u, v)) m |= 1 << k;
        }
        mask[u] = m;
      }
    return (this.stepMaskMade = mask);
  }

  /** May a path step from water cell i to its neighbour j (no ring edge between the centres)? */
  stepIsClear(i: number, j: number): boolean {
    const cols = this.cols;
    const ri = (i / cols) | 0;
    const rj = (j / cols) | 0;
    const ci = i - ri * cols;
    const cj = j - rj * cols;
    const cs = this.cellStart;
    // No edge in the cells the step passes: clear without computing.
    if (
      cs[i] === cs[i + 1] &&
      cs[j] === cs[j + 1] &&
      cs[ri * cols + cj] === cs[ri * cols + cj + 1] &&
      cs[rj * cols + ci] === cs[rj * cols + ci + 1]
    )
      return true;
    return (
      this.crossings(this.colLng(ci), this.rowLat(ri), this.colLng(cj), this.rowLat(rj), true) === 0
    );
  }
}

/** The 8 neighbour steps [rows, cols] of stepMask's bits. */
export const STEPS: ReadonlyArray<readonly [number, number]> = [
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1],
  [0, 1],
  [1, -1],
  [1, 0],
  [1, 1],
];

/** Proper or touching intersection of segments p1p2 and p3p4 (planar). */
function segmentsCross(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  x3: number,
  y3: number,
  x4: number,
  y4: number
): boolean {
  const d1 = (x4 - x3) * (y1 - y3) - (y4 - y3) * (x1 - x3);
  const d2 = (x4 - x3) * (y2 - y3) - (y4 - y3) * (x2 - x3);
  if ((d1 > 0 && d2 > 0) || (d1 < 0 && d2 < 0)) return false;
  const d3 = (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1);
  const d4 = (x2 - x1) * (y4 - y1) - (y2 - y1) * (x4 - x1);
  if ((d3 > 0 && d4 > 0) || (d3 < 0 && d4 < 0)) return false;
  if (d1 === 0 && d2 === 0) {
    // Collinear: overlap of the projections.
    return (
      Math.max(Math.min(x1, x2), Math.min(x3, x4)) <=
        Math.min(Math.max(x1, x2), Math.max(x3, x4)) &&
      Math.max(Math.min(y1, y2), Math.min(y3, y4)) <= Math.min(Math.max(y1, y2), Math.max(y3, y4))
    );
  }
  return true;
}
