/**
 * "Insert into sheet": writes the route options as a named Excel table (a ListObject with a header
 * row) and their legs as a second table, linked by the option id. Never overwrites: the tables get
 * the first free pair of names RouteOptions<n>/RouteLegs<n>, and go on a new sheet or below the
 * used range of the chosen sheet. Two round trips: one to read names and the used range, one to write.
 */
import type { RouteOption } from "../client/types";
import { legTableData, optionTableData, TableData } from "./table-rows";

export type SheetTarget = { kind: "new" } | { kind: "active" } | { kind: "named"; name: string };

export interface WrittenTable {
  name: string;
  /** A1 address without the sheet, e.g. `A1:S4`. */
  address: string;
  rows: number;
}

export interface WriteResult {
  sheetName: string;
  options: WrittenTable;
  legs: WrittenTable;
}

export const OPTIONS_TABLE_PREFIX = "RouteOptions";
export const LEGS_TABLE_PREFIX = "RouteLegs";
export const NEW_SHEET_NAME = "Route options";
/** Blank rows between the user's data and our tables, and between the two tables. */
export const GAP_ROWS = 1;

/** The first n ≥ 1 for which neither RouteOptions<n> nor RouteLegs<n> is taken (Excel names are case-insensitive). */
export function nextTableNumber(existing: string[]): number {
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  for (let n = 1; ; n++) {
    if (
      !taken.has(`${OPTIONS_TABLE_PREFIX}${n}`.toLowerCase()) &&
      !taken.has(`${LEGS_TABLE_PREFIX}${n}`.toLowerCase())
    )
      return n;
  }
}

/** "Route options", then "Route options (2)", … (sheet names are case-insensitive too). */
export function nextSheetName(existing: string[], base = NEW_SHEET_NAME): string {
  const taken = new Set(existing.map((n) => n.toLowerCase()));
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`.toLowerCase())) return `${base} (${n})`;
}

/** 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(index: number): string {
  let s = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export function a1Address(
  row: number,
  column: number,
  rowCount: number,
  columnCount: number
): string {
  return `${columnLetters(column)}${row + 1}:${columnLetters(column + columnCount - 1)}${row + rowCount}`;
}

/** Writes both tables; call inside `Excel.run`. Throws when there is nothing to write. */
export async function writeRouteTables(
  context: Excel.RequestContext,
  options: RouteOption[],
  target: SheetTarget
): Promise<WriteResult> {
  if (!options.length) throw new Error("No route options to insert: search first.");
  const workbook = context.workbook;

  // Round trip 1: names in use, and where the chosen sheet's data ends.
  const tables = workbook.tables;
  tables.load("items/name");
  let sheet: Excel.Worksheet;
  let used: Excel.Range | undefined;
  let sheets: Excel.WorksheetCollection | undefined;
  if (target.kind === "new") {
    sheets = workbook.worksheets;
    sheets.load("items/name");
    await context.sync();
    sheet = workbook.worksheets.add(nextSheetName(sheets.items.map((s) => s.name)));
  } else {
    sheet =
      target.kind === "active"
        ? workbook.worksheets.getActiveWorksheet()
        : workbook.worksheets.getItem(target.name);
    used = sheet.getUsedRangeOrNullObject(true);
    // office-addin-mock (the tests) only reads loaded properties, isNullObject included.
    // eslint-disable-next-line office-addins/no-navigational-load
    used.load("isNullObject,rowIndex,rowCount");
    sheet.load("name");
    await context.sync();
  }
  const n = nextTableNumber(tables.items.map((t) => t.name));
  // `used` is unset when the table goes on a new sheet, else a range or its null object.
  // eslint-disable-next-line office-addins/test-for-null-using-isNullObject
  const startRow = used && !used.isNullObject ? used.rowIndex + used.rowCount + GAP_ROWS : 0;

  // Round trip 2: the two tables.
  const optionData = optionTableData(options);
  const legData = legTableData(options);
  const optionsTable = addTable(sheet, `${OPTIONS_TABLE_PREFIX}${n}`, startRow, optionData);
  const legsStart = startRow + optionData.rows.length + 1 + GAP_ROWS;
  const legsTable = addTable(sheet, `${LEGS_TABLE_PREFIX}${n}`, legsStart, legData);
  sheet.activate();
  await context.sync();

  const sheetName =
    target.kind === "new" ? nextSheetName(sheets!.items.map((s) => s.name)) : sheet.name;
  return { sheetName, options: optionsTable, legs: legsTable };
}

/** Values and formats go in before the table is made, so Excel never guesses types from text. */
function addTable(
  sheet: Excel.Worksheet,
  name: string,
  row: number,
  data: TableData
): WrittenTable {
  const rowCount = data.rows.length + 1;
  const columnCount = data.headers.length;
  const range = sheet.getRangeByIndexes(row, 0, rowCount, columnCount);
  range.numberFormat = [
    data.headers.map(() => NUMBER_FORMAT_HEADER),
    ...data.rows.map(() => data.formats),
  ];
  range.values = [data.headers, ...data.rows];
  const table = sheet.tables.add(range, true);
  table.name = name;
  range.format.autofitColumns();
  return { name, address: a1Address(row, 0, rowCount, columnCount), rows: data.rows.length };
}

const NUMBER_FORMAT_HEADER = "@";
