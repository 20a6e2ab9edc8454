/**
 * The table writer against a recording stand-in for the Excel object model: which sheets it adds,
 * where it writes, the values and number formats it sets, and the table names it picks.
 */
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

/**
 * A workbook with the given tables and sheets, as plain objects that record what the writer does
 * (Excel itself is the one thing the tests stand in for). The selected cell is on "Data" at
 * `selected`; `occupied` is what holds data inside the area the writer checks (null: empty).
 */
function workbookMock(opts: {
  tables?: string[];
  sheets?: string[];
  selected?: { row: number; column: number };
  occupied?: string | null;
}) {
  const log = {
    loads: [] as string[],
    addedSheets: [] as string[],
    ranges: [] as RecordedRange[],
    tables: [] as RecordedTable[],
    activated: [] as string[],
    checked: [] as Array<[string, number, number, number, number]>,
    syncs: 0,
  };
  const sheetApi = (name: string) => ({
    name,
    load: (arg: string) => void log.loads.push(`sheet:${arg}`),
    getRangeByIndexes(row: number, col: number, rows: number, cols: number) {
      const range = {
        sheet: name,
        args: [row, col, rows, cols] as [number, number, number, number],
        autofit: 0,
        format: { autofitColumns: () => void range.autofit++ },
        getUsedRangeOrNullObject() {
          log.checked.push([name, row, col, rows, cols]);
          const held = opts.occupied ?? null;
          return {
            isNullObject: held === null,
            address: held ? `${name}!${held}` : "",
            load: (arg: string) => void log.loads.push(`area:${arg}`),
          };
        },
      } as RecordedRange & { format: { autofitColumns(): void } };
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
  const sheetNames = opts.sheets ?? ["Data"];
  const context = {
    workbook: {
      tables: {
        items: [] as Array<{ name: string }>,
        load(arg: string) {
          log.loads.push(`tables:${arg}`);
          this.items = (opts.tables ?? []).map((name) => ({ name }));
        },
      },
      worksheets: {
        items: [] as Array<{ name: string }>,
        load(arg: string) {
          log.loads.push(`worksheets:${arg}`);
          this.items = sheetNames.map((name) => ({ name }));
        },
        add(name: string) {
          log.addedSheets.push(name);
          return sheetApi(name);
        },
      },
      getSelectedRange() {
        const at = opts.selected ?? { row: 0, column: 0 };
        return {
          rowIndex: at.row,
          columnIndex: at.column,
          worksheet: sheetApi("Data"),
          load: (arg: string) => void log.loads.push(`selected:${arg}`),
        };
      },
    },
    sync: async () => void log.syncs++,
  };
  return { context: context as unknown as Excel.RequestContext, log };
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
  test("new sheets: each table on a sheet of its own, from A1, uniquely named", async () => {
    const { log, result } = await write(
      { kind: "sheets" },
      { sheets: ["Sheet1", "Route options", "Route legs"], tables: [] }
    );
    expect(log.loads).toEqual(["tables:items/name", "worksheets:items/name"]);
    expect(log.addedSheets).toEqual(["Route options (2)", "Route legs (2)"]);
    expect(log.tables.map((t) => [t.sheet, t.name, t.hasHeaders])).toEqual([
      ["Route options (2)", "RouteOptions1", true],
      ["Route legs (2)", "RouteLegs1", true],
    ]);
    // Both at A1 of their own sheets: either grows by rows without meeting the other.
    expect(log.ranges.map((r) => r.args)).toEqual([
      [0, 0, 3, OPTION_COLUMNS.length],
      [0, 0, 5, LEG_COLUMNS.length],
    ]);
    expect(result.options).toEqual({
      name: "RouteOptions1",
      sheet: "Route options (2)",
      address: "A1:S3",
      rows: 2,
    });
    expect(result.legs).toEqual({
      name: "RouteLegs1",
      sheet: "Route legs (2)",
      address: "A1:R5",
      rows: 4,
    });
    expect(log.activated).toEqual(["Route options (2)"]);
    expect(log.ranges.every((r) => r.autofit === 1)).toBe(true);
    expect(log.checked).toEqual([]);
    expect(log.syncs).toBe(2);
  });

  test("values: headers, Excel serial dates (UTC), lead time in days, kg, km", async () => {
    const { log } = await write({ kind: "sheets" });
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
    const { log } = await write({ kind: "sheets" });
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

  test("at the selected cell: the options there (its area checked empty), the legs on a sheet of their own", async () => {
    const { log, result } = await write(
      { kind: "cell" },
      { tables: ["RouteOptions1", "RouteLegs1", "RouteOptions2"], selected: { row: 4, column: 2 } }
    );
    expect(log.checked).toEqual([["Data", 4, 2, 3, OPTION_COLUMNS.length]]);
    expect(log.addedSheets).toEqual(["Route legs"]);
    expect(log.tables.map((t) => [t.sheet, t.name, t.range.args])).toEqual([
      ["Data", "RouteOptions3", [4, 2, 3, OPTION_COLUMNS.length]],
      ["Route legs", "RouteLegs3", [0, 0, 5, LEG_COLUMNS.length]],
    ]);
    expect(result.options).toEqual({
      name: "RouteOptions3",
      sheet: "Data",
      address: "C5:U7",
      rows: 2,
    });
    expect(log.activated).toEqual(["Data"]);
  });

  test("at a selected cell whose area holds data: nothing written, the reason named", async () => {
    const wb = workbookMock({ selected: { row: 0, column: 0 }, occupied: "B2:C3" });
    await expect(writeRouteTables(wb.context, OPTIONS, { kind: "cell" })).rejects.toThrow(
      'The options table needs A1:S3 on "Data" empty, but B2:C3 holds data: select an empty cell, or insert on new sheets.'
    );
    expect(wb.log.tables).toEqual([]);
    expect(wb.log.addedSheets).toEqual([]);
  });

  test("nothing to write is an error, not an empty table", async () => {
    const wb = workbookMock({});
    await expect(writeRouteTables(wb.context, [], { kind: "sheets" })).rejects.toThrow(
      /No route options/
    );
    expect(wb.log.tables).toEqual([]);
  });
});
