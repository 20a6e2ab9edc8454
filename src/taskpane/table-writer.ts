/**
 * "Insert into sheet": writes the route options as a named Excel table (a ListObject with a header
 * row) and their legs as a second table, linked by the option id. Each table has a sheet of its
 * own (or the options start at the selected cell, the legs on a sheet of their own), so either
 * can grow by rows without running into the other. Never overwrites: the tables get the first free
 * pair of names RouteOptions<n>/RouteLegs<n>, new sheets the first free name, and a chosen cell's
 * area must be empty.
 */
import type { RouteOption } from "../client/types";
import { legTableData, optionTableData, TableData } from "./table-rows";

/** `sheets`: each table on a new sheet; `cell`: the options at the selected cell, the legs on a new sheet. */
export type SheetTarget = { kind: "sheets" } | { kind: "cell" };

export interface WrittenTable {
  name: string;
  sheet: string;
  /** A1 address without the sheet, e.g. `A1:S4`. */
  address: string;
  rows: number;
}

export interface WriteResult {
  options: WrittenTable;
  legs: WrittenTable;
}

export const OPTIONS_TABLE_PREFIX = "RouteOptions";
export const LEGS_TABLE_PREFIX = "RouteLegs";
export const NEW_SHEET_NAME = "Route options";
export const LEGS_SHEET_NAME = "Route legs";

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
  const optionData = optionTableData(options);
  const legData = legTableData(options);

  // Round trip 1: the names in use, and the selected cell when the options go there.
  const tables = workbook.tables;
  tables.load("items/name");
  const sheets = workbook.worksheets;
  sheets.load("items/name");
  const selected = target.kind === "cell" ? workbook.getSelectedRange() : undefined;
  const selectedSheet = selected?.worksheet;
  selected?.load("rowIndex,columnIndex");
  selectedSheet?.load("name");
  await context.sync();
  const n = nextTableNumber(tables.items.map((t) => t.name));
  const sheetNames = sheets.items.map((s) => s.name);

  let optionsSheet: Excel.Worksheet;
  let optionsSheetName: string;
  let row = 0;
  let column = 0;
  if (selected && selectedSheet) {
    // Round trip 2: the cells the options table needs must be empty.
    row = selected.rowIndex;
    column = selected.columnIndex;
    const area = selectedSheet
      .getRangeByIndexes(row, column, optionData.rows.length + 1, optionData.headers.length)
      .getUsedRangeOrNullObject(true);
    // eslint-disable-next-line office-addins/no-navigational-load
    area.load("isNullObject,address");
    await context.sync();
    if (!area.isNullObject)
      throw new Error(
        `The options table needs ${a1Address(row, column, optionData.rows.length + 1, optionData.headers.length)} on "${selectedSheet.name}" empty, but ${area.address.replace(/^.*!/, "")} holds data: select an empty cell, or insert on new sheets.`
      );
    optionsSheet = selectedSheet;
    optionsSheetName = selectedSheet.name;
  } else {
    optionsSheetName = nextSheetName(sheetNames, NEW_SHEET_NAME);
    sheetNames.push(optionsSheetName);
    optionsSheet = workbook.worksheets.add(optionsSheetName);
  }
  const legsSheetName = nextSheetName(sheetNames, LEGS_SHEET_NAME);
  const legsSheet = workbook.worksheets.add(legsSheetName);

  // Last round trip: the two tables.
  const optionsTable = addTable(
    optionsSheet,
    `${OPTIONS_TABLE_PREFIX}${n}`,
    row,
    column,
    optionData
  );
  const legsTable = addTable(legsSheet, `${LEGS_TABLE_PREFIX}${n}`, 0, 0, legData);
  optionsSheet.activate();
  await context.sync();
  return {
    options: { ...optionsTable, sheet: optionsSheetName },
    legs: { ...legsTable, sheet: legsSheetName },
  };
}

/** Values and formats go in before the table is made, so Excel never guesses types from text. */
function addTable(
  sheet: Excel.Worksheet,
  name: string,
  row: number,
  column: number,
  data: TableData
): Omit<WrittenTable, "sheet"> {
  const rowCount = data.rows.length + 1;
  const columnCount = data.headers.length;
  const range = sheet.getRangeByIndexes(row, column, rowCount, columnCount);
  range.numberFormat = [
    data.headers.map(() => NUMBER_FORMAT_HEADER),
    ...data.rows.map(() => data.formats),
  ];
  range.values = [data.headers, ...data.rows];
  const table = sheet.tables.add(range, true);
  table.name = name;
  range.format.autofitColumns();
  return { name, address: a1Address(row, column, rowCount, columnCount), rows: data.rows.length };
}

const NUMBER_FORMAT_HEADER = "@";
