/**
 * The one CSV escaping (src/client/csv.ts) every CSV the project writes goes through: the lane
 * sheet, the footprint CSV of `lanes --footprint` and of the task pane's export (issue 31 item 5).
 */
import fc from "fast-check";
import Papa from "papaparse";
import { csvCell, csvFormatForDecimal, csvLines, isPlainNumber } from "../../src/client/csv";
import {
  csvSafe,
  footprintCsv,
  footprintDocument,
  failedLane,
  footprintTable,
} from "../../src/client/footprint";

/** What Excel, LibreOffice and Google Sheets would start a formula with (OWASP's list). */
const FORMULA_STARTS = new Set(["=", "+", "-", "@", "\t", "\r"]);

function startsLikeFormula(cell: string): boolean {
  return cell.length > 0 && FORMULA_STARTS.has(cell[0]);
}

function isDigit(ch: string | undefined): boolean {
  return ch !== undefined && ch >= "0" && ch <= "9";
}

/**
 * The test's own reading of "a plain number", written apart from the module's pattern (a scanner,
 * not a regular expression): an optional minus, digits with at most one decimal mark ("." or ",")
 * that has a digit after it and a digit or the start before it, then optionally e/E, a sign and
 * digits. Nothing else: no spaces, no plus, no hex, no Infinity, no second mark.
 */
function oraclePlainNumber(cell: string): boolean {
  let i = 0;
  if (cell[i] === "-") i++;
  let digits = 0;
  while (isDigit(cell[i])) (i++, digits++);
  if (cell[i] === "." || cell[i] === ",") {
    i++;
    let fraction = 0;
    while (isDigit(cell[i])) (i++, fraction++);
    if (fraction === 0) return false;
    digits += fraction;
  }
  if (digits === 0) return false;
  if (cell[i] === "e" || cell[i] === "E") {
    i++;
    if (cell[i] === "+" || cell[i] === "-") i++;
    let exponent = 0;
    while (isDigit(cell[i])) (i++, exponent++);
    if (exponent === 0) return false;
  }
  return i === cell.length;
}

/** What the written cell must be: a formula-like start that is not a plain number gets "'". */
function oracleWritten(cell: string): string {
  return startsLikeFormula(cell) && !oraclePlainNumber(cell) ? `'${cell}` : cell;
}

test.each([
  ["-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"],
  ["=1+1", "'=1+1"],
  ["+49 30 1234", "'+49 30 1234"],
  ["@SUM(A1)", "'@SUM(A1)"],
  ["\t=1+1", "'\t=1+1"],
  ["\r=1+1", "'\r=1+1"],
  ["-33.9,151.2", "'-33.9,151.2"],
  ["-12.5", "-12.5"],
  ["-12,5", "-12,5"],
  ["535.842", "535.842"],
  ["1e-7", "1e-7"],
  ["Rotterdam", "Rotterdam"],
  ["", ""],
])("%p is written as %p", (cell, written) => {
  expect(csvCell(cell)).toBe(written);
});

/** Near-numbers and formula payloads an attacker tries: each must be escaped unless plain. */
const attackArb = fc
  .tuple(
    fc.constantFrom("-", "+", "=", "@", "\t", "\r", "-\t", "- ", "--", "-−"),
    fc.constantFrom(
      "1",
      "1.5",
      "1,5",
      ".5",
      "1.",
      "1e5",
      "1e",
      "1e+",
      "0x10",
      "Infinity",
      "1 ",
      "1+cmd|' /C calc'!A0",
      "1,2,3",
      "1.2.3",
      "1e5e5",
      ""
    ),
    fc.constantFrom("", "\n", '"', ";A1", "+1", " ")
  )
  .map(([a, b, c]) => a + b + c);

/** Cells people and attackers write: formula starts, numbers, text, quotes, delimiters, breaks. */
const cellArb = fc.oneof(
  attackArb,
  fc.string(),
  fc
    .tuple(fc.constantFrom("=", "+", "-", "@", "\t", "\r", " ", "'", ""), fc.string())
    .map(([a, b]) => a + b),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.integer().map(String),
  fc
    .tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 0, max: 999 }))
    .map(([a, b]) => `${a},${b}`)
);

test("property: only plain numbers start like a formula once written; the text reads back", () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(cellArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 5 }),
      fc.constantFrom(",", ";", "\t" as const),
      (rows, delimiter) => {
        // Papa writes a ragged table as it is; give every row the same width.
        const width = Math.max(...rows.map((r) => r.length));
        const table = rows.map((r) => [...r, ...Array<string>(width - r.length).fill("")]);
        const text = csvLines(table, delimiter as "," | ";" | "\t");
        // Every line ends in a break: the last "row" Papa reads is the empty one after it.
        const back = Papa.parse<string[]>(text, { delimiter }).data.slice(0, -1);
        expect(back).toHaveLength(table.length);
        back.forEach((row, i) =>
          row.forEach((cell, j) => {
            const typed = table[i][j];
            // The oracle is the test's own; the module's isPlainNumber must agree with it too.
            expect(cell).toBe(oracleWritten(typed));
            if (startsLikeFormula(cell)) expect(oraclePlainNumber(cell)).toBe(true);
            expect(isPlainNumber(typed)).toBe(oraclePlainNumber(typed));
          })
        );
      }
    ),
    { numRuns: 600, seed: 3105 }
  );
});

test("the oracle's plain numbers are numbers: each reads as a finite number with its mark as a point", () => {
  fc.assert(
    fc.property(
      fc.oneof(attackArb, fc.double({ noNaN: true }).map(String), fc.string()),
      (cell) => {
        if (oraclePlainNumber(cell))
          expect(Number.isFinite(Number(cell.replace(",", ".")))).toBe(true);
      }
    ),
    { numRuns: 2_000, seed: 3106 }
  );
});

test("the footprint CSV goes through the same escaping (the pane's export shares it)", () => {
  expect(csvSafe).toBe(csvCell);
  const doc = footprintDocument(
    [failedLane({ origin: "-1+cmd|' /C calc'!A0", destination: "NLRTM", modality: "" }, 2, "=bad")],
    { factorSet: "x", framework: "y" }
  );
  const rows = Papa.parse<string[]>(footprintCsv(doc).trim()).data;
  expect(rows[1][1]).toBe("'-1+cmd|' /C calc'!A0");
  expect(rows[1][rows[1].length - 1]).toBe("'=bad");
});

test("one footprint table for the CSV and the pane's sheet: the sheet's own columns kept, in the sheet's format", () => {
  const row = { lane: "L-7", origin: "Rotterdam", destination: "-Koper", modality: "", x: "" };
  const doc = footprintDocument([failedLane(row, 3, "no route")], {
    factorSet: "s",
    framework: "f",
  });
  const inputColumns = [
    { key: "lane", title: "lane" },
    { key: "origin", title: "Origin" },
    { key: "destination", title: "destination" },
    { key: "modality", title: "MODALITY" },
  ];
  const table = footprintTable(doc, inputColumns);
  // The sheet's columns after row; a footprint column of the same name is the one it used.
  expect(table.header.slice(0, 7)).toEqual([
    "row",
    "lane",
    "Origin",
    "destination",
    "MODALITY",
    "modality_used",
    "containerType",
  ]);
  expect(table.rows[0].slice(0, 5)).toEqual([3, "L-7", "Rotterdam", "-Koper", ""]);
  expect(table.numeric.slice(0, 5)).toEqual([true, false, false, false, false]);
  expect(table.numeric[table.header.indexOf("co2e_kg_per_teu")]).toBe(true);
  expect(table.numeric[table.header.indexOf("error")]).toBe(false);

  // A comma-decimal Excel's CSV: ";" between cells, a BOM, the cells escaped once.
  const format = csvFormatForDecimal(",", true);
  expect(format).toEqual({ delimiter: ";", decimal: ",", bom: true });
  expect(csvFormatForDecimal(".", false)).toEqual({ delimiter: ",", decimal: ".", bom: false });
  const text = footprintCsv(doc, { format, inputColumns });
  expect(text.startsWith("\uFEFFrow;lane;Origin;destination;MODALITY;modality_used;")).toBe(true);
  const rows = Papa.parse<string[]>(text.slice(1).trim(), { delimiter: ";" }).data;
  expect(rows[1].slice(0, 4)).toEqual(["3", "L-7", "Rotterdam", "'-Koper"]);
  expect(rows[1][rows[1].length - 1]).toBe("no route");
});
