/**
 * Runs a per-lane function over its arguments: each a cell or a range (grid.ts). Trailing blank
 * rows are cut before any work (a whole column is a million rows), a blank lane answers blank, each
 * distinct lane is worked out once, and one bad lane gets its own error cell. A row of column
 * headings ("Origin", "Destination": a whole column's first row) answers blank too. Plain
 * arguments give a plain value (or throw, as a single-cell formula shows its error).
 */
import { NotCachedError } from "../client/api-client";
import { isColumnHeading } from "../client/column-headings";
import { toExcelError } from "./excel-errors";
import { asGrid, isBlank, mapGrid, trimTrailingBlankRows } from "./grid";
import { cancelable, InvocationLike, isPreview, PREVIEW_MESSAGE } from "./invocation";

export type Cell = string | number;
/** One answer cell of a spill: a value or Excel's error for that lane. */
export type Answer = Cell | CustomFunctions.Error;
/** What a per-lane function returns: a value for plain arguments, rows of answers for ranges. */
export type LaneResult = Cell | Answer[][];

/** Distinct lanes started before the page gets a turn. */
const LANES_PER_TURN = 500;

const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** The answer of a blank lane (both places empty): a blank cell, not an error. */
export const BLANK = "";

/** How one lane's outcome shows: a value, the preview message, blank, or its error. */
export interface LaneShape<T> {
  /** The lane's places (their names among the arguments): all blank = a blank lane. */
  places: readonly string[];
  blank: T;
  preview: T;
  failed(error: CustomFunctions.Error): T;
}

/**
 * The answers of every lane, in the arguments' (trimmed) shape, or a single answer when every
 * argument is a plain value or one cell (`single`: failures throw). `ranged` tells whether any
 * argument was a range (then Excel expects a matrix even for one cell).
 */
export async function laneAnswers<T>(
  invocation: InvocationLike | undefined,
  args: Record<string, unknown>,
  shape: LaneShape<T>,
  each: (cells: Record<string, unknown>, cacheOnly: boolean) => Promise<T>
): Promise<{ single: true; answer: T; ranged: boolean } | { single: false; answers: T[][] }> {
  const cacheOnly = isPreview(invocation);
  const ranged = Object.values(args).some(Array.isArray);
  const isBlankLane = (cells: Record<string, unknown>) =>
    shape.places.every((name) => isBlank(cells[name]));
  // A range's heading row: every place cell given is a heading (A:A starts with "Origin").
  const isHeadingLane = (cells: Record<string, unknown>) =>
    shape.places.every((name) => isBlank(cells[name]) || isColumnHeading(cells[name]));
  const single = singleCells(args);
  if (single) {
    // A single-cell formula (the common case, 10,000 of them in a sheet): no grid to build.
    if (isBlankLane(single)) return { single: true, answer: shape.blank, ranged };
    try {
      return {
        single: true,
        answer: await cancelable(invocation, each(single, cacheOnly)),
        ranged,
      };
    } catch (error) {
      if (error instanceof NotCachedError) return { single: true, answer: shape.preview, ranged };
      throw toExcelError(error);
    }
  }
  let trimmed: ReturnType<typeof trimTrailingBlankRows>;
  try {
    const grids: Record<string, unknown[][]> = {};
    for (const [name, raw] of Object.entries(args)) grids[name] = asGrid(raw);
    trimmed = trimTrailingBlankRows(grids);
  } catch (error) {
    throw toExcelError(error);
  }
  if (trimmed.rows === 0) return { single: false, answers: [[shape.blank]] };
  // A 10,000-row sheet repeats its lanes: each distinct row of arguments is worked out once.
  // The lanes start a slice at a time, the page getting a turn in between: thousands at once
  // would keep Excel's UI and the task pane waiting (their batch window stays open meanwhile).
  const seen = new Map<string, Promise<T>>();
  let gate: Promise<void> = Promise.resolve();
  const settle = (cells: Record<string, unknown>): Promise<T> | T => {
    if (isBlankLane(cells) || isHeadingLane(cells)) return shape.blank;
    const key = JSON.stringify(Object.values(cells));
    let answer = seen.get(key);
    if (!answer) {
      if (seen.size > 0 && seen.size % LANES_PER_TURN === 0) gate = gate.then(nextTurn);
      answer = gate
        .then(() => each(cells, cacheOnly))
        .catch((error: unknown) =>
          error instanceof NotCachedError ? shape.preview : shape.failed(toExcelError(error))
        );
      seen.set(key, answer);
    }
    return answer;
  };
  const rows = mapGrid(trimmed.grids, settle);
  const answers = await cancelable(
    invocation,
    Promise.all(rows.map((row) => Promise.all(row)))
  ).catch((error: unknown) => {
    throw toExcelError(error);
  });
  return { single: false, answers };
}

/** A per-lane function with one cell per lane (DISTANCE, EMISSIONS, PASSAGES). */
export async function perLane(
  invocation: InvocationLike | undefined,
  args: Record<string, unknown>,
  each: (cells: Record<string, unknown>, cacheOnly: boolean) => Promise<Cell>
): Promise<LaneResult> {
  const result = await laneAnswers<Answer>(
    invocation,
    args,
    { places: ["origin", "destination"], blank: BLANK, preview: PREVIEW_MESSAGE, failed: (e) => e },
    each
  );
  if (result.single) {
    const value = result.answer as Cell;
    return result.ranged ? [[value]] : value;
  }
  const { answers } = result;
  if (answers.length === 1 && answers[0].length === 1) {
    const only = answers[0][0];
    // One cell: its error is the formula's error, as Excel shows it for a plain value.
    if (only instanceof CustomFunctions.Error) throw only;
    return answers;
  }
  return answers;
}

/** The arguments' values when each is a plain value or a single cell; undefined for ranges. */
function singleCells(args: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(args)) {
    if (!Array.isArray(raw)) out[name] = raw ?? null;
    else if (raw.length === 1 && Array.isArray(raw[0]) && raw[0].length === 1)
      out[name] = raw[0][0];
    else return undefined;
  }
  return out;
}
