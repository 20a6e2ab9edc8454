/**
 * The table writer against an office-addin-mock Excel object model: which sheet it uses or adds,
 * where it writes, the values and number formats it sets, and the table names it picks.
 */
import { OfficeMockObject } from "office-addin-mock";

import {
  a1Address,
  columnLetters,
  nextSheetName,
  nextTableNumber,
  writeRouteTables,
  SheetTarget,
} from "../../src/taskpane/table-writer";
import { LEG_COLUMNS, OPTION_COLUMNS } from "../../src/taskpane/table-rows";
import { OPTIONS } from "./fixtures";

interface RecordedRange {
  sheet: string;
  args: [number, number, number, number];
  values?: unknown[][];
  numberFormat?: unknown[][];
  autofit: number;
}
interface RecordedTable {
  sheet: string;
  range: RecordedRange;
  hasHeaders: boolean;
  name?: string;
}

/** A workbook with the given tables and sheets; the active sheet "Data" has `used` rows (null = empty). */
function workbookMock(opts: {
  tables?: string[];
  sheets?: string[];
  used?: { rowIndex: number; rowCount: number } | null;
}) {
  const log = {
    loads: [] as string[],
    addedSheets: [] as string[],
    ranges: [] as RecordedRange[],
    tables: [] as RecordedTable[],
    activated: [] as string[],
    gotSheet: [] as string[],
  };
  const sheetApi = (name: string) => ({
    getRangeByIndexes(row: number, col: number, rows: number, cols: number) {
      const range: RecordedRange & { format: { autofitColumns(): void } } = {
        sheet: name,
        args: [row, col, rows, cols],
        autofit: 0,
        format: { autofitColumns: () => void range.autofit++ },
      };
      log.ranges.push(range);
      return range;
    },
    tables: {
      add(range: RecordedRange, hasHeaders: boolean) {
        const table: RecordedTable = { sheet: name, range, hasHeaders };
        log.tables.push(table);
        return table;
      },
    },
    activate: () => void log.activated.push(name),
  });
  const used = opts.used === undefined ? null : opts.used;
  const data = {
    context: {
      workbook: {
        tables: { load: (arg: string) => void log.loads.push(`tables:${arg}`) },
        worksheets: {
          load: (arg: string) => void log.loads.push(`worksheets:${arg}`),
          add(name: string) {
            log.addedSheets.push(name);
            return { name, ...sheetApi(name) };
          },
          getActiveWorksheet() {
            log.gotSheet.push("(active)");
            return this.data;
          },
          getItem(name: string) {
            log.gotSheet.push(name);
            return this.data;
          },
          data: {
            name: "Data",
            ...sheetApi("Data"),
            getUsedRangeOrNullObject() {
              return this.usedRange;
            },
            usedRange: {
              isNullObject: used === null,
              rowIndex: used?.rowIndex ?? 0,
              rowCount: used?.rowCount ?? 0,
            },
          },
        },
      },
    },
  };
  const mock = new OfficeMockObject(data) as any;
  // Collections: items are read after load('items/name'); the mock cannot navigate into arrays, so set them directly.
  mock.context.workbook.tables.items = (opts.tables ?? []).map((name) => ({ name }));
  mock.context.workbook.worksheets.items = (opts.sheets ?? ["Data"]).map((name) => ({ name }));
  // context.sync is the mock's own: it resolves loaded properties (sheet name, used range) down the tree.
  return { context: mock.context as Excel.RequestContext, log, mock };
}

async function write(target: SheetTarget, opts: Parameters<typeof workbookMock>[0] = {}) {
  const wb = workbookMock(opts);
  const result = await writeRouteTables(wb.context, OPTIONS, target);
  return { ...wb, result };
}

describe("table names and places", () => {
  test("first free pair of numbers, case-insensitive", () => {
    expect(nextTableNumber([])).toBe(1);
    expect(nextTableNumber(["RouteOptions1", "Sales"])).toBe(2);
    expect(nextTableNumber(["routeoptions1", "RouteLegs2"])).toBe(3);
  });
  test("sheet names and A1 addresses", () => {
    expect(nextSheetName(["Sheet1"])).toBe("Route options");
    expect(nextSheetName(["Route options", "route options (2)"])).toBe("Route options (3)");
    expect([
      columnLetters(0),
      columnLetters(25),
      columnLetters(26),
      columnLetters(701),
      columnLetters(702),
    ]).toEqual(["A", "Z", "AA", "ZZ", "AAA"]);
    expect(a1Address(4, 0, 3, 19)).toBe("A5:S7");
  });
});

describe("writeRouteTables", () => {
  test("new sheet: adds a uniquely named sheet and writes both tables from A1", async () => {
    const { log, result } = await write(
      { kind: "new" },
      { sheets: ["Sheet1", "Route options"], tables: [] }
    );
    expect(log.loads).toEqual(["tables:items/name", "worksheets:items/name"]);
    expect(log.addedSheets).toEqual(["Route options (2)"]);
    expect(result.sheetName).toBe("Route options (2)");
    expect(log.tables.map((t) => [t.sheet, t.name, t.hasHeaders])).toEqual([
      ["Route options (2)", "RouteOptions1", true],
      ["Route options (2)", "RouteLegs1", true],
    ]);
    // Options: header + 2 rows at A1; legs (1 + 3 rows) after one blank row.
    expect(log.ranges.map((r) => r.args)).toEqual([
      [0, 0, 3, OPTION_COLUMNS.length],
      [4, 0, 5, LEG_COLUMNS.length],
    ]);
    expect(result.options).toEqual({ name: "RouteOptions1", address: "A1:S3", rows: 2 });
    expect(result.legs).toEqual({ name: "RouteLegs1", address: "A5:R9", rows: 4 });
    expect(log.activated).toEqual(["Route options (2)"]);
    expect(log.ranges.every((r) => r.autofit === 1)).toBe(true);
  });

  test("values: headers, Excel serial dates (UTC), lead time in days, kg, km", async () => {
    const { log } = await write({ kind: "new" });
    const [options, legs] = log.ranges;
    const header = options.values![0] as string[];
    const row = (i: number) => Object.fromEntries(header.map((h, c) => [h, options.values![i][c]]));
    expect(header).toEqual(OPTION_COLUMNS.map((c) => c.header));
    const first = row(1);
    expect(first).toMatchObject({
      Option: 1,
      "Option id": "11111111-1111-4111-8111-111111111111",
      Origin: "CNSHA",
      Destination: "NLRTM",
      Via: "",
      Modalities: "DEEPSEA",
      Operators: "Maersk",
      Transfers: 0,
      Legs: 1,
      // 2026-01-01 is Excel day 46023; noon is .5.
      "Latest drop-off (UTC)": 46023.5,
      "Departure (UTC)": 46024,
      "Arrival (UTC)": 46053,
      "Earliest pick-up (UTC)": 46054,
      "Lead time (days)": 30.5,
      "CO2e (kg)": 1234.5,
      "Transfer CO2e (kg)": 0,
      "Distance (km)": 19500,
      "Truck to origin (km)": 0,
      "Truck to destination (km)": 12.5,
    });
    expect(row(2)).toMatchObject({
      Via: "SGSIN, NLRTM",
      Modalities: "DEEPSEA > BARGE",
      Operators: "CMA CGM, Contargo",
      Transfers: 1,
      Legs: 3,
      "Lead time (days)": 35,
    });

    const legHeader = legs.values![0] as string[];
    expect(legHeader).toEqual(LEG_COLUMNS.map((c) => c.header));
    const legRow = (i: number) =>
      Object.fromEntries(legHeader.map((h, c) => [h, legs.values![i][c]]));
    expect(legRow(1)).toMatchObject({
      Option: 1,
      "Option id": "11111111-1111-4111-8111-111111111111",
      Leg: 1,
      Origin: "CNSHA",
      Destination: "NLRTM",
      "Origin terminals": "Yangshan Phase IV",
      "Destination terminals": "ECT Delta",
      Modality: "DEEPSEA",
      SCAC: "MAEU",
      Service: "MAEU-AE1",
      Vessel: "MAERSK ESSEX",
      IMO: "9332779",
      "Departure (UTC)": 46024,
      "Arrival (UTC)": 46053,
      "Duration (days)": 29,
      "Distance (km)": 19500,
      "CO2e (kg)": 1234.5,
    });
    // The legs link to their option by id, in order.
    expect(legs.values!.slice(1).map((r) => [r[1], r[2], r[3], r[5]])).toEqual([
      ["11111111-1111-4111-8111-111111111111", 1, "CNSHA", "NLRTM"],
      ["22222222-2222-4222-8222-222222222222", 1, "CNSHA", "SGSIN"],
      ["22222222-2222-4222-8222-222222222222", 2, "SGSIN", "NLRTM"],
      ["22222222-2222-4222-8222-222222222222", 3, "NLRTM", "DEDUI"],
    ]);
    expect(legRow(4)["Duration (days)"]).toBe(1.5);
  });

  test("number formats: dates, days, kg, km, counts; text as text; one format row per value row", async () => {
    const { log } = await write({ kind: "new" });
    const [options, legs] = log.ranges;
    expect(options.numberFormat).toHaveLength(3);
    expect(options.numberFormat![0].every((f) => f === "@")).toBe(true);
    const fmt = Object.fromEntries(
      (options.values![0] as string[]).map((h, c) => [h, options.numberFormat![1][c]])
    );
    expect(fmt).toMatchObject({
      Option: "0",
      "Option id": "@",
      Origin: "@",
      Transfers: "0",
      "Departure (UTC)": "yyyy-mm-dd hh:mm",
      "Latest drop-off (UTC)": "yyyy-mm-dd hh:mm",
      "Lead time (days)": "0.0",
      "CO2e (kg)": "#,##0.0",
      "Distance (km)": "#,##0",
      "Truck to destination (km)": "#,##0",
    });
    expect(options.numberFormat![2]).toEqual(options.numberFormat![1]);
    const legFmt = Object.fromEntries(
      (legs.values![0] as string[]).map((h, c) => [h, legs.numberFormat![1][c]])
    );
    expect(legFmt).toMatchObject({
      "Arrival (UTC)": "yyyy-mm-dd hh:mm",
      "Duration (days)": "0.0",
      "CO2e (kg)": "#,##0.0",
      IMO: "@",
    });
    expect(legs.numberFormat).toHaveLength(5);
  });

  test("active sheet with data: writes below the used range, next free table names", async () => {
    const { log, result } = await write(
      { kind: "active" },
      {
        tables: ["RouteOptions1", "RouteLegs1", "RouteOptions2"],
        used: { rowIndex: 2, rowCount: 10 },
      }
    );
    expect(log.addedSheets).toEqual([]);
    expect(log.gotSheet).toEqual(["(active)"]);
    expect(log.loads).toEqual(["tables:items/name"]);
    // Used rows 3..12 (1-based) → blank row 13 → table from row 14.
    expect(log.ranges.map((r) => r.args[0])).toEqual([13, 17]);
    expect(log.tables.map((t) => t.name)).toEqual(["RouteOptions3", "RouteLegs3"]);
    expect(result).toMatchObject({
      sheetName: "Data",
      options: { address: "A14:S16" },
      legs: { address: "A18:R22" },
    });
  });

  test("named empty sheet: starts at A1", async () => {
    const { log, result } = await write({ kind: "named", name: "Data" }, { used: null });
    expect(log.gotSheet).toEqual(["Data"]);
    expect(log.ranges.map((r) => r.args[0])).toEqual([0, 4]);
    expect(result.options.address).toBe("A1:S3");
  });

  test("nothing to write is an error, not an empty table", async () => {
    const wb = workbookMock({});
    await expect(writeRouteTables(wb.context, [], { kind: "new" })).rejects.toThrow(
      /No route options/
    );
    expect(wb.log.tables).toEqual([]);
  });
});
