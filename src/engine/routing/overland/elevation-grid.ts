/**
 * Land elevation on a regular grid of cell centres (data/land/terrain/elevation-20min.json, built
 * by src/builders/land/build-elevation-grid.ts), read by bilinear interpolation. Sea is 0.
 */
import { LatLng } from "../../types";

export interface ElevationGridFile {
  source: string;
  licence: string;
  /** Latitude of the first row's cell centres (the southernmost), degrees. */
  firstLat: number;
  /** Longitude of the first column's cell centres; columns run east and wrap round. */
  firstLng: number;
  stepDegrees: number;
  rows: number;
  columns: number;
  /** Heights are integers in this unit, row after row. */
  unitMeters: number;
  heights: number[];
}

export class ElevationGrid {
  private readonly heights: Float32Array;
  private readonly firstLat: number;
  private readonly firstLng: number;
  private readonly step: number;
  private readonly rows: number;
  private readonly columns: number;

  constructor(file: ElevationGridFile) {
    if (file.heights.length !== file.rows * file.columns)
      throw new Error("elevation grid: rows × columns do not match the heights");
    if (Math.abs(file.columns * file.stepDegrees - 360) > 1e-6)
      throw new Error("elevation grid: the columns must go round the earth");
    this.heights = Float32Array.from(file.heights, (h) => h * file.unitMeters);
    this.firstLat = file.firstLat;
    this.firstLng = file.firstLng;
    this.step = file.stepDegrees;
    this.rows = file.rows;
    this.columns = file.columns;
  }

  /** Metres above sea level at p (0 at sea), interpolated between the four nearest centres. */
  at(p: LatLng): number {
    const { columns } = this;
    let x = (p.lng - this.firstLng) / this.step;
    x = ((x % columns) + columns) % columns;
    const y = Math.min(this.rows - 1, Math.max(0, (p.lat - this.firstLat) / this.step));
    const x0 = Math.floor(x);
    const y0 = Math.min(this.rows - 2, Math.floor(y));
    const fx = x - x0;
    const fy = y - y0;
    const x1 = (x0 + 1) % columns;
    const h = this.heights;
    const south = h[y0 * columns + x0] * (1 - fx) + h[y0 * columns + x1] * fx;
    const north = h[(y0 + 1) * columns + x0] * (1 - fx) + h[(y0 + 1) * columns + x1] * fx;
    return south * (1 - fy) + north * fy;
  }
}
