/**
 * A lane sheet as CSV text in, CSV text out: the rows parsed in one go (an Excel sheet has at most
 * 1,048,576 rows, a few tens of MB), computed and written back in batches. Streaming row by row
 * through parser, transform and stringifier cost more per row than a cached route does.
 *
 * Papa Parse rather than csv-parse (which reads the data files): on a 3,000-row sheet in a fresh
 * process it parses and writes in about 20 ms where csv-parse and csv-stringify take 130 ms, a
 * tenth of a `route-sheets lanes` run.
 */
import Papa from "papaparse";
import { csvLines, csvNumber, DecimalSeparator, Delimiter } from "../client/csv";
import {
  detectDelimiter,
  LaneCalculator,
  LaneRow,
  OPTIONAL_COLUMNS,
  OUTPUT_COLUMNS,
  readHeader,
  REQUIRED_COLUMNS,
  roundedResults,
} from "./lane-sheet";

export { DECIMAL_SEPARATORS, type DecimalSeparator } from "../client/csv";

/** Rows per output chunk: large enough that per-chunk costs vanish, small enough to show progress. */
const BATCH_ROWS = 500;

/** The columns a row's results are computed from. */
const READ_COLUMNS: ReadonlySet<string> = new Set([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);

/** Distinct lanes whose output cells are remembered (a few hundred bytes each). */
const REMEMBERED_LANES = 100_000;

export interface ParsedSheet {
  delimiter: Delimiter;
  /** Header first; empty for an empty file. */
  records: string[][];
}

/** The decimal separator a sheet's readers expect: a `;` sheet comes from a comma-decimal Excel. */
export function decimalFor(delimiter: Delimiter): DecimalSeparator {
  return delimiter === ";" ? "," : ".";
}

export interface DecodedSheet {
  text: string;
  /** The file started with a UTF-8 byte-order mark (Excel's "CSV UTF-8"). */
  bom: boolean;
  encoding: "utf-8" | "windows-1252";
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The file's text: UTF-8 (with or without a byte-order mark), else Windows-1252, which Excel's
 * plain "CSV" writes on Western Windows (a superset of Latin-1 for the printable characters).
 */
export function decodeSheet(bytes: Buffer): DecodedSheet {
  if (bytes.subarray(0, 3).equals(UTF8_BOM))
    return { text: bytes.subarray(3).toString("utf8"), bom: true, encoding: "utf-8" };
  try {
    return {
      text: new TextDecoder("utf-8", { fatal: true }).decode(bytes),
      bom: false,
      encoding: "utf-8",
    };
  } catch {
    return { text: decodeWindows1252(bytes), bom: false, encoding: "windows-1252" };
  }
}

/**
 * Windows-1252's bytes 0x80–0x9F (where it differs from Latin-1), per the WHATWG Encoding
 * Standard's index; 0 marks the five bytes it leaves undefined (kept as Latin-1 controls).
 * Decoded by hand: Node's own decoder without full ICU reads these bytes as Latin-1 controls.
 */
const CP1252_HIGH = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152,
  0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161,
  0x203a, 0x0153, 0, 0x017e, 0x0178,
];

function decodeWindows1252(bytes: Buffer): string {
  const latin1 = bytes.toString("latin1");
  return latin1.replace(/[\x80-\x9f]/g, (ch) => {
    const code = CP1252_HIGH[ch.charCodeAt(0) - 0x80];
    return code ? String.fromCharCode(code) : ch;
  });
}

/** The sheet's records, with its delimiter detected from the header line (BOM dropped). */
export function parseSheet(text: string): ParsedSheet {
  const body = text.replace(/^\uFEFF/, "");
  const delimiter = detectDelimiter(body.split(/\r?\n/, 1)[0]);
  const { data, errors } = Papa.parse<string[]>(body, {
    delimiter,
    skipEmptyLines: true,
    transform: (cell) => cell.trim(),
  });
  const quotes = errors.find((e) => e.type === "Quotes");
  if (quotes)
    throw new Error(
      `Input row ${(quotes.row ?? 0) + 1}: ${quotes.message}; a cell with a quote, a delimiter or a line break must be in double quotes, its quotes doubled ("").`
    );
  return { delimiter, records: data };
}

/** A data record as a row by canonical column name (missing cells blank). */
export function rowOf(columns: readonly string[], record: readonly string[]): LaneRow {
  const row: LaneRow = {};
  columns.forEach((name, i) => (row[name] = record[i] ?? ""));
  return row;
}

/**
 * The output sheet in CSV chunks, each computed when it is asked for: the header with the output
 * columns, then every row with its results, in order. Throws on a bad header before any output.
 * `done(n)` is told how many rows each chunk held. Cells are escaped by client/csv.ts's csvCell.
 */
export function* laneSheetChunks(
  lanes: LaneCalculator,
  { delimiter, records }: ParsedSheet,
  done?: (rows: number) => void,
  decimal: DecimalSeparator = decimalFor(delimiter)
): Generator<string> {
  if (!records.length) return;
  const header = records[0];
  const columns = readHeader(header);
  yield csvLines([[...header.map((h) => h.trim()), ...OUTPUT_COLUMNS]], delimiter);
  // A row's results depend only on the cells the sheet reads (a lane id does not change them):
  // a lane repeated further down the sheet is written from the first one's cells.
  const read = columns.flatMap((c, i) => (READ_COLUMNS.has(c) ? [i] : []));
  const remembered = new Map<string, string[]>();
  for (let first = 1; first < records.length; first += BATCH_ROWS) {
    const batch = records.slice(first, first + BATCH_ROWS).map((record) => {
      const key = read.map((i) => record[i] ?? "").join("\u0000");
      let cells = remembered.get(key);
      if (!cells) {
        const results = roundedResults(lanes.compute(rowOf(columns, record)));
        // Numbers as the sheet's Excel reads them: 964,9 in a comma-decimal locale, not text.
        cells = OUTPUT_COLUMNS.map((c) => {
          const v = results[c];
          return typeof v === "number" ? csvNumber(v, decimal) : v;
        });
        if (remembered.size >= REMEMBERED_LANES) remembered.clear();
        remembered.set(key, cells);
      }
      return [...record, ...cells];
    });
    yield csvLines(batch, delimiter);
    done?.(batch.length);
  }
}
