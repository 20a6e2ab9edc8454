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

/** The grid as the router keeps it and a snapshot stores it: heights in whole metres (16 bits). */
export interface ElevationGridData {
  firstLat: number;
  firstLng: number;
  stepDegrees: number;
  rows: number;
  columns: number;
  heights: Int16Array;
}

/** The shipped file's grid as typed data (a loop: from() with a map function is 15 × slower). */
export function elevationGridData(file: ElevationGridFile): ElevationGridData {
  if (file.heights.length !== file.rows * file.columns)
    throw new Error("elevation grid: rows × columns do not match the heights");
  if (Math.abs(file.columns * file.stepDegrees - 360) > 1e-6)
    throw new Error("elevation grid: the columns must go round the earth");
  const heights = new Int16Array(file.heights.length);
  for (let i = 0; i < heights.length; i++) heights[i] = file.heights[i] * file.unitMeters;
  const { firstLat, firstLng, stepDegrees, rows, columns } = file;
  return { firstLat, firstLng, stepDegrees, rows, columns, heights };
}

export class ElevationGrid {
  private readonly heights: Int16Array;
  private readonly firstLat: number;
  private readonly firstLng: number;
  private readonly step: number;
  private readonly rows: number;
  private readonly columns: number;

  constructor(grid: ElevationGridFile | ElevationGridData) {
    const data =
      grid.heights instanceof Int16Array
        ? (grid as ElevationGridData)
        : elevationGridData(grid as ElevationGridFile);
    this.heights = data.heights;
    this.firstLat = data.firstLat;
    this.firstLng = data.firstLng;
    this.step = data.stepDegrees;
    this.rows = data.rows;
    this.columns = data.columns;
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
