/**
 * Ranges as an analyst's sheet holds them: whole columns (1,048,576 rows, the lanes first), blank
 * rows in between, names and decimal commas, locale dates, LANE over ranges, and messages that fit
 * a cell. The service is the fake of test/client (Excel's CustomFunctions is the only other stand-in).
 */
import fc from "fast-check";
import { createRouteFunctions, LANE_COLUMNS } from "../../src/functions/route-functions";
import { isoDateOf, parseDateText } from "../../src/functions/excel-dates";
import { CELL_MESSAGE_LIMIT, cellSized } from "../../src/functions/excel-errors";
import { oneDecimal } from "../../src/functions/units";
import { fakeClient, fakeMetres } from "../client/fake-service";
import { FakeExcelError, installCustomFunctions } from "./fake-custom-functions";

installCustomFunctions();
// A million-row column takes a while to build on a busy machine (no timing is asserted).
jest.setTimeout(60_000);

const SHEET_ROWS = 1_048_576;

function setup() {
  const { client, requests } = fakeClient(
    { batch: true },
    { windowMs: 5, backoff: { baseMs: 5, maxMs: 20 } }
  );
  return { route: createRouteFunctions(() => client), requests };
}

const km = (o: string, d: string) => oneDecimal(fakeMetres(o, d, "DEEPSEA") / 1000);

/** A column of the sheet: `values` in the first rows, then `blank` down to `rows`. */
function column(values: unknown[], rows: number, blank: unknown): unknown[][] {
  const out: unknown[][] = new Array(rows);
  for (let i = 0; i < rows; i++) out[i] = [i < values.length ? values[i] : blank];
  return out;
}

test.each([null, ""])(
  "=ROUTE.DISTANCE(A:A, B:B): the trailing blank rows are cut (empty cells as %p), one answer per lane",
  async (blank) => {
    const { route, requests } = setup();
    const origins = ["NLRTM", "DEHAM", "", "BEANR"];
    const destinations = ["CNSHA", "SGSIN", "", "USNYC"];
    const spill = await route.distance({
      origin: column(origins, SHEET_ROWS, blank),
      destination: column(destinations, SHEET_ROWS, blank),
    });
    // A blank row inside the lanes answers blank, not an error.
    expect(spill).toEqual([
      [km("NLRTM", "CNSHA")],
      [km("DEHAM", "SGSIN")],
      [""],
      [km("BEANR", "USNYC")],
    ]);
    expect(requests).toHaveLength(1);
  }
);

test("=ROUTE.DISTANCE(A:A, B:B) over a sheet with a heading row: the headings' row answers blank", async () => {
  const { route, requests } = setup();
  const spill = await route.distance({
    origin: column(["Origin", "NLRTM", "DEHAM"], SHEET_ROWS, null),
    destination: column(["Destination", "CNSHA", "SGSIN"], SHEET_ROWS, null),
    modality: column(["Modality", "DEEPSEA", "DEEPSEA"], SHEET_ROWS, null),
  });
  expect(spill).toEqual([[""], [km("NLRTM", "CNSHA")], [km("DEHAM", "SGSIN")]]);
  // Other spellings of the headings, and EMISSIONS and LANE likewise; no look-up of "From".
  for (const [from, to] of [
    ["FROM", "To"],
    ["Port of loading", "Port of discharge"],
    ["origin (LOCODE)", "destination:"],
    ["Von", "Nach"],
  ]) {
    const emissions = (await route.emissions({
      origin: [[from], ["NLRTM"]],
      destination: [[to], ["CNSHA"]],
    })) as unknown[][];
    expect(emissions[0]).toEqual([""]);
    expect(typeof emissions[1][0]).toBe("number");
    const lanes = (await route.lane({
      origin: [[from], ["NLRTM"]],
      destination: [[to], ["CNSHA"]],
    })) as unknown[][];
    expect(lanes.slice(0, 2)).toEqual([[...LANE_COLUMNS], Array(LANE_COLUMNS.length).fill("")]);
  }
  expect(requests.some((r) => r.url.pathname.endsWith("/places"))).toBe(false);
  // A word that is not a heading is still looked up as a place, and its error stays.
  const unknown = (await route.distance({
    origin: [["Atlantis"], ["NLRTM"]],
    destination: [["Destination"], ["CNSHA"]],
  })) as unknown[][];
  expect(unknown[0][0]).toMatchObject({ code: "#VALUE!" });
});

test("property: any layout of lanes and blank rows spills to the last lane, blanks blank", async () => {
  const lanes = [
    ["NLRTM", "CNSHA"],
    ["DEHAM", "SGSIN"],
    ["BEANR", "USNYC"],
  ];
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), { maxLength: 40 }),
      fc.integer({ min: 0, max: 50 }),
      fc.constantFrom(null, "", "  "),
      async (layout, trailing, blank) => {
        const { route } = setup();
        const rows = layout.length + trailing;
        if (rows < 2) return;
        const cell = (i: number, side: 0 | 1) =>
          layout[i] === undefined ? blank : lanes[layout[i]!][side];
        const a = Array.from({ length: rows }, (_, i) => [i < layout.length ? cell(i, 0) : blank]);
        const b = Array.from({ length: rows }, (_, i) => [i < layout.length ? cell(i, 1) : blank]);
        const spill = (await route.distance({ origin: a, destination: b })) as unknown[][];
        let last = -1;
        layout.forEach((lane, i) => lane !== undefined && (last = i));
        if (last < 0) return expect(spill).toEqual([[""]]);
        expect(spill).toEqual(
          layout
            .slice(0, last + 1)
            .map((lane) => [lane === undefined ? "" : km(...(lanes[lane] as [string, string]))])
        );
      }
    ),
    { numRuns: 40 }
  );
});

test("a single blank lane answers blank; half a lane names the missing argument", async () => {
  const { route, requests } = setup();
  expect(await route.distance({ origin: null, destination: "" })).toBe("");
  expect(await route.distance({ origin: [[""]], destination: [[null]] })).toEqual([[""]]);
  const half = await route.distance({ origin: "NLRTM", destination: "" }).catch((e) => e);
  expect(half).toBeInstanceOf(FakeExcelError);
  expect(half).toMatchObject({
    code: "#VALUE!",
    message: "destination is required: a code, name or lat,lng, e.g. NLRTM",
  });
  expect(requests).toHaveLength(0);
});

test("names and decimal commas in cells: looked up (once each) or read, then routed", async () => {
  const { route, requests } = setup();
  const spill = await route.distance({
    origin: [["Rotterdam"], ["rotterdam"], ["51,95;4,05"], ["KRPUX"]],
    destination: [["Shanghai"], ["Shanghai"], ["Busan"], ["NLRTM"]],
    unit: "nm",
  });
  const nm = (o: string, d: string) => oneDecimal(fakeMetres(o, d, "DEEPSEA") / 1852);
  expect(spill).toEqual([
    [nm("NLRTM", "CNSHA")],
    [nm("NLRTM", "CNSHA")],
    [nm("51.95,4.05", "KRPUS")],
    [
      expect.objectContaining({
        code: "#VALUE!",
        message: 'unknown place "KRPUX" — did you mean KRPUS (Busan)?',
      }),
    ],
  ]);
  const lookups = requests.filter((r) => r.url.pathname.endsWith("/places"));
  expect(lookups.map((r) => r.url.searchParams.get("query")).sort()).toEqual([
    "Busan",
    "KRPUX",
    "Rotterdam",
    "Shanghai",
    "rotterdam",
  ]);
});

test("ROUTE.LANE over ranges: a header and one row per lane, blank lanes blank, bad lanes their own error", async () => {
  const { route } = setup();
  const rows = (await route.lane({
    origin: [["NLRTM"], [""], ["1,2,3"], ["DEHAM"]],
    destination: [["CNSHA"], [""], ["SGSIN"], ["SGSIN"]],
  })) as unknown[][];
  expect(rows[0]).toEqual([...LANE_COLUMNS]);
  expect(rows).toHaveLength(5);
  const metres = fakeMetres("NLRTM", "CNSHA", "DEEPSEA");
  expect(rows[1].slice(0, 5)).toEqual([
    "NLRTM",
    "CNSHA",
    "DEEPSEA",
    oneDecimal(metres / 1000),
    oneDecimal(metres / 1852),
  ]);
  expect(rows[2]).toEqual(Array(LANE_COLUMNS.length).fill(""));
  expect(rows[3][0]).toMatchObject({
    code: "#VALUE!",
    message: expect.stringContaining('origin "1,2,3"'),
  });
  expect(rows[3].slice(1)).toEqual(Array(LANE_COLUMNS.length - 1).fill(""));
  expect(rows[4][0]).toBe("DEHAM");
});

test("ROUTE.LANE names a terminal found by name by its name and port, never its id", async () => {
  const { route } = setup();
  const rows = (await route.lane({
    origin: [["Euromax"], ["Rotterdam"], ["51,95;4,05"]],
    destination: "CNSHA",
  })) as unknown[][];
  expect(rows.slice(1).map((r) => r.slice(0, 2))).toEqual([
    ["ECT Euromax Terminal (NLRTM)", "CNSHA"],
    ["NLRTM", "CNSHA"],
    ["51.95,4.05", "CNSHA"],
  ]);
  for (const row of rows) expect(String(row[0])).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
});

test("OPTIONS dates: serials, ISO dates and the user's locale dates", () => {
  expect(isoDateOf(46357, "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("46357", "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("2026-12-01", "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("01.12.2026", "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("1.12.26", "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("01-12-2026", "minDeparture")).toBe("2026-12-01");
  expect(isoDateOf("01/12/2026", "minDeparture", "DMY")).toBe("2026-12-01");
  expect(isoDateOf("12/01/2026", "minDeparture", "MDY")).toBe("2026-12-01");
  expect(() => isoDateOf("31.02.2026", "maxDeparture")).toThrow(
    'maxDeparture "31.02.2026" is not a date: use a date cell, 2026-12-01 or 01.12.2026'
  );
});

test("property: a calendar date written day-first with dots reads back as the same date", () => {
  fc.assert(
    fc.property(
      fc.date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }),
      (d) => {
        const iso = d.toISOString().slice(0, 10);
        const [y, m, day] = iso.split("-");
        expect(parseDateText(`${day}.${m}.${y}`)).toBe(iso);
        expect(parseDateText(`${Number(day)}.${Number(m)}.${y}`)).toBe(iso);
      }
    )
  );
});

test("property: any message is cut to fit a cell", () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 500 }), (message) => {
      expect(cellSized(message).length).toBeLessThanOrEqual(CELL_MESSAGE_LIMIT);
    })
  );
  // The service's long details keep their first clause; the allowed forms are on the help page.
  expect(
    cellSized(
      "origin KRPUX is not a known UN/LOCODE; allowed forms: a UN/LOCODE (5 characters, e.g. NLRTM), a terminal UUID…"
    )
  ).toBe(
    "origin KRPUX is not a known UN/LOCODE; use NLRTM, Rotterdam, 51.95,4.05 or a terminal id"
  );
  // Short ones stay whole; long lists are cut at an item.
  expect(cellSized('per "x" is not allowed: use TEU or TON')).toBe(
    'per "x" is not allowed: use TEU or TON'
  );
  const list = `containerType "99ZZ" is not allowed; allowed values: ${Array.from({ length: 30 }, (_, i) => `${i}DV`).join(", ")}`;
  expect(cellSized(list)).toMatch(
    /^containerType "99ZZ" is not allowed; allowed values: 0DV, 1DV, .*DV…$/
  );
});
