/**
 * The pane's footprint export without the browser: the lanes read from a sheet's values (any
 * column order and case, blank rows and header-less columns), and the document made from the
 * service's answers (the real server on 127.0.0.1 and the real client, batched) equal to the one
 * `route-sheets lanes --footprint` makes from the engine, lane by lane, for random lanes.
 */
import fc from "fast-check";
import { RouteApiClient } from "../../src/client/api-client";
import { LaneCells } from "../../src/client/footprint";
import { loadFactorSets } from "../../src/data/emissions";
import { FactorEmissionCalculator } from "../../src/engine/emissions";
import { laneFootprint } from "../../src/lanes/footprint";
import { LaneCalculator } from "../../src/lanes/lane-sheet";
import {
  footprintAnswerOf,
  LANES_PER_SLICE,
  laneFootprintsOf,
  lanesOfGrid,
} from "../../src/taskpane/footprint-export";
import { startTestServer, testEngine, TestServer } from "../service/support";

const COLUMNS = [
  "origin",
  "destination",
  "modality",
  "vesselInfo",
  "containerType",
  "fuelType",
  "avoid",
];

/** A column name as a user may type it: any letter upper or lower case. */
const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((up) => [...name].map((ch, i) => (up[i] ? ch.toUpperCase() : ch.toLowerCase())).join(""));

const cellValue = fc.oneof(
  fc.constantFrom("CNSHA", "NLRTM", " DEHAM ", "52.1,4.3", "40HC", "x"),
  fc.integer({ min: 1, max: 40 }),
  fc.constant("")
);

/** A header: the required columns and some optional ones, in any order and case. */
const headerArb = fc
  .shuffledSubarray(COLUMNS.slice(3))
  .chain((optional) =>
    fc.shuffledSubarray([...COLUMNS.slice(0, 3), ...optional], { minLength: 3 + optional.length })
  )
  .chain((names) => fc.tuple(fc.constant(names), fc.tuple(...names.map(anyCase))));

describe("lanesOfGrid", () => {
  test("random sheets: every lane with an origin or a destination, in order, by canonical column, with its sheet row", () => {
    fc.assert(
      fc.property(
        headerArb,
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.array(cellValue, { minLength: 12, maxLength: 12 }), { maxLength: 12 }),
        fc.integer({ min: 0, max: 500 }),
        ([names, typed], blankHeaders, rows, firstRow) => {
          // Header-less columns (a selection wider than the lanes) are left out.
          const blanks = Array.from({ length: blankHeaders }, () => "");
          const header = [...names, ...blanks];
          const values = [[...typed, ...blanks], ...rows.map((r) => r.slice(0, header.length))];
          const text = (v: unknown) => (v === undefined ? "" : String(v));
          const expected = rows
            .map((r, i) => ({ r, i }))
            .filter(
              ({ r }) =>
                text(r[header.indexOf("origin")]).trim() !== "" ||
                text(r[header.indexOf("destination")]).trim() !== ""
            )
            .map(({ r, i }) => {
              const cells: LaneCells = {};
              names.forEach((n, c) => (cells[n] = text(r[c])));
              return { row: firstRow + i + 2, cells };
            });
          expect(lanesOfGrid(values, firstRow)).toEqual(expected);
        }
      ),
      { numRuns: 200 }
    );
  });

  test("the CLI's header rules: missing and duplicate columns are named", () => {
    expect(() => lanesOfGrid([["Origin", "destination"]], 0)).toThrow(
      /missing column\(s\) modality: required columns are origin, destination, modality/
    );
    expect(() => lanesOfGrid([["origin", "Destination", "modality", "ORIGIN"]], 0)).toThrow(
      /duplicate column name\(s\): "ORIGIN" \(columns 1 and 4\)/
    );
    expect(() => lanesOfGrid([], 0)).toThrow(/selection is empty/);
  });
});

test("an answer without the include=method blocks is the lane's error, not a made-up footprint", () => {
  expect(footprintAnswerOf({ co2eTeu: 1, co2eTon: 0.1, distance: 1000 })).toMatch(
    /did not answer include=method/
  );
  expect(footprintAnswerOf(null)).toMatch(/Unexpected answer/);
});

describe("the pane's document is the CLI's, for random lanes", () => {
  let s: TestServer;
  let client: RouteApiClient;
  let key = "";
  const engine = testEngine();
  const sets = loadFactorSets(engine.parts.emissions as FactorEmissionCalculator);

  beforeAll(async () => {
    s = await startTestServer(
      { rateLimit: { perSecond: 10_000, burst: 10_000 } },
      {
        optimizer: null,
      }
    );
    ({ key } = await s.account({ credits: 100_000 }));
    client = new RouteApiClient({
      settings: { get: async () => ({ baseUrl: s.url, apiKey: key }) },
    });
  }, 120_000);
  afterAll(async () => s?.stop());

  const PORTS = ["CNSHA", "SGSIN", "NLRTM", "DEHAM", "DEDUI", "USLAX", "USNYC", "PLGDN", "XXXXX"];
  const lane = fc.record({
    origin: fc.constantFrom(...PORTS),
    destination: fc.constantFrom(...PORTS),
    modality: fc.constantFrom("DEEPSEA", "SHORTSEA", "RAIL", "TRUCK", "BARGE", "", "PLANE"),
    containerType: fc.constantFrom("", "20DV", "40HC", "45HC", "20RF", "22G1"),
    containers: fc.constantFrom("", "1", "3", "0"),
    weightTons: fc.constantFrom("", "4.5", "18"),
    factorSet: fc.constantFrom("", ...sets.ids()),
  });

  test("include=method names the resolved ends and the box, on /emissions and in /batch items alike", async () => {
    const q = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA", containerType: "40HC" };
    const body = (await client.raw({
      path: "/route-information/api/emissions",
      query: { ...q, include: "method" },
    })) as Record<string, unknown>;
    const cnsha = engine.parts.places.resolve("CNSHA", "origin");
    expect(body.places).toEqual({
      origin: {
        kind: cnsha.kind,
        locode: "CNSHA",
        name: cnsha.name,
        lat: cnsha.lat,
        lng: cnsha.lng,
      },
      destination: expect.objectContaining({ locode: "NLRTM" }),
    });
    expect(body.box).toEqual({ teu: 2, payloadTonnes: 20 });
    // co2eTon is co2eTeu over the box's tonnes per TEU.
    expect(body.co2eTon).toBeCloseTo(((body.co2eTeu as number) * 2) / 20, 2);
    const batch = (await (
      await s.post(
        "/route-information/api/batch",
        {
          requests: [{ type: "emissions", ...q, include: "method" }],
        },
        key
      )
    ).json()) as { results: Array<{ status: number; body: unknown }> };
    expect(batch.results[0]).toEqual({ status: 200, body });
    // Without include=method, neither.
    const plain = (await client.raw({
      path: "/route-information/api/emissions",
      query: q,
    })) as object;
    expect(Object.keys(plain)).toEqual(["co2eTeu", "co2eTon", "distance"]);
  });

  test("a long sheet goes in slices (progress after each), every lane in its row's order", async () => {
    const pairs = [
      ["CNSHA", "NLRTM"],
      ["NLRTM", "DEDUI"],
      ["XXXXX", "NLRTM"],
      ["DEHAM", "PLGDN"],
    ];
    const n = 2 * LANES_PER_SLICE + 50;
    const lanes = Array.from({ length: n }, (_, i) => ({
      row: i + 2,
      cells: { origin: pairs[i % 4][0], destination: pairs[i % 4][1], modality: "" },
    }));
    const progress: number[] = [];
    const doc = await laneFootprintsOf(client, lanes, new Date(), (done) => progress.push(done));
    expect(progress).toEqual([LANES_PER_SLICE, 2 * LANES_PER_SLICE, n]);
    expect(doc.lanes.map((l) => l.row)).toEqual(lanes.map((l) => l.row));
    expect(doc.lanes.map((l) => l.input.origin)).toEqual(lanes.map((l) => l.cells.origin));
    expect(doc.lanes.filter((l) => l.error).length).toBe(Math.ceil((n - 2) / 4));
  });

  test("every lane: the same entry (figures, method block, shipment footprint, TOC) or the same error", async () => {
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(lane, { minLength: 1, maxLength: 4 }), async (rows) => {
        const lanes = rows.map((cells, i) => ({ row: i + 2, cells: cells as LaneCells }));
        const doc = await laneFootprintsOf(client, lanes);
        const calculator = new LaneCalculator(engine, sets);
        const cli = lanes.map((l) => laneFootprint(calculator, l.cells, l.row));
        // A bad row is bad on both. (The CLI words it as the functions do, in a cell's 100
        // characters; the pane's export still shows the service's detail.)
        doc.lanes.forEach((l, i) => {
          expect(l.error === undefined).toBe(cli[i].error === undefined);
        });
        const withoutError = (l: { error?: string }) => ({ ...l, error: l.error && "error" });
        expect(doc.lanes.map(withoutError)).toEqual(cli.map(withoutError));
        answered += doc.lanes.filter((l) => l.shipmentFootprint).length;
      }),
      { numRuns: 25 }
    );
    // Not only errors: most random lanes have a route.
    expect(answered).toBeGreaterThan(10);
  }, 300_000);
});
