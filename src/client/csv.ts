/**
 * The one way the project writes CSV for people (the lane sheet of `route-sheets lanes`, the
 * footprint CSV of the CLI and of the task pane's export): Papa Parse (browser-safe, and on a
 * 3,000-row sheet about 20 ms where csv-stringify took 130 ms), with every cell passed through
 * `csvCell` so a spreadsheet never runs a cell as a formula.
 */
import Papa from "papaparse";

/** Delimiters European and other Excels write a CSV with. */
export const DELIMITERS = [",", ";", "\t"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

/** Decimal marks of the numbers written: "," where Excel's list separator is ";". */
export const DECIMAL_SEPARATORS = [".", ","] as const;
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

/** How a CSV is written: its delimiter, its numbers' decimal mark and a UTF-8 byte-order mark. */
export interface CsvFormat {
  delimiter: Delimiter;
  decimal: DecimalSeparator;
  bom: boolean;
}

export const DEFAULT_CSV_FORMAT: CsvFormat = { delimiter: ",", decimal: ".", bom: false };

/**
 * The format a spreadsheet with this decimal mark reads: a comma-decimal Excel separates cells
 * with ";" (its list separator), a point-decimal one with ",". Any other mark reads as the point.
 */
export function csvFormatForDecimal(decimal: string, bom: boolean): CsvFormat {
  return decimal === ","
    ? { delimiter: ";", decimal: ",", bom }
    : { delimiter: ",", decimal: ".", bom };
}

/** A plain decimal number (point or comma mark, optional minus, optional exponent). */
const PLAIN_NUMBER = /^-?(?:\d+(?:[.,]\d+)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

/**
 * Characters that make Excel, LibreOffice or Google Sheets read a cell as a formula (or, for tab
 * and carriage return, hide such a start after the cell's first character): OWASP's list.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function isPlainNumber(cell: string): boolean {
  return PLAIN_NUMBER.test(cell);
}

/**
 * A cell as written to a CSV: plain numbers as they are, any other text that starts like a formula
 * (`=`, `+`, `-`, `@`, tab, carriage return) behind an apostrophe, which spreadsheets show as the
 * text typed (`-1+cmd|' /C calc'!A0` stays text).
 */
export function csvCell(cell: string): string {
  return FORMULA_START.test(cell) && !isPlainNumber(cell) ? `'${cell}` : cell;
}

/** A number with the format's decimal mark ("535,8" for a comma-decimal sheet). */
export function csvNumber(value: number, decimal: DecimalSeparator): string {
  const text = String(value);
  return decimal === "," ? text.replace(".", ",") : text;
}

/**
 * Rows as CSV lines, each ended by a line break; cells escaped (csvCell) and quoted where needed.
 * No byte-order mark: the writer puts one at the start of the file (see `csvDocument`).
 */
export function csvLines(rows: string[][], delimiter: Delimiter = ","): string {
  if (!rows.length) return "";
  return (
    Papa.unparse(
      rows.map((row) => row.map(csvCell)),
      { delimiter, newline: "\n" }
    ) + "\n"
  );
}

/** A whole CSV file's text: the byte-order mark when the format has one, then the lines. */
export function csvDocument(rows: string[][], format: CsvFormat = DEFAULT_CSV_FORMAT): string {
  return (format.bom ? "\uFEFF" : "") + csvLines(rows, format.delimiter);
}
