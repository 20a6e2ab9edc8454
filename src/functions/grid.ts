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
  return (raw as unknown[]).map((row) => (Array.isArray(row) ? row : [row]));
}

function shapeOf(grid: Grid): Shape {
  return { rows: grid.length, cols: grid[0]?.length ?? 0 };
}

function isSingle(shape: Shape): boolean {
  return shape.rows === 1 && shape.cols === 1;
}

const describeShape = (s: Shape) =>
  `${s.rows} row${s.rows === 1 ? "" : "s"} × ${s.cols} column${s.cols === 1 ? "" : "s"}`;

/**
 * The shape every range argument shares; #VALUE! naming the two parameters and their shapes when
 * they differ (one call, one message: a partial spill would line answers up with the wrong rows).
 */
export function commonShape(args: Record<string, Grid>): Shape {
  let found: { name: string; shape: Shape } | undefined;
  for (const [name, grid] of Object.entries(args)) {
    const shape = shapeOf(grid);
    if (grid.some((row) => row.length !== shape.cols))
      throw new InputError(`${name} is not a rectangular range`);
    if (isSingle(shape)) continue;
    if (!found) found = { name, shape };
    else if (found.shape.rows !== shape.rows || found.shape.cols !== shape.cols)
      throw new InputError(
        `${found.name} (${describeShape(found.shape)}) and ${name} (${describeShape(shape)}) differ in shape: ` +
          "give ranges of the same shape, or a single value for every lane"
      );
  }
  return found?.shape ?? { rows: 1, cols: 1 };
}

/** The cell of `grid` for position (r, c) of the common shape: a single value broadcasts. */
export function cellAt(grid: Grid, r: number, c: number): unknown {
  return isSingle(shapeOf(grid)) ? grid[0][0] : grid[r][c];
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
