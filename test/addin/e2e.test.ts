/**
 * End to end in headless Debian Chromium: the built add-in page served by our real server
 * (route-sheets start), the real Office.js of @microsoft/office-js (outside-Office path; the Excel
 * host simulated), the page's own ROUTE.* functions called: a sheet of 10,000 cells over 2,000
 * lanes, one spilling formula over ranges, avoid, PASSAGES, LANE, distinct OPTIONS, the enums of
 * the generated functions.json, then with the server stopped, rate limiting, a slow and a silent
 * service. A loopback proxy in front of the server counts the API requests that reach it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import {
  apiDistanceKmByGet,
  apiDistancesKm,
  CellResult,
  distanceFormula,
  distanceSheet,
  lanesOf,
  officeJsRequests,
  ROOT,
  seaPorts,
  sheetOf,
} from "../../src/bench/addin-harness";
import {
  apiJson,
  callAll,
  callFunction,
  describeBrowser,
  startQuietServer,
  useAddinE2e,
  withCustomFunctionsRuntime14,
} from "./e2e-support";
import { LANE_COLUMNS, OPTION_COLUMNS, optionRows } from "../../src/functions/route-functions";
import { oneDecimal } from "../../src/functions/units";
import { distinctRoutings } from "../../src/client/distinct-routings";
import type { RouteOption } from "../../src/client/types";

jest.setTimeout(300_000);

/** What a cell shows when the service cannot be asked: #N/A with the reason. */
const UNAVAILABLE = { code: "#N/A", message: expect.stringMatching(/^Service unavailable: /) };

describeBrowser("Excel add-in in Chromium against the real server", () => {
  const env = useAddinE2e("route-sheets-e2e-");
  let lanes: Array<[string, string]>;
  let nextLane = 2000;

  /** Lanes not asked before, so the cache cannot answer them. */
  const freshLanes = (n: number) => {
    const out = lanesOf(lanes.length ? portsCache : [], n, nextLane);
    nextLane += n;
    return out;
  };
  let portsCache: string[] = [];

  beforeAll(async () => {
    portsCache = await seaPorts(60);
    lanes = lanesOf(portsCache, 2000);
  });

  const expectCellsMatch = (cells: CellResult[], reference: CellResult[]) => {
    cells.forEach((cell, i) => {
      const want = reference[i % reference.length];
      if (typeof want === "object")
        expect(cell).toEqual({ code: want.code, message: want.message });
      else expect(cell).toBe(want);
    });
  };

  test("10,000 DISTANCE cells over 2,000 lanes: the API answers, in at most 25 requests; a second pass sends none", async () => {
    const sheet = sheetOf(lanes, 10_000);
    const before = env.proxy.apiRequests;
    const first = await distanceSheet(env.addin.page, sheet);
    const requests = env.proxy.apiRequests - before;

    const reference = await apiDistancesKm(env.server.url, env.referenceKey, lanes);
    expect(reference.filter((r) => typeof r === "number").length).toBeGreaterThan(1900);
    // The batch extension is checked against plain GETs on a sample of lanes.
    for (let i = 0; i < 2000; i += 40)
      expect(await apiDistanceKmByGet(env.server.url, env.referenceKey, lanes[i])).toBe(
        reference[i]
      );
    expectCellsMatch(first.cells, reference);
    expect(requests).toBeLessThanOrEqual(25);
    console.log(`first pass: ${first.ms.toFixed(0)} ms, ${requests} API requests`);

    const againBefore = env.proxy.apiRequests;
    const second = await distanceSheet(env.addin.page, sheet);
    expect(env.proxy.apiRequests - againBefore).toBe(0);
    expectCellsMatch(second.cells, reference);
    console.log(`second pass: ${second.ms.toFixed(0)} ms, 0 API requests`);
  });

  test("errors reach the cells as Excel users expect", async () => {
    const before = env.proxy.apiRequests;
    const lane = lanes[7];
    const cells = await callAll(env.addin.page, [
      ["DISTANCE", "NLRTM", "XXXXX", null, null, null, null, null, {}],
      ["DISTANCE", "NLRTM", "CNSHA", null, null, "yards", null, null, {}],
      ["DISTANCE", "NLRTM", "CNSHA", "PLANE", null, null, null, null, {}],
      [
        "DISTANCE",
        "12.5,45.5",
        "-20.25,57.5",
        null,
        null,
        "nm",
        null,
        null,
        { isInValuePreview: true },
      ],
      ["TERMINALS", "NLRTM", null, {}],
      ["DISTANCE", lane[0], lane[1], null, null, "nm", null, null, { isInValuePreview: true }],
    ]);
    // A code the service does not know: #VALUE! with the places look-up's suggestion, if any.
    expect(cells[0]).toEqual({
      code: "#VALUE!",
      message: expect.stringMatching(/^unknown place "XXXXX"/),
    });
    expect(cells[1]).toEqual({
      code: "#VALUE!",
      message: 'unit "yards" is not allowed: use one of m, km, nm, mi',
    });
    expect(cells[2]).toEqual({ code: "#VALUE!", message: expect.stringContaining("modality") });
    // The functions answer matrices, as Excel expects of matrix results.
    expect(cells[3]).toEqual([["Preview: press Enter to compute"]]);
    const terminals = cells[4] as string[][];
    expect(terminals.length).toBeGreaterThan(1);
    for (const row of terminals)
      expect(row).toEqual([expect.any(String), "NLRTM", expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    // A preview of a cell computed before answers from the cache, in the preview's unit.
    const [reference] = await apiDistancesKm(env.server.url, env.referenceKey, [lanes[7]]);
    // (Both to 0.1: the km reference and the nm cell are each rounded.)
    expect(
      Math.abs((cells[5] as number[][])[0][0] - ((reference as number) * 1000) / 1852)
    ).toBeLessThanOrEqual(0.11);
    // Unknown place (and its look-up), bad modality and terminals: 4 requests at most; previews: none.
    expect(env.proxy.apiRequests - before).toBeLessThanOrEqual(4);
  });

  test("OPTIONS and OPERATORS spill the optimizer answers", async () => {
    const cells = await callAll(env.addin.page, [
      ["OPTIONS", "nlrtm", "DEDUI", "rail, barge", null, null, 3, null, null, null, {}],
      ["OPERATORS", "maersk", {}],
      ["OPERATORS", null, {}],
    ]);
    const get = (pathAndQuery: string) => apiJson<unknown>(env, pathAndQuery);
    const search = (await get(
      "/route-optimizer/api/external?origin=NLRTM&originType=LOCODE&destination=DEDUI&destinationType=LOCODE&modalities=RAIL&modalities=BARGE"
    )) as { results: RouteOption[] };
    expect(search.results.length).toBeGreaterThan(0);
    // A header row by default.
    expect(cells[0]).toEqual([[...OPTION_COLUMNS], ...optionRows(search.results, 3)]);
    const operators = (await get("/route-optimizer/api/external/operators")) as Array<{
      id: string;
      name: string;
      scac: string;
    }>;
    expect(cells[2]).toEqual(operators.map((o) => [o.name, o.scac, o.id]));
    expect(cells[1]).toEqual(
      operators
        .filter((o) => /maersk/i.test(o.name) || /maersk/i.test(o.scac))
        .map((o) => [o.name, o.scac, o.id])
    );
    expect((cells[1] as unknown[]).length).toBeGreaterThan(0);
  });

  test("the page runs the real Office.js of @microsoft/office-js", () => {
    expect(officeJsRequests[0]).toBe("office.js");
  });

  test("one formula over a range spills every answer; a bad row keeps its own error", async () => {
    const rows = freshLanes(300);
    rows[123] = ["NOT A PORT", rows[123][1]];
    const before = env.proxy.apiRequests;
    const { cells } = await distanceFormula(env.addin.page, rows);
    // The batch, and the look-up of the name.
    expect(env.proxy.apiRequests - before).toBeLessThanOrEqual(3);
    expect(cells).toHaveLength(300);
    const good = rows.filter((_, i) => i !== 123);
    const reference = await apiDistancesKm(env.server.url, env.referenceKey, good);
    expectCellsMatch(
      cells.filter((_, i) => i !== 123),
      reference
    );
    // Words are a name to look up; this one is none.
    expect(cells[123]).toEqual({
      code: "#VALUE!",
      message: expect.stringMatching(/^unknown place "NOT A PORT"/),
    });
  });

  const api = (pathAndQuery: string) => apiJson(env, pathAndQuery);

  test("avoid and PASSAGES: the Red Sea question, per row", async () => {
    const from = [["CNSHA"], ["CNSHA"], ["SGSIN"]];
    const to = [["NLRTM"]];
    const cells = await callAll(env.addin.page, [
      ["PASSAGES", from, to, null, null, [[""], ["SUEZ,PANAMA"], [""]], {}],
      ["DISTANCE", [["CNSHA"]], to, null, null, null, [["SUEZ,PANAMA"]], null, {}],
      [
        "EMISSIONS",
        [["CNSHA"]],
        to,
        null,
        [["TON"]],
        null,
        null,
        null,
        [["SUEZ"]],
        null,
        null,
        null,
        {},
      ],
    ]);
    const viaSuez = await api(
      "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=passages"
    );
    const viaCape = await api(
      "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=passages&avoid=PANAMA,SUEZ"
    );
    const fromSingapore = await api(
      "/route-information/api/emissions?origin=SGSIN&destination=NLRTM&modality=DEEPSEA&include=passages"
    );
    const text = (p: unknown) => (p as string[]).join(", ");
    expect(cells[0]).toEqual([
      [text(viaSuez.passages)],
      [text(viaCape.passages)],
      [text(fromSingapore.passages)],
    ]);
    expect(text(viaSuez.passages)).toMatch(/MALACCA.*BAB_EL_MANDEB, SUEZ.*GIBRALTAR/);
    expect(text(viaCape.passages)).not.toMatch(/SUEZ/);
    expect(cells[1]).toEqual([[oneDecimal((viaCape.distance as number) / 1000)]]);
    const capeTon = await api(
      "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&avoid=SUEZ"
    );
    expect(cells[2]).toEqual([[oneDecimal(capeTon.co2eTon as number)]]);
  });

  test("LANE: a header and a row outside data types, an entity card where Excel has them", async () => {
    const lane = await api(
      "/route-information/api/emissions?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&include=passages"
    );
    const callLane = () =>
      callFunction(env.addin.page, "LANE", "CNSHA", "NLRTM", null, null, null, null, null);
    // Real Office.js outside Office has no requirement sets: the spilled form.
    expect(await callLane()).toEqual([
      [...LANE_COLUMNS],
      [
        "CNSHA",
        "NLRTM",
        "DEEPSEA",
        oneDecimal((lane.distance as number) / 1000),
        oneDecimal((lane.distance as number) / 1852),
        oneDecimal(lane.co2eTeu as number),
        oneDecimal(lane.co2eTon as number),
        (lane.passages as string[]).join(", "),
      ],
    ]);
    // Excel with CustomFunctionsRuntime 1.4 (simulated host): the card.
    await withCustomFunctionsRuntime14(env.addin.page, async () => {
      const [[card]] = (await callLane()) as Array<
        Array<{ type: string; properties: Record<string, { basicValue: unknown }> }>
      >;
      expect(card.type).toBe("Entity");
      expect(card.properties.Distance.basicValue).toBe(
        oneDecimal((lane.distance as number) / 1000)
      );
      expect(card.properties.DistanceNm.basicValue).toBe(
        oneDecimal((lane.distance as number) / 1852)
      );
      expect(card.properties.CO2ePerTEU.basicValue).toBe(oneDecimal(lane.co2eTeu as number));
      expect(card.properties.CO2ePerTonne.basicValue).toBe(oneDecimal(lane.co2eTon as number));
      expect(card.properties.Passages.basicValue).toBe((lane.passages as string[]).join(", "));
    });
  });

  test("functions.json of the webpack build: matrix parameters and the custom enums", async () => {
    const res = await fetch(`${env.server.url}/functions.json`);
    expect(res.status).toBe(200);
    const served = (await res.json()) as {
      functions: Array<{
        id: string;
        options?: { cancelable?: boolean };
        parameters: Array<{ name: string; dimensionality?: string; customEnumId?: string }>;
      }>;
      enums: Array<{ id: string; values: Array<{ stringValue: string }> }>;
    };
    // The server serves the build's metadata with each help link on its own /help/ page, named by
    // its own origin (localhost and its port), never by the request's host.
    const origin = `http://localhost:${new URL(env.server.url).port}`;
    const built = JSON.parse(
      fs.readFileSync(path.join(ROOT, "dist/addin/functions.json"), "utf8")
    ) as { functions: Array<{ id: string; helpUrl?: string }> };
    for (const f of built.functions) f.helpUrl = `${origin}/help/ROUTE.${f.id}#ROUTE.${f.id}`;
    expect(served).toEqual(built);
    const enumValues = Object.fromEntries(
      served.enums.map((e) => [e.id, e.values.map((v) => v.stringValue)])
    );
    expect(enumValues).toEqual({
      Modality: ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"],
      DistanceUnit: ["km", "nm", "mi", "m"],
      Per: ["TEU", "TON"],
      Sort: ["LEAD_TIME", "EMISSIONS", "TRANSFERS", "DEPARTURE", "ARRIVAL"],
      FuelType: expect.arrayContaining(["VLSFO", "HFO", "MGO", "LNG", "DIESEL", "ELECTRIC"]),
      ContainerType: expect.arrayContaining(["20DV", "40DV", "40HC", "45HC"]),
    });
    const fn = (id: string) => served.functions.find((f) => f.id === id)!;
    const params = (id: string) => Object.fromEntries(fn(id).parameters.map((p) => [p.name, p]));
    for (const id of ["DISTANCE", "EMISSIONS"]) {
      const p = params(id);
      for (const name of ["origin", "destination", "modality", "vesselInfo", "avoid", "via"])
        expect(p[name].dimensionality).toBe("matrix");
      expect(p.modality.customEnumId).toBe("Modality");
      expect(fn(id).options?.cancelable).toBe(true);
    }
    const emissions = params("EMISSIONS");
    for (const name of ["containerType", "fuelType", "per"])
      expect(emissions[name].dimensionality).toBe("matrix");
    expect([
      emissions.per.customEnumId,
      emissions.containerType.customEnumId,
      emissions.fuelType.customEnumId,
    ]).toEqual(["Per", "ContainerType", "FuelType"]);
    expect(params("DISTANCE").unit.customEnumId).toBe("DistanceUnit");
    expect(params("OPTIONS").sort.customEnumId).toBe("Sort");
    expect(fn("OPTIONS").options?.cancelable).toBe(true);
    expect(served.functions.map((f) => f.id)).toEqual(expect.arrayContaining(["PASSAGES", "LANE"]));
  });

  test("OPTIONS: one row per distinct routing, next departure and frequency, optional header", async () => {
    const [rows] = (await callAll(env.addin.page, [
      ["OPTIONS", "NLRTM", "DEDUI", null, null, null, 50, null, null, true, {}],
    ])) as unknown[][][];
    const search = (await api(
      "/route-optimizer/api/external?origin=NLRTM&originType=LOCODE&destination=DEDUI&destinationType=LOCODE"
    )) as unknown as { results: RouteOption[] };
    const routings = distinctRoutings(search.results);
    // The service answers one option per departure; the sheet shows each routing once.
    expect(routings.length).toBeLessThan(search.results.length);
    expect(rows[0]).toEqual(expect.arrayContaining(["Next departure", "kg CO2e per TEU"]));
    expect(rows.slice(1)).toEqual(optionRows(search.results, 50));
    expect(rows.length - 1).toBe(routings.length);
    const departures = rows.slice(1).map((r) => r[2] as number);
    expect(departures.reduce((a, b) => a + b, 0)).toBe(search.results.length);
    // Dates are Excel serials (days since 1899-12-30).
    for (const r of rows.slice(1)) expect(r[0]).toBeGreaterThan(45_000);
  });

  test("a key saved in the task pane is used by the functions (shared runtime)", async () => {
    const { page } = env.addin;
    const saveKey = async (value: string) => {
      await page.evaluate(() => (document.getElementById("status")!.textContent = ""));
      await page.fill("#api-key", value);
      await page.click("#save");
      // The pane writes "Saved…" once the settings store has the new key.
      await page.waitForFunction(() =>
        document.getElementById("status")?.textContent?.startsWith("Saved")
      );
      expect(await page.evaluate(() => localStorage.getItem("routeSheets.apiKey"))).toBe(value);
    };
    await saveKey("rs_not-a-real-key");
    const [bad] = (await distanceSheet(page, freshLanes(1))).cells;
    expect(bad).toEqual({ code: "#N/A", message: "Invalid API key: open the Route Sheets pane" });
    await saveKey(env.key);
    const lane = freshLanes(1);
    const [good] = (await distanceSheet(page, lane)).cells;
    expect(good).toEqual((await apiDistancesKm(env.server.url, env.referenceKey, lane))[0]);
  });

  test('server stopped: every cell settles quickly with "Service unavailable"', async () => {
    await env.server.stop();
    // Every cell settles (the test's own timeout bounds it), each with the unavailable error.
    const { cells } = await distanceSheet(env.addin.page, freshLanes(200));
    for (const cell of cells) expect(cell).toEqual(UNAVAILABLE);
    env.server = await startQuietServer(env.dataDir);
    env.proxy.upstream = env.server.url;
  });

  test("429 for a while: Retry-After is honoured and every cell gets its value", async () => {
    const batch = freshLanes(300);
    env.proxy.mode = "rate-limit";
    env.proxy.retryAfterSeconds = 1;
    const before = env.proxy.apiRequests;
    // The proxy refuses until it has answered two requests with 429 (not after a wall-clock time).
    const watch = setInterval(() => {
      if (env.proxy.apiRequests - before >= 2) env.proxy.mode = "pass";
    }, 5);
    const { cells } = await distanceSheet(env.addin.page, batch);
    clearInterval(watch);
    expect(env.proxy.mode).toBe("pass");
    expect(env.proxy.apiRequests - before).toBeGreaterThanOrEqual(3);
    expect(env.proxy.apiRequests - before).toBeLessThanOrEqual(8);
    expectCellsMatch(cells, await apiDistancesKm(env.server.url, env.referenceKey, batch));
  });

  test("slow service (3 s per answer): every cell gets its value", async () => {
    const batch = freshLanes(300);
    env.proxy.mode = "slow";
    env.proxy.slowMs = 3000;
    const before = env.proxy.apiRequests;
    const { cells } = await distanceSheet(env.addin.page, batch);
    env.proxy.mode = "pass";
    expect(env.proxy.apiRequests - before).toBeGreaterThanOrEqual(1);
    expectCellsMatch(cells, await apiDistancesKm(env.server.url, env.referenceKey, batch));
  });

  test("silent service: no cell stays #BUSY!, all settle by the 9 s deadline with the reason", async () => {
    const batch = freshLanes(100);
    env.proxy.mode = "stall";
    // The proxy never answers: every cell still settles (the client's deadline), unavailable.
    const { cells } = await distanceSheet(env.addin.page, batch);
    env.proxy.mode = "pass";
    for (const cell of cells)
      expect(cell).toEqual({
        code: "#N/A",
        message: expect.stringMatching(/^Service unavailable: no answer within \d s$/),
      });
    // And it recovers.
    expectCellsMatch(
      (await distanceSheet(env.addin.page, batch)).cells,
      await apiDistancesKm(env.server.url, env.referenceKey, batch)
    );
  });
});
