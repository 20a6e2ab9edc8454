/**
 * The sheet side of "Export footprint": which cells hold the lanes, and the footprint written back
 * as a table on a new sheet. Call inside `Excel.run`.
 *
 * The lanes: a single selected cell stands for its table (or, outside a table, its surrounding
 * region, as Ctrl+A would select it); a selection inside a table takes the selected rows with the
 * table's header; any other selection is taken as it is (its first row the header), cut to the
 * sheet's used range so a whole-column selection does not read a million rows.
 */
import { FootprintDocument, footprintTable, SheetColumn } from "../client/footprint";
import { CsvFormat, csvFormatForDecimal } from "../client/csv";
import { a1Address, nextSheetName } from "./table-writer";

export interface LaneRange {
  sheet: string;
  /** A1 address without the sheet (and where the header is, when not just above the rows). */
  address: string;
  /** 0-based sheet row just above the first lane (the header's, unless it is further up). */
  rowIndex: number;
  /** The header row first. */
  values: unknown[][];
}

export async function readLaneRange(context: Excel.RequestContext): Promise<LaneRange> {
  const selected = context.workbook.getSelectedRange();
  selected.load("rowIndex,columnIndex,rowCount,columnCount");
  // The selection is always on the active sheet.
  const sheet = context.workbook.worksheets.getActiveWorksheet();
  sheet.load("name");
  const tables = selected.getTables(false);
  // eslint-disable-next-line office-addins/no-navigational-load -- whether the selection is in a table
  tables.load("items");
  await context.sync();

  const table = tables.items[0];
  if (table) {
    const whole = table.getRange();
    whole.load("rowIndex,columnIndex,rowCount,columnCount");
    const header = table.getHeaderRowRange();
    header.load("values");
    await context.sync();
    const single = selected.rowCount === 1 && selected.columnCount === 1;
    // The selected data rows (all of them for a single cell or a selection taking the header).
    const first = single ? whole.rowIndex + 1 : Math.max(selected.rowIndex, whole.rowIndex + 1);
    const last = single
      ? whole.rowIndex + whole.rowCount - 1
      : Math.min(selected.rowIndex + selected.rowCount - 1, whole.rowIndex + whole.rowCount - 1);
    const rows = Math.max(0, last - first + 1);
    let values: unknown[][] = [];
    if (rows > 0) {
      const body = sheet.getRangeByIndexes(first, whole.columnIndex, rows, whole.columnCount);
      body.load("values");
      await context.sync();
      values = body.values;
    }
    const columns = whole.columnCount;
    // The header and the rows read: one block, or the rows under the header further up.
    const address =
      first - 1 === whole.rowIndex || rows === 0
        ? a1Address(whole.rowIndex, whole.columnIndex, rows + 1, columns)
        : `${a1Address(first, whole.columnIndex, rows, columns)} (header ${a1Address(whole.rowIndex, whole.columnIndex, 1, columns)})`;
    return {
      sheet: sheet.name,
      address,
      // Rows are numbered from the first one read (the header's row stands just above it).
      rowIndex: first - 1,
      values: [header.values[0], ...values],
    };
  }

  const single = selected.rowCount === 1 && selected.columnCount === 1;
  const area = single
    ? selected.getSurroundingRegion()
    : selected.getIntersectionOrNullObject(sheet.getUsedRange(true));
  area.load("isNullObject,rowIndex,columnIndex,rowCount,columnCount,values");
  await context.sync();
  if (area.isNullObject)
    throw new Error(
      "The selection holds no data: select the lanes with their header row (origin, destination, modality), or one cell of their table."
    );
  return {
    sheet: sheet.name,
    address: a1Address(area.rowIndex, area.columnIndex, area.rowCount, area.columnCount),
    rowIndex: area.rowIndex,
    values: area.values,
  };
}

export const FOOTPRINT_SHEET_NAME = "Footprint";
export const FOOTPRINT_TABLE_PREFIX = "Footprint";

/**
 * The footprint as table data, the CSV's columns (the sheet's own first): numbers stay numbers,
 * text is formatted as text (Excel must not read a place, a source or an error as a formula or a
 * number).
 */
export function footprintTableData(
  doc: FootprintDocument,
  inputColumns: ReadonlyArray<SheetColumn> = []
): {
  headers: string[];
  rows: Array<Array<string | number>>;
  formats: string[];
} {
  const table = footprintTable(doc, inputColumns);
  return {
    headers: table.header,
    rows: table.rows,
    formats: table.numeric.map((n) => (n ? "General" : "@")),
  };
}

/**
 * The CSV format Excel here opens by double-click: its decimal mark (Excel's own setting, else the
 * system's), `;` between cells where the mark is a comma, and a byte-order mark so that Excel reads
 * the file as UTF-8 ("São Paulo", not "SÃ£o Paulo"). An Excel too old to say (before ExcelApi
 * 1.11) gets the point.
 */
export async function readCsvFormat(context: Excel.RequestContext): Promise<CsvFormat> {
  try {
    const application = context.workbook.application;
    application.load("decimalSeparator");
    await context.sync();
    return csvFormatForDecimal(application.decimalSeparator, true);
  } catch {
    return csvFormatForDecimal(".", true);
  }
}

export interface WrittenFootprint {
  table: string;
  sheet: string;
  address: string;
}

/** The footprint as a table Footprint<n> on a new sheet "Footprint" (never overwriting anything). */
export async function writeFootprintTable(
  context: Excel.RequestContext,
  doc: FootprintDocument,
  inputColumns: ReadonlyArray<SheetColumn> = []
): Promise<WrittenFootprint> {
  const workbook = context.workbook;
  workbook.tables.load("items/name");
  workbook.worksheets.load("items/name");
  await context.sync();
  const taken = new Set(workbook.tables.items.map((t) => t.name.toLowerCase()));
  let n = 1;
  while (taken.has(`${FOOTPRINT_TABLE_PREFIX}${n}`.toLowerCase())) n++;
  const name = `${FOOTPRINT_TABLE_PREFIX}${n}`;
  const sheetName = nextSheetName(
    workbook.worksheets.items.map((s) => s.name),
    FOOTPRINT_SHEET_NAME
  );
  const sheet = workbook.worksheets.add(sheetName);
  const data = footprintTableData(doc, inputColumns);
  const rowCount = data.rows.length + 1;
  const range = sheet.getRangeByIndexes(0, 0, rowCount, data.headers.length);
  // Formats before values, so Excel never guesses a type from text.
  range.numberFormat = [data.headers.map(() => "@"), ...data.rows.map(() => data.formats)];
  range.values = [data.headers, ...data.rows];
  const table = sheet.tables.add(range, true);
  table.name = name;
  range.format.autofitColumns();
  sheet.activate();
  await context.sync();
  return { table: name, sheet: sheetName, address: a1Address(0, 0, rowCount, data.headers.length) };
}
