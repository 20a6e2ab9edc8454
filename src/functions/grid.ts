/**
 * Ranges in, a spill out. Excel hands a matrix parameter over as rows of cells (a single cell as
 * [[value]], an omitted optional one as null). Every per-lane argument is a range of one common
 * shape or a single value used for every lane (broadcast), and the answer has that shape.
 */
import { InputError } from "./excel-errors";

export type Grid = unknown[][];

export interface Shape {
  rows: number;
  cols: number;
}

/** A parameter as rows of cells: null/undefined and scalars become one cell. */
export function asGrid(raw: unknown): Grid {
  if (!Array.isArray(raw)) return [[raw ?? null]];
  if (raw.length === 0) return [[null]];
  // Excel's own rows are used as they are: a whole column is a million of them, not to be copied.
  if ((raw as unknown[]).every(Array.isArray)) return raw as Grid;
  return (raw as unknown[]).map((row) => (Array.isArray(row) ? row : [row]));
}

function shapeOf(grid: Grid): Shape {
  return { rows: grid.length, cols: grid[0]?.length ?? 0 };
}

function isSingle(shape: Shape): boolean {
  return shape.rows === 1 && shape.cols === 1;
}

/** "3×1": rows × columns, short enough for a cell's message. */
const describeShape = (s: Shape) => `${s.rows}×${s.cols}`;

/**
 * The shape every range argument shares; #VALUE! naming the two parameters and their shapes when
 * they differ (one call, one message: a partial spill would line answers up with the wrong rows).
 */
export function commonShape(args: Record<string, Grid>, checkRows = true): Shape {
  let found: { name: string; shape: Shape } | undefined;
  for (const [name, grid] of Object.entries(args)) {
    const shape = shapeOf(grid);
    if (checkRows && !rectangular(grid, shape.cols))
      throw new InputError(`${name} is not a rectangular range`);
    if (isSingle(shape)) continue;
    if (!found) found = { name, shape };
    else if (found.shape.rows !== shape.rows || found.shape.cols !== shape.cols)
      throw new InputError(
        `${found.name} (${describeShape(found.shape)}) and ${name} (${describeShape(shape)}) differ in shape: ` +
          "give ranges of one shape, or one value"
      );
  }
  return found?.shape ?? { rows: 1, cols: 1 };
}

function rectangular(grid: Grid, cols: number): boolean {
  for (let r = 0; r < grid.length; r++) if (grid[r].length !== cols) return false;
  return true;
}

/** The cell of `grid` for position (r, c) of the common shape: a single value broadcasts. */
export function cellAt(grid: Grid, r: number, c: number): unknown {
  return isSingle(shapeOf(grid)) ? grid[0][0] : grid[r][c];
}

/** An empty cell as Excel passes it in a range (null or ""), or only spaces. */
export function isBlank(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === "string" && value.trim() === "")
  );
}

/** Index of the last row with a non-blank cell; -1 when every cell is blank. Scans from the end. */
export function lastFilledRow(grid: Grid): number {
  // A plain loop with the common empties tested inline: it runs over a million rows, often in a
  // page whose code is not optimised yet.
  for (let r = grid.length - 1; r >= 0; r--) {
    const row = grid[r];
    for (let c = 0; c < row.length; c++) {
      const v = row[c];
      if (v === "" || v === null || v === undefined) continue;
      if (!isBlank(v)) return r;
    }
  }
  return -1;
}

/**
 * The arguments with the trailing rows cut where every range is blank from there on (a whole
 * column, A:A, passes all 1,048,576 rows of the sheet; the lanes are its first few thousand), so
 * the work and the spill follow the lanes, not the sheet. Single values broadcast and are kept.
 * Throws like commonShape when the shapes differ. `rows` is 0 when every range is blank.
 */
export function trimTrailingBlankRows(args: Record<string, Grid>): {
  grids: Record<string, Grid>;
  rows: number;
} {
  // The shapes are compared now; each row's width only on the rows kept (mapGrid checks those).
  const shape = commonShape(args, false);
  let rows = 0;
  for (const grid of Object.values(args))
    if (!isSingle(shapeOf(grid))) rows = Math.max(rows, lastFilledRow(grid) + 1);
  if (shape.rows === 1 || rows >= shape.rows) return { grids: args, rows: shape.rows };
  const grids: Record<string, Grid> = {};
  for (const [name, grid] of Object.entries(args))
    grids[name] = isSingle(shapeOf(grid)) ? grid : grid.slice(0, Math.max(rows, 1));
  return { grids, rows };
}

/** Calls `each` for every position of the common shape with that position's arguments. */
export function mapGrid<T>(
  args: Record<string, Grid>,
  each: (cells: Record<string, unknown>) => T
): T[][] {
  const shape = commonShape(args);
  const names = Object.keys(args);
  const out: T[][] = [];
  for (let r = 0; r < shape.rows; r++) {
    const row: T[] = [];
    for (let c = 0; c < shape.cols; c++) {
      const cells: Record<string, unknown> = {};
      for (const name of names) cells[name] = cellAt(args[name], r, c);
      row.push(each(cells));
    }
    out.push(row);
  }
  return out;
}
