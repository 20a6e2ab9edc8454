/**
 * The add-in on an analyst's sheet, end to end in headless Debian Chromium: the built add-in page
 * served by our real server, the real Office.js of @microsoft/office-js (the Excel host simulated,
 * as in e2e.test.ts), the page's own ROUTE.* functions called. Whole columns (1,048,576 rows),
 * blank rows, decimal commas, cell-sized errors, OPTIONS' header and dates, LANE over ranges, the
 * enum names, a dead service; names through the places extension where the server has it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  apiDistancesKm,
  CellResult,
  distanceFormula,
  distanceSheet,
  lanesOf,
  ROOT,
  seaPorts,
  wholeColumnFormula,
} from "../../src/bench/addin-harness";
import {
  callFunction,
  describeBrowser,
  useAddinE2e,
  withCustomFunctionsRuntime14,
} from "./e2e-support";
import { LANE_COLUMNS, OPTION_COLUMNS } from "../../src/functions/route-functions";
import { CELL_MESSAGE_LIMIT } from "../../src/functions/excel-errors";

jest.setTimeout(300_000);

/**
 * Names need the places extension (GET /route-information/api/places, CONTRACTS.md), built on its
 * own branch: these tests run once the server has it.
 */
const HAS_PLACES = fs.existsSync(path.join(ROOT, "src", "service", "routes", "places.ts"));
const testWithPlaces = HAS_PLACES ? test : test.skip;

describeBrowser("Excel add-in on an analyst's sheet (Chromium, real server)", () => {
  const env = useAddinE2e("route-sheets-sheet-e2e-");
  let ports: string[];

  beforeAll(async () => {
    ports = await seaPorts(60);
  });

  /** Calls one of the page's functions; an Excel error comes back as {code, message}. */
  const call = (name: string, ...args: unknown[]) => callFunction(env.addin.page, name, ...args);

  test("=ROUTE.DISTANCE(A:A, B:B): 1,048,576 rows, the lanes answered, the rest cut; the heap is given back", async () => {
    const lanes = lanesOf(ports, 300, 100);
    const before = env.proxy.apiRequests;
    const run = await wholeColumnFormula(env.addin.page, lanes, 1_048_576, { blank: "" });
    expect(run.sampleErrors).toEqual([]);
    expect([run.rows, run.values, run.errors]).toEqual([300, 300, 0]);
    expect(env.proxy.apiRequests - before).toBeLessThanOrEqual(3);
    // What the columns took is released with them: the work itself keeps nothing of their size.
    expect(run.heapMb.after).toBeLessThan(run.heapMb.before + 16);
    const nulls = await wholeColumnFormula(env.addin.page, lanes, 1_048_576, { blank: null });
    expect([nulls.rows, nulls.values]).toEqual([300, 300]);
    console.log(
      `whole column: ${run.ms.toFixed(0)} ms, longest stall ${run.maxStallMs.toFixed(0)} ms, heap ${run.heapMb.before.toFixed(1)} → ${run.heapMb.peak.toFixed(1)} (peak) → ${run.heapMb.after.toFixed(1)} MB`
    );
  });

  test("blank rows answer blank, in place; the values match the API to 0.1 km", async () => {
    const lanes = lanesOf(ports, 6, 500);
    const rows: Array<[string, string]> = [
      lanes[0],
      ["", ""],
      lanes[1],
      ["", ""],
      ["", ""],
      lanes[2],
    ];
    const { cells } = await distanceFormula(env.addin.page, rows, null);
    const reference = await apiDistancesKm(env.server.url, env.referenceKey, [
      lanes[0],
      lanes[1],
      lanes[2],
    ]);
    expect(cells).toEqual([reference[0], "", reference[1], "", "", reference[2]]);
    for (const cell of cells.filter((c) => c !== ""))
      expect(Math.abs((cell as number) * 10 - Math.round((cell as number) * 10))).toBeLessThan(
        1e-9
      );
  });

  test("decimal commas and spaces: 51,95;4,05 and 51,95 4,05 are 51.95,4.05", async () => {
    const rows: Array<[string, string]> = [
      ["51.95,4.05", "SGSIN"],
      ["51,95;4,05", "SGSIN"],
      ["51,95 4,05", "SGSIN"],
      ["51.95 4.05", "SGSIN"],
    ];
    const { cells } = await distanceFormula(env.addin.page, rows, null);
    const [reference] = await apiDistancesKm(env.server.url, env.referenceKey, [
      ["51.95,4.05", "SGSIN"],
    ]);
    expect(typeof reference).toBe("number");
    expect(cells).toEqual([reference, reference, reference, reference]);
  });

  test("errors fit a cell (about 100 characters), name the argument and say the fix", async () => {
    const rows: Array<[string, string]> = [
      ["1,2,3", "NLRTM"],
      ["NLRTM", ""],
      ["95;4", "NLRTM"],
      ["NLRTM", "X".repeat(300)],
    ];
    const { cells } = await distanceFormula(env.addin.page, rows, null);
    for (const cell of cells) {
      expect(cell).toEqual({ code: "#VALUE!", message: expect.any(String) });
      expect((cell as { message: string }).message.length).toBeLessThanOrEqual(CELL_MESSAGE_LIMIT);
    }
    expect((cells[0] as { message: string }).message).toBe(
      'origin "1,2,3": with decimal commas put ; between lat and lng, e.g. 51,95;4,05'
    );
    expect((cells[1] as { message: string }).message).toBe(
      "destination is required: a code, name or lat,lng, e.g. NLRTM"
    );
    expect((cells[2] as { message: string }).message).toMatch(
      /^origin "95;4": latitude 95 is out of range/
    );
    const unit = (await call(
      "DISTANCE",
      "NLRTM",
      "CNSHA",
      null,
      null,
      "yards",
      null,
      null
    )) as CellResult;
    expect(unit).toEqual({
      code: "#VALUE!",
      message: 'unit "yards" is not allowed: use one of m, km, nm, mi',
    });
  });

  test("OPTIONS: a header by default (FALSE leaves it out), dates formatted where Excel can, locale dates, lead time to 0.1 day", async () => {
    /** =ROUTE.OPTIONS("NLRTM", "DEDUI", , , , 3, minDeparture, , header) */
    const threeOptions = async (minDeparture: unknown, header: unknown) =>
      (await call(
        "OPTIONS",
        "NLRTM",
        "DEDUI",
        null,
        null,
        null,
        3,
        minDeparture,
        null,
        header
      )) as unknown[][];
    const withHeader = await threeOptions(null, null);
    expect(withHeader[0]).toEqual([...OPTION_COLUMNS]);
    expect(withHeader.length).toBeGreaterThan(1);
    const lead = OPTION_COLUMNS.indexOf("Lead time (days)");
    for (const row of withHeader.slice(1)) {
      const days = row[lead] as number;
      expect(Math.abs(days * 10 - Math.round(days * 10))).toBeLessThan(1e-9);
      expect(row[0]).toEqual(expect.any(Number)); // a date serial without data types
    }
    const bare = await threeOptions(null, false);
    expect(bare).toEqual(withHeader.slice(1));
    // 01.12.2026 (a German Excel's date typed as text) is 1 December 2026, as the serial is.
    const serial = await threeOptions(46357, null);
    const locale = await threeOptions("01.12.2026", null);
    expect(locale).toEqual(serial);
    // Excel with CustomFunctionsRuntime 1.4: dates as formatted numbers.
    await withCustomFunctionsRuntime14(env.addin.page, async () => {
      const formatted = await threeOptions(null, null);
      expect(formatted[1][0]).toEqual({
        type: "FormattedNumber",
        basicValue: withHeader[1][0],
        numberFormat: "yyyy-mm-dd hh:mm",
      });
    });
  });

  test("LANE over ranges: a header, one row per lane (blank lanes blank), figures to 0.1", async () => {
    const rows = (await call(
      "LANE",
      [["CNSHA"], [""], ["SGSIN"]],
      [["NLRTM"], [""], ["NLRTM"]],
      null,
      null,
      null,
      null,
      null
    )) as unknown[][];
    expect(rows[0]).toEqual([...LANE_COLUMNS]);
    expect(rows).toHaveLength(4);
    expect(rows[2]).toEqual(Array(LANE_COLUMNS.length).fill(""));
    const [km] = await apiDistancesKm(env.server.url, env.referenceKey, [["CNSHA", "NLRTM"]]);
    expect(rows[1].slice(0, 4)).toEqual(["CNSHA", "NLRTM", "DEEPSEA", km]);
    for (const row of [rows[1], rows[3]])
      for (const figure of row.slice(3, 7) as number[])
        expect(Math.abs(figure * 10 - Math.round(figure * 10))).toBeLessThan(1e-9);
  });

  test("functions.json names the container types as the trade writes them (20DV, not DV20)", async () => {
    const served = (await (await fetch(`${env.server.url}/functions.json`)).json()) as {
      enums: Array<{ id: string; values: Array<{ name: string; stringValue: string }> }>;
    };
    const containers = served.enums.find((e) => e.id === "ContainerType")!;
    for (const v of containers.values) expect(v.name).toBe(v.stringValue);
    expect(containers.values.map((v) => v.name)).toEqual(expect.arrayContaining(["20DV", "40HC"]));
  });

  test("a dead service: each waiting cell answers #N/A with the reason within 10 s", async () => {
    const lanes = lanesOf(ports, 20, 900);
    env.proxy.mode = "stall";
    const started = Date.now();
    const { cells } = await distanceSheet(env.addin.page, lanes);
    const elapsed = Date.now() - started;
    env.proxy.mode = "pass";
    for (const cell of cells)
      expect(cell).toEqual({
        code: "#N/A",
        message: expect.stringMatching(/^Service unavailable: no answer within \d s$/),
      });
    expect(elapsed).toBeLessThan(10_000);
  });

  testWithPlaces(
    "names: Rotterdam → Shanghai is NLRTM → CNSHA; a terminal by name; a typo gets its suggestion",
    async () => {
      const rows: Array<[string, string]> = [
        ["Rotterdam", "Shanghai"],
        ["NLRTM", "CNSHA"],
        ["rotterdam", "shanghai"],
        ["KRPUX", "NLRTM"],
      ];
      const { cells } = await distanceFormula(env.addin.page, rows, null);
      expect(typeof cells[1]).toBe("number");
      expect(cells[0]).toBe(cells[1]);
      expect(cells[2]).toBe(cells[1]);
      expect(cells[3]).toEqual({
        code: "#VALUE!",
        message: 'unknown place "KRPUX" — did you mean KRPUS (Busan)?',
      });
      for (const terminal of ["NLRTM Euromax", "Euromax", "ECT Euromax Terminal"]) {
        const km = await call("DISTANCE", terminal, "CNSHA", null, null, null, null, null);
        expect(km).toEqual([[expect.any(Number)]]);
      }
    }
  );
});
