/**
 * The task pane in headless Debian Chromium at task-pane width (320 px), served over HTTPS by our
 * real server (route-sheets start --cert --key --public-url, a throwaway certificate) with the
 * in-Excel host simulated (Office.js stand-in, Excel.run recorded): keys entered, stored and
 * tested, the key's credits; the example formulas answered; a CNSHA → NLRTM search listed as
 * distinct routings of the API's options, expandable to their departures; no results explained;
 * tables inserted; the map and its caption; the page opened outside Office with the real Office.js
 * (@microsoft/office-js) and in an old runtime. Screenshots of each state go to test-output/taskpane/.
 */
import * as fs from "node:fs";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  createKey,
  OFFICE_STUB,
  ROOT,
  ServerProcess,
} from "../../src/bench/addin-harness";
import { distinctRoutings, DistinctRouting } from "../../src/client/distinct-routings";
import type { RouteOption } from "../../src/client/types";
import { ensureAddinAndCliBuilt } from "../addin/build-once";
import { execFileSync } from "node:child_process";
import { startHttpsPaneServer } from "./https-pane-server";

jest.setTimeout(300_000);

const hasChromium = fs.existsSync(CHROMIUM);
const describeBrowser = hasChromium ? describe : describe.skip;
const SHOTS = path.join(ROOT, "test-output", "taskpane");
/**
 * The pane's pictures in docs/ are rewritten only on request (`npm run docs:screenshots`), so a
 * test run leaves the checkout as it was; otherwise they go beside the other screenshots.
 */
const DOC_SHOTS = process.env.UPDATE_DOCS_SCREENSHOTS === "1" ? path.join(ROOT, "docs") : SHOTS;
/** The pane's first screen: 320 px wide, as tall as a task pane on a small laptop screen. */
const FIRST_SCREEN = 720;

/** Excel.run with a tiny workbook model that records every call the pane makes. */
const EXCEL_RECORDER = `
(function () {
  var calls = window.__excelCalls = [];
  var state = window.__workbook = { sheets: ['Sheet1'], tables: [], active: 'Sheet1', used: { Sheet1: { rowIndex: 0, rowCount: 4 } },
    selected: { sheet: 'Sheet1', row: 5, column: 2 }, occupied: null };
  // Office.context as a test sets it up (requirement sets, platform, theme) before the page loads.
  window.Office.context = {
    platform: 'PC',
    requirements: { isSetSupported: function (name) { return (window.__unsupportedSets || []).indexOf(name) < 0; } },
    get officeTheme() { return window.__officeTheme; },
    document: { addHandlerAsync: function () {} }
  };
  window.Office.EventType = { OfficeThemeChanged: 'officeThemeChanged' };
  function rec(c) { calls.push(c); }
  function sheet(name) {
    return {
      name: name,
      load: function (p) { rec(['sheet.load', name, p]); },
      getUsedRangeOrNullObject: function () {
        var u = state.used[name], f = (state.formulas || {})[name];
        return { isNullObject: !u && !f, rowIndex: f ? f.row : (u ? u.rowIndex : 0), columnIndex: f ? f.column : 0, rowCount: u ? u.rowCount : 0,
          formulas: f ? f.formulas : [], load: function (p) { rec(['used.load', name, p]); } };
      },
      getCell: function (r, c) {
        var f = state.formulas[name], key = r + ',' + c, spill = f.spills[key];
        var cell = { values: [[f.values[r - f.row][c - f.column]]], load: function () {},
          getSpillingToRangeOrNullObject: function () {
            var sp = spill ? { isNullObject: false, values: spill, load: function () {} } : { isNullObject: true, load: function () {} };
            return new Proxy(sp, { set: function (t, k, v) { rec(['write', name, key, 'spill', v]); t[k] = v; return true; } });
          } };
        return new Proxy(cell, { set: function (t, k, v) { rec(['write', name, key, 'cell', v]); t[k] = v; return true; } });
      },
      getRangeByIndexes: function (r, c, rc, cc) {
        var target = { args: [r, c, rc, cc], format: { autofitColumns: function () { rec(['autofit', name, [r, c, rc, cc]]); } },
          getUsedRangeOrNullObject: function () { rec(['area', name, [r, c, rc, cc]]); var o = state.occupied; return { isNullObject: !o, address: o ? name + '!' + o : '', load: function () {} }; } };
        rec(['range', name, [r, c, rc, cc]]);
        return new Proxy(target, { set: function (t, k, v) { rec(['range.' + String(k), name, [r, c, rc, cc], v]); t[k] = v; return true; } });
      },
      tables: { add: function (range, hasHeaders) {
        return new Proxy({}, { set: function (t, k, v) {
          if (k === 'name') { state.tables.push(v); rec(['table', name, v, range.args, hasHeaders]); }
          t[k] = v; return true;
        } });
      } },
      activate: function () { rec(['activate', name]); state.active = name; }
    };
  }
  window.Excel = {
    CalculationType: { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' },
    run: function (fn) {
      rec(['run']);
      var context = {
        workbook: {
          tables: { items: [], load: function (p) { rec(['tables.load', p]); this.items = state.tables.map(function (n) { return { name: n }; }); } },
          worksheets: {
            items: [],
            load: function (p) { rec(['worksheets.load', p]); this.items = state.sheets.map(function (n) { return sheet(n); }); },
            add: function (n) { rec(['worksheets.add', n]); state.sheets.push(n); state.used[n] = null; return sheet(n); },
            getActiveWorksheet: function () { return sheet(state.active); },
            getItem: function (n) { return sheet(n); }
          },
          getSelectedRange: function () {
            var sel = state.selected;
            return { rowIndex: sel.row, columnIndex: sel.column, worksheet: sheet(sel.sheet), load: function (p) { rec(['selected.load', p]); } };
          },
          application: { calculate: function (t) { rec(['calculate', t]); } }
        },
        sync: function () { rec(['sync']); return Promise.resolve(); }
      };
      return Promise.resolve().then(function () { return fn(context); });
    }
  };
})();
`;

type Call = [string, ...unknown[]];

describeBrowser("task pane in Chromium against the real server", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  const keys: Record<"good" | "plain" | "inactive", string> = { good: "", plain: "", inactive: "" };

  const shot = async (name: string, p: Page = page) => {
    await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  };

  /** The page's origin: the server's --public-url (HTTPS, its throwaway certificate). */
  let origin = "";
  let ca: Buffer;

  /** A GET to the server from Node, trusting the throwaway certificate. */
  const api = (pathAndQuery: string, key: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      https
        .get(`${origin}${pathAndQuery}`, { ca, headers: { "x-api-key": key } }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on("error", reject);
    });

  /** Files of @microsoft/office-js the pages asked for (outside Office: the real Office.js). */
  const officeJsServed: string[] = [];
  const OFFICE_JS = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");

  async function openPane(
    office: "excel" | "none",
    before?: (p: Page) => Promise<void>
  ): Promise<Page> {
    // The certificate is the test's own: the browser is told to accept it.
    const context = await browser.newContext({
      viewport: { width: 320, height: 900 },
      ignoreHTTPSErrors: true,
    });
    const p = await context.newPage();
    await p.route("https://appsforoffice.microsoft.com/lib/1/hosted/**", (route) => {
      if (office === "excel")
        return route.fulfill({
          status: 200,
          contentType: "application/javascript",
          body: OFFICE_STUB + EXCEL_RECORDER,
        });
      // Outside Office: Microsoft's Office.js itself, from the npm package instead of its CDN.
      const rel = new URL(route.request().url()).pathname.replace("/lib/1/hosted/", "");
      const file = path.join(OFFICE_JS, rel);
      if (!file.startsWith(OFFICE_JS + path.sep) || !fs.existsSync(file))
        return route.fulfill({ status: 404, body: "" });
      officeJsServed.push(rel);
      return route.fulfill({
        status: 200,
        contentType: "application/javascript",
        body: fs.readFileSync(file),
      });
    });
    if (before) await before(p);
    await p.goto(`${origin}/taskpane.html`);
    return p;
  }

  beforeAll(async () => {
    ensureAddinAndCliBuilt();
    fs.mkdirSync(SHOTS, { recursive: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-pane-"));
    keys.good = await createKey(dataDir, 1000, ["--optimizer", "--optimizer-credits", "100"]);
    keys.plain = await createKey(dataDir, 1000);
    keys.inactive = await createKey(dataDir, 1000, ["--optimizer", "--optimizer-credits", "100"]);
    execFileSync(
      process.execPath,
      [
        path.join(ROOT, "bin/route-sheets.js"),
        "keys",
        "deactivate",
        "--data-dir",
        dataDir,
        keys.inactive,
      ],
      { stdio: "pipe" }
    );
    ({ server, origin, ca } = await startHttpsPaneServer(dataDir));
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await openPane("excel");
    await page.waitForSelector("body[data-ready=true]");
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('the pane starts inside "Excel" over HTTPS with the connection form, no banner, and what to type in a cell', async () => {
    expect(server.url).toMatch(/^https:/);
    expect(await page.getAttribute("body", "data-host")).toBe("excel");
    expect(await page.isHidden("#host-banner")).toBe(true);
    expect(await page.inputValue("#base-url")).toBe(origin);
    expect(await page.getAttribute("#api-key", "type")).toBe("password");
    expect(await page.$$eval("#examples code", (cs) => cs.map((c) => c.textContent))).toEqual([
      '=ROUTE.DISTANCE("CNSHA", "NLRTM")',
      '=ROUTE.EMISSIONS("CNSHA", "NLRTM")',
      '=ROUTE.PASSAGES("CNSHA", "NLRTM")',
    ]);
    // No key yet: no balances, and the card says what to do.
    expect(await page.isHidden("#account")).toBe(true);
    expect(await page.textContent("#account-status")).toBe(
      "Enter your API key and press Save to see its credits."
    );
    await shot("01-start");
  });

  test("the manifest this server hands out is its own add-in: the Id kept in its database, the version of this build", async () => {
    const xml = await page.evaluate(async () => (await fetch("/manifest.xml")).text());
    const id = /<Id>([^<]+)<\/Id>/.exec(xml)![1];
    const version = /<Version>([^<]+)<\/Version>/.exec(xml)![1];
    // The identity lives in the deployment's database (every instance serves the same add-in).
    const db = new Database(path.join(dataDir, "service.db"), { readonly: true });
    try {
      const kept = db.prepare("SELECT addin_id FROM addin_identity").get() as { addin_id: string };
      expect(id).toBe(kept.addin_id);
      const builds = db.prepare("SELECT build FROM addin_builds").all() as Array<{ build: number }>;
      expect(builds.map((b) => `0.1.0.${b.build}`)).toContain(version);
    } finally {
      db.close();
    }
    const repository = fs.readFileSync(path.join(ROOT, "manifest.xml"), "utf8");
    expect(id).not.toBe(/<Id>([^<]+)<\/Id>/.exec(repository)![1]);
    // What start saved for sideloading is what it serves.
    expect(fs.readFileSync(path.join(dataDir, "manifest.xml"), "utf8")).toBe(xml);
  });

  test("enter a key → stored in OfficeRuntime.storage (routeSheets.apiKey), shown on demand", async () => {
    await page.fill("#api-key", keys.good);
    await page.click("#toggle-key");
    expect(await page.getAttribute("#api-key", "type")).toBe("text");
    expect(await page.getAttribute("#toggle-key", "aria-pressed")).toBe("true");
    await page.click("#toggle-key");
    expect(await page.getAttribute("#api-key", "type")).toBe("password");
    await page.click("#save");
    await page.waitForFunction(() =>
      document.getElementById("status")?.textContent?.startsWith("Saved")
    );
    // The stub's OfficeRuntime.storage writes through to localStorage, so this reads the Office storage.
    expect(await page.evaluate(() => localStorage.getItem("routeSheets.apiKey"))).toBe(keys.good);
    // Saved, then the workbook recalculated in full, so ROUTE cells use the new key at once.
    await page.waitForFunction(() =>
      /recalculated/.test(document.getElementById("status")?.textContent ?? "")
    );
    expect(await page.textContent("#status")).toBe(
      "Saved. The workbook was recalculated, so ROUTE cells use it now."
    );
    expect(
      await page.evaluate(() => (window as unknown as { __excelCalls: Call[] }).__excelCalls)
    ).toContainEqual(["calculate", "Full"]);
    // The key's balances in both pools, as GET /account reports them.
    await page.waitForSelector("#account:not([hidden])");
    const account = JSON.parse((await api("/account", keys.good)).body) as {
      credits: { routeInformation: number; routeOptimizer: number };
    };
    expect(await page.textContent("#credits-information")).toBe(
      account.credits.routeInformation.toLocaleString("en-US")
    );
    expect(await page.textContent("#credits-optimizer")).toBe(
      account.credits.routeOptimizer.toLocaleString("en-US")
    );
    expect(account.credits.routeOptimizer).toBe(100);
    await shot("02-saved");
  });

  test("save where Excel cannot recalculate from the pane: the shortcut of this platform instead", async () => {
    const saveWith = async (platform: string) => {
      await page.evaluate((p) => {
        const w = window as unknown as {
          __excelCalls: unknown[];
          __unsupportedSets: string[];
          Office: { context: { platform: string } };
        };
        w.__excelCalls.length = 0;
        w.__unsupportedSets = ["ExcelApi"];
        w.Office.context.platform = p;
      }, platform);
      await page.click("#save");
      await page.waitForFunction(() =>
        /To refresh the ROUTE cells/.test(document.getElementById("status")?.textContent ?? "")
      );
      const calls = (await page.evaluate(
        () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
      )) as Call[];
      expect(calls.filter((c) => c[0] === "calculate")).toEqual([]);
      return page.textContent("#status");
    };
    expect(await saveWith("PC")).toMatch(
      /^Saved\. To refresh the ROUTE cells, press Ctrl\+Alt\+F9/
    );
    expect(await saveWith("Mac")).toMatch(/Formulas → Calculate Now/);
    expect(await saveWith("OfficeOnline")).toMatch(
      /Formulas → Calculation Options → Calculate Workbook/
    );
    await page.evaluate(() => {
      const w = window as unknown as {
        __unsupportedSets: string[];
        Office: { context: { platform: string } };
      };
      w.__unsupportedSets = [];
      w.Office.context.platform = "PC";
    });
  });

  test("the three example formulas work against this server", async () => {
    const meta = JSON.parse((await api("/functions.json", keys.good)).body) as {
      functions: Array<{ id: string; parameters: Array<{ dimensionality?: string }> }>;
    };
    const formulas = await page.$$eval("#examples code", (cs) => cs.map((c) => c.textContent!));
    const answers: unknown[] = [];
    for (const formula of formulas) {
      const m = /^=ROUTE\.([A-Z]+)\((.*)\)$/.exec(formula)!;
      const fn = meta.functions.find((f) => f.id === m[1])!;
      const given = [...m[2].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
      // As Excel calls it: every declared parameter (matrix ones as 1×1 ranges), then the invocation.
      const args = fn.parameters.map((p, i) =>
        i < given.length ? (p.dimensionality === "matrix" ? [[given[i]]] : given[i]) : null
      );
      answers.push(
        await page.evaluate(
          async ({ id, args }) => {
            const f = (window as unknown as { __routeFunctions: Record<string, Function> })
              .__routeFunctions[id];
            const v = await f(...args, { isInValuePreview: false });
            return Array.isArray(v) ? v[0][0] : v;
          },
          { id: m[1], args }
        )
      );
    }
    const distance = JSON.parse(
      (
        await api(
          "/route-information/api/distance?origin=CNSHA&destination=NLRTM&modality=DEEPSEA",
          keys.good
        )
      ).body
    ) as { distance: number };
    // The functions round km to 0.1, the precision the data has.
    expect(answers[0]).toBe(Math.round(distance.distance / 100) / 10);
    expect(typeof answers[1]).toBe("number");
    expect(answers[1] as number).toBeGreaterThan(100);
    expect(answers[2]).toMatch(/SUEZ/);
  });

  const testConnection = async (key: string) => {
    await page.fill("#api-key", key);
    await page.click("#test-connection");
    await page.waitForFunction(() => {
      const s = document.getElementById("status");
      return s && s.dataset.state !== "busy" && !!s.textContent;
    });
    const status = await page.textContent("#status");
    const checks = await page.$$eval("#connection-checks li", (lis) =>
      lis.map((li) => [li.getAttribute("data-check"), li.className.replace("check check-", "")])
    );
    return { status, checks };
  };

  test("test connection: good key", async () => {
    const r = await testConnection(keys.good);
    expect(r.status).toBe("Connected: everything works.");
    expect(r.checks).toEqual([
      ["service", "ok"],
      ["key", "ok"],
      ["credits", "ok"],
      ["optimizer", "ok"],
      ["optimizerCredits", "ok"],
    ]);
    await shot("03-connection-good");
  });

  test("test connection: bad key, inactive account, no optimizer access", async () => {
    const bad = await testConnection("rs_not-a-real-key");
    expect(bad.status).toMatch(/^The API key is not valid/);
    expect(bad.checks.slice(0, 2)).toEqual([
      ["service", "ok"],
      ["key", "fail"],
    ]);
    await shot("04-connection-bad-key");

    const inactive = await testConnection(keys.inactive);
    expect(inactive.status).toMatch(/account of this API key is inactive/);
    await shot("05-connection-inactive");

    const plain = await testConnection(keys.plain);
    expect(plain.status).toMatch(/^No route-optimizer access/);
    expect(plain.checks.map((c) => c[1])).toEqual(["ok", "ok", "ok", "fail", "skip"]);
    // The card shows the tested key's balances.
    await page.waitForFunction(() =>
      /no route-optimizer access/.test(
        document.getElementById("credits-optimizer")?.textContent ?? ""
      )
    );
    await shot("06-connection-no-optimizer");
    // Testing does not save: the stored key is still the good one.
    expect(await page.evaluate(() => localStorage.getItem("routeSheets.apiKey"))).toBe(keys.good);
    // Saving clears the checks of the earlier test: they describe another key.
    await page.fill("#api-key", keys.good);
    expect(await page.$$eval("#connection-checks li", (lis) => lis.length)).toBe(5);
    await page.click("#save");
    await page.waitForFunction(() =>
      document.getElementById("status")?.textContent?.startsWith("Saved")
    );
    expect(await page.$$eval("#connection-checks li", (lis) => lis.length)).toBe(0);
  });

  test("terminal suggestions while typing the origin", async () => {
    await page.click("#tab-search");
    await page.fill("#origin", "NLRTM");
    await page.waitForFunction(
      () => Number(document.getElementById("origin-suggestions")?.dataset.count) > 1
    );
    const options = await page.$$eval("#origin-suggestions option", (os) =>
      os.map((o) => [(o as HTMLOptionElement).value, o.textContent])
    );
    for (const [id, label] of options) {
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(label).toMatch(/\(NLRTM\)$/);
    }
    expect(await page.textContent("#origin-type")).toBe("LOCODE");
    await page.fill("#origin", options[0][0]!);
    expect(await page.textContent("#origin-type")).toBe(`TERMINAL · ${options[0][1]}`);
  });

  test("field errors show next to their fields: typed mistakes and the service's own", async () => {
    // Names are looked up (Shanghai is a place); malformed coordinates are not.
    await page.fill("#origin", "1,2,3");
    await page.fill("#destination", "");
    await page.click("#search");
    await page.waitForFunction(() => !!document.getElementById("origin-error")?.textContent);
    // Messages name the fields as labelled (From, To).
    expect(await page.textContent("#origin-error")).toMatch(/^From "1,2,3": with decimal commas/);
    expect(await page.textContent("#destination-error")).toMatch(/^To is required/);
    expect(await page.getAttribute("#origin", "aria-invalid")).toBe("true");
    await shot("07-search-field-errors");

    // 7 required LOCODEs pass the pane's checks; the service allows 6 and names the parameter.
    await page.fill("#origin", "CNSHA");
    await page.fill("#destination", "NLRTM");
    await page.click("#more-filters summary");
    await page.fill("#allRequiredLocodes", "SGSIN,LKCMB,EGPSD,ESALG,MAPTM,BEANR,DEHAM");
    await page.click("#search");
    await page.waitForFunction(
      () => !!document.getElementById("allRequiredLocodes-error")?.textContent
    );
    // The service's words, with the parameter named as the field is labelled.
    expect(await page.textContent("#allRequiredLocodes-error")).toMatch(
      /^Must call at all of holds at most 6 items/
    );
    expect(await page.textContent("#search-status")).toBe(
      "The service refused Must call at all of: see the marked field."
    );
    await shot("08-search-service-field-error");
    await page.fill("#allRequiredLocodes", "");
    await page.click("#more-filters summary");
  });

  let apiOptions: RouteOption[] = [];
  let routings: DistinctRouting[] = [];
  test("search CNSHA → NLRTM: results first, the API's options as distinct routings, expandable to their departures", async () => {
    const today = new Date().toISOString().slice(0, 10);
    await page.fill("#origin", "CNSHA");
    await page.fill("#destination", "NLRTM");
    await page.fill("#minDeparture", today);
    await page.click("#search");
    await page.waitForFunction(
      () =>
        document.getElementById("search-status")?.dataset.state !== "busy" &&
        !!document.getElementById("search-status")?.textContent
    );
    const q = new URLSearchParams({
      destination: "NLRTM",
      destinationType: "LOCODE",
      minDeparture: today,
      origin: "CNSHA",
      originType: "LOCODE",
      sort: "LEAD_TIME",
    });
    const res = await api(`/route-optimizer/api/external?${q}`, keys.good);
    expect(res.status).toBe(200);
    apiOptions = (JSON.parse(res.body) as { results: RouteOption[] }).results;
    routings = distinctRoutings(apiOptions);
    expect(apiOptions.length).toBeGreaterThan(0);
    // Weekly services come back once per departure: fewer routings than options, none lost.
    expect(routings.length).toBeLessThan(apiOptions.length);
    expect(routings.reduce((n, r) => n + r.departures.length, 0)).toBe(apiOptions.length);
    for (const r of routings)
      for (const d of r.departures)
        expect(d.legs.map((l) => `${l.origin}>${l.destination}`)).toEqual(
          r.next.legs.map((l) => `${l.origin}>${l.destination}`)
        );
    expect(await page.textContent("#search-status")).toBe(
      `${routings.length} distinct routings (${apiOptions.length} departures) found.`
    );
    // Results first: the form folds into a summary line.
    expect(await page.isHidden("#search-form")).toBe(true);
    expect(await page.textContent("#search-summary-text")).toBe(
      `CNSHA → NLRTM · ${routings.length} routings (${apiOptions.length} departures)`
    );
    let listed = await page.$$eval("#results-list button.option", (bs) =>
      bs.map((b) => b.textContent)
    );
    expect(listed.length).toBe(Math.min(8, routings.length));
    await page.locator("#results").screenshot({ path: path.join(SHOTS, "09-results.png") });
    while (await page.isVisible("#more-results")) await page.click("#more-results");
    listed = await page.$$eval("#results-list button.option", (bs) => bs.map((b) => b.textContent));
    expect(listed.length).toBe(routings.length);
    const first = routings[0].next;
    const days = Math.round((first.leadTimeInMinutes / 1440) * 10) / 10;
    expect(listed[0]).toContain(`Routing 1${days} day`);
    expect(listed[0]).toContain("CO2e per TEU");
    expect(listed[0]).toContain(
      [first.legs[0].origin, ...first.legs.map((l) => l.destination)].join(" → ")
    );
    expect(listed[0]).toContain(routings[0].frequency);
    expect(await page.getAttribute("#results-list button.option >> nth=0", "aria-pressed")).toBe(
      "true"
    );
    const legItems = await page.$$eval("#option-legs .leg-item strong", (els) =>
      els.map((e) => e.textContent)
    );
    expect(legItems).toEqual(first.legs.map((l) => `${l.origin} → ${l.destination}`));

    // A routing that sails more than once expands to its departures; picking one shows its legs.
    const r = routings.findIndex((x) => x.departures.length > 1);
    expect(r).toBeGreaterThanOrEqual(0);
    const item = page.locator(`#results-list li.routing[data-routing="${r}"]`);
    await item.locator("button.departures-toggle").click();
    expect(await item.locator("button.departures-toggle").getAttribute("aria-expanded")).toBe(
      "true"
    );
    expect(await item.locator("button.departure").count()).toBe(routings[r].departures.length);
    await item.locator("button.departure >> nth=1").click();
    expect(await page.textContent("#option-detail h3")).toBe(
      `Routing ${r + 1}, departure 2 of ${routings[r].departures.length}`
    );
    const dates = await page.$$eval("#option-legs .leg-item .muted", (els) =>
      els.map((e) => e.textContent)
    );
    expect(dates[0]).toContain(routings[r].departures[1].legs[0].departureDate.slice(0, 10));
    await item.screenshot({ path: path.join(SHOTS, "09b-departures.png") });
    await page.click("#results-list button.option >> nth=0");
    expect(await page.textContent("#option-detail h3")).toMatch(/^Routing 1(,|$)/);
  });

  test("no results: says why, naming only the filters set, not in the success colour", async () => {
    await page.click("#edit-search");
    expect(await page.isVisible("#search-form")).toBe(true);
    await page.click("#more-filters summary");
    await page.fill("#maxLeadTime", "1");
    await page.click("#search");
    await page.waitForFunction(
      () => document.getElementById("search-status")?.dataset.state === "empty"
    );
    const text = await page.textContent("#search-status");
    expect(text).toMatch(
      /^No route options from CNSHA to NLRTM departing .+ with lead time at most 1 day: /
    );
    expect(text).not.toMatch(/transfers|modalities|operators|CO2e|trucking/);
    const colour = await page.$eval("#search-status", (e) => getComputedStyle(e).color);
    expect(colour).not.toBe("rgb(16, 124, 16)");
    expect(await page.isHidden("#results")).toBe(true);
    expect(await page.isVisible("#search-form")).toBe(true);
    await shot("08b-no-results");

    // No filter set and no sailing in the window: the reason is the schedules, no filter suggested.
    await page.fill("#maxLeadTime", "");
    await page.click("#more-filters summary");
    const far = new Date(Date.now() + 3 * 365 * 86_400_000).toISOString().slice(0, 10);
    await page.fill("#minDeparture", far);
    await page.click("#search");
    await page.waitForFunction(
      (d) => (document.getElementById("search-status")?.textContent ?? "").includes(d),
      far
    );
    expect(await page.getAttribute("#search-status", "data-state")).toBe("empty");
    expect(await page.textContent("#search-status")).toBe(
      `No route options from CNSHA to NLRTM departing from ${far} (in the service's default window): no scheduled service connects these places in that window.`
    );

    // Back to the first search for the tests below.
    await page.fill("#minDeparture", new Date().toISOString().slice(0, 10));
    await page.click("#search");
    await page.waitForFunction(
      () => document.getElementById("search-status")?.dataset.state === "ok"
    );
    await page.waitForSelector("#map[data-paths=done]");
  });

  test("the map draws the legs of the selected option along their routed paths, coloured by modality, with ports marked", async () => {
    const first = routings[0].next;
    await page.waitForSelector("#map[data-paths=done]");
    const legs = await page.$$eval("#map svg path.leg", (ps) =>
      ps.map((p) => [
        p.getAttribute("data-modality"),
        p.getAttribute("stroke"),
        (p.getAttribute("d") ?? "").length,
        p.getAttribute("data-routed"),
        (p.getAttribute("d") ?? "").split(/[ML]/).length - 1,
      ])
    );
    expect(legs.map((l) => l[0])).toEqual(first.legs.map((l) => l.modality));
    for (const l of legs) expect(l[2]).toBeGreaterThan(20);
    // Every non-truck leg follows the path the service routed (/path extension); trucking stays an arc.
    expect(legs.map((l) => l[3] === "true")).toEqual(first.legs.map((l) => l.modality !== "TRUCK"));
    expect(await page.getAttribute("#map", "data-routed-legs")).toBe(
      String(first.legs.filter((l) => l.modality !== "TRUCK").length)
    );
    // The caption names which legs follow a routed path and which are drawn straight.
    const note = (await page.textContent("#map .map-note"))!;
    const name = (l: RouteOption["legs"][number]) =>
      `${l.origin} → ${l.destination} (${l.modality.toLowerCase()})`;
    const [routedPart, straightPart = ""] = note.split("Drawn straight");
    expect(routedPart).toMatch(/^Lines follow the routed paths the distances are computed on: /);
    for (const l of first.legs)
      expect(l.modality === "TRUCK" ? straightPart : routedPart).toContain(name(l));
    expect(await page.getAttribute("#map figcaption", "aria-busy")).toBeNull();
    // The sea leg into Rotterdam is drawn along the service's path, which goes through Suez (see 10-map.png).
    const sea = first.legs.findIndex((l) => l.destination === "NLRTM" && l.modality === "DEEPSEA");
    expect(sea).toBeGreaterThanOrEqual(0);
    const suez = await api(
      `/route-information/api/path?origin=${first.legs[sea].origin}&destination=NLRTM&modality=DEEPSEA`,
      keys.good
    );
    const feature = JSON.parse(suez.body);
    expect(feature.properties.passages).toContain("SUEZ");
    expect(
      feature.geometry.coordinates.some(
        ([lng, lat]: [number, number]) => Math.hypot(lng - 32.5, lat - 30) <= 1
      )
    ).toBe(true);
    // Drawn through every one of those points (the projection may add some), not as a ~30-vertex arc.
    expect(legs[sea][4] as number).toBeGreaterThanOrEqual(feature.geometry.coordinates.length);
    const ports = await page.$$eval("#map svg g.port", (gs) =>
      gs.map((g) => g.getAttribute("data-place"))
    );
    expect(ports).toEqual([
      ...new Set([first.legs[0].origin, ...first.legs.map((l) => l.destination)]),
    ]);
    expect(
      await page.$eval("#map svg path.land", (p) => (p.getAttribute("d") ?? "").length)
    ).toBeGreaterThan(2000);
    await page.locator("#map").scrollIntoViewIfNeeded();
    await page.locator("#map").screenshot({ path: path.join(SHOTS, "10-map.png") });

    // Arrow keys move the selection; the map follows.
    if (routings.length > 1) {
      await page.focus("#results-list button.option >> nth=0");
      await page.keyboard.press("ArrowDown");
      expect(await page.getAttribute("#results-list button.option >> nth=1", "aria-pressed")).toBe(
        "true"
      );
      const second = await page.$$eval("#map svg path.leg", (ps) => ps.length);
      expect(second).toBe(routings[1].next.legs.length);
      await page.keyboard.press("ArrowUp");
    }
  });

  test("results first at 320 px: the chosen routing's details, its map and Insert within the first screen", async () => {
    await page.setViewportSize({ width: 320, height: FIRST_SCREEN });
    await page.click("#results-list button.option >> nth=0");
    await page.waitForSelector("#map[data-paths=done]");
    await page.evaluate(() => window.scrollTo(0, 0));
    const box = (selector: string) =>
      page.$eval(selector, (e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, width: r.width };
      });
    const heading = await box("#option-detail h3");
    const facts = await box("#option-detail dl.facts");
    const map = await box("#map svg");
    const insert = await box("#insert");
    for (const b of [heading, facts, map, insert]) {
      expect(b.top).toBeGreaterThanOrEqual(0);
      expect(b.bottom).toBeLessThanOrEqual(FIRST_SCREEN);
    }
    // In reading order: the routing, its facts, its map, then Insert; the list of routings after.
    expect(heading.bottom).toBeLessThanOrEqual(facts.top);
    expect(facts.bottom).toBeLessThanOrEqual(map.top);
    expect(map.bottom).toBeLessThanOrEqual(insert.top);
    expect((await box("#results-list")).top).toBeGreaterThan(insert.bottom);
    // The map uses the pane's width (320 px less the padding), not a thumbnail.
    expect(map.width).toBeGreaterThanOrEqual(280);
    // The chosen routing's details: its route, lead time and CO2e as the API gave them.
    const first = routings[0].next;
    const factsText = await page.textContent("#option-detail dl.facts");
    expect(factsText).toContain(
      [first.legs[0].origin, ...first.legs.map((l) => l.destination)].join(" → ")
    );
    expect(factsText).toContain("CO2e per TEU");
    expect(await page.getAttribute("html", "data-theme")).toBe("light");
    await page.screenshot({ path: path.join(DOC_SHOTS, "taskpane-light.png") });

    // Office in a dark theme (its body background), the system dark too: the pane goes dark.
    await page.evaluate(() => {
      (window as unknown as { __officeTheme: unknown }).__officeTheme = {
        bodyBackgroundColor: "#262626",
        bodyForegroundColor: "#ffffff",
      };
    });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    const dark = await page.evaluate(() => ({
      body: getComputedStyle(document.body).backgroundColor,
      text: getComputedStyle(document.body).color,
      ocean: getComputedStyle(document.querySelector("#map svg .ocean")!).fill,
    }));
    expect(dark).toEqual({
      body: "rgb(41, 41, 41)",
      text: "rgb(255, 255, 255)",
      ocean: "rgb(27, 42, 58)",
    });
    await page.screenshot({ path: path.join(DOC_SHOTS, "taskpane-dark.png") });

    // Office's theme wins over the system's: a light Office on a dark system stays light.
    await page.evaluate(() => {
      (window as unknown as { __officeTheme: unknown }).__officeTheme = {
        bodyBackgroundColor: "#ffffff",
      };
    });
    await page.emulateMedia({ colorScheme: "light" });
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    // The system goes dark again; Office still says light: the pane stays light.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => matchMedia("(prefers-color-scheme: dark)").matches);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    expect(await page.getAttribute("html", "data-theme")).toBe("light");
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgb(255, 255, 255)"
    );
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 320, height: 900 });
  });

  test("insert: each table on a sheet of its own; again at the selected cell (legs on their own sheet); never over data", async () => {
    await page.evaluate(
      () => ((window as unknown as { __excelCalls: unknown[] }).__excelCalls.length = 0)
    );
    await page.click("#insert");
    await page.waitForFunction(
      () => document.getElementById("insert-status")?.dataset.state === "ok"
    );
    const calls = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    const legCount = apiOptions.reduce((n, o) => n + o.legs.length, 0);
    expect(calls.filter((c) => c[0] === "worksheets.add")).toEqual([
      ["worksheets.add", "Route options"],
      ["worksheets.add", "Route legs"],
    ]);
    // Both at A1 of their own sheets: each grows by rows without meeting the other.
    expect(calls.filter((c) => c[0] === "table")).toEqual([
      ["table", "Route options", "RouteOptions1", [0, 0, apiOptions.length + 1, 19], true],
      ["table", "Route legs", "RouteLegs1", [0, 0, legCount + 1, 18], true],
    ]);
    expect(calls.filter((c) => c[0] === "activate")).toEqual([["activate", "Route options"]]);
    const values = calls.filter((c) => c[0] === "range.values").map((c) => c[3] as unknown[][]);
    expect(values[0][0]).toContain("Lead time (days)");
    const leadCol = (values[0][0] as string[]).indexOf("Lead time (days)");
    const idCol = (values[0][0] as string[]).indexOf("Option id");
    expect(values[0].slice(1).map((r) => r[idCol])).toEqual(apiOptions.map((o) => o.id));
    expect(values[0][1][leadCol]).toBeCloseTo(apiOptions[0].leadTimeInMinutes / 1440, 10);
    const depCol = (values[0][0] as string[]).indexOf("Departure (UTC)");
    expect(values[0][1][depCol]).toBeCloseTo(
      Date.parse(apiOptions[0].legs[0].departureDate) / 86_400_000 + 25569,
      8
    );
    expect(values[1].length).toBe(legCount + 1);
    const formats = calls
      .filter((c) => c[0] === "range.numberFormat")
      .map((c) => c[3] as string[][]);
    expect(formats[0][1][depCol]).toBe("yyyy-mm-dd hh:mm");
    expect(formats[0][1][leadCol]).toBe("0.0");
    expect(await page.textContent("#insert-status")).toBe(
      `Inserted RouteOptions1 (${apiOptions.length} options, "Route options" A1:S${apiOptions.length + 1}) and RouteLegs1 (${legCount} legs, "Route legs" A1:R${legCount + 1}).`
    );
    await page.locator(".insert-bar").screenshot({ path: path.join(SHOTS, "11-inserted.png") });

    // At the selected cell (Sheet1!C6): the options there, the legs on a new sheet of their own.
    await page.selectOption("#insert-target", "cell");
    await page.evaluate(
      () => ((window as unknown as { __excelCalls: unknown[] }).__excelCalls.length = 0)
    );
    await page.click("#insert");
    await page.waitForFunction(() =>
      /RouteOptions2/.test(document.getElementById("insert-status")?.textContent ?? "")
    );
    const again = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    expect(again.filter((c) => c[0] === "worksheets.add")).toEqual([
      ["worksheets.add", "Route legs (2)"],
    ]);
    expect(again.filter((c) => c[0] === "area")).toEqual([
      ["area", "Sheet1", [5, 2, apiOptions.length + 1, 19]],
    ]);
    expect(again.filter((c) => c[0] === "table").map((c) => [c[1], c[2], c[3]])).toEqual([
      ["Sheet1", "RouteOptions2", [5, 2, apiOptions.length + 1, 19]],
      ["Route legs (2)", "RouteLegs2", [0, 0, legCount + 1, 18]],
    ]);
    expect(await page.textContent("#insert-status")).toMatch(
      new RegExp(
        `^Inserted RouteOptions2 \\(${apiOptions.length} options, "Sheet1" C6:U${apiOptions.length + 6}\\)`
      )
    );

    // Data in the way: nothing written, the reason said.
    await page.evaluate(() => {
      const w = window as unknown as { __excelCalls: unknown[]; __workbook: { occupied: string } };
      w.__excelCalls.length = 0;
      w.__workbook.occupied = "D9";
    });
    await page.click("#insert");
    await page.waitForFunction(
      () => document.getElementById("insert-status")?.dataset.state === "error"
    );
    expect(await page.textContent("#insert-status")).toMatch(
      /^Could not insert: The options table needs C6:U\d+ on "Sheet1" empty, but D9 holds data/
    );
    const refused = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    expect(refused.filter((c) => c[0] === "table" || c[0] === "worksheets.add")).toEqual([]);
    await page.evaluate(() => {
      (window as unknown as { __workbook: { occupied: null } }).__workbook.occupied = null;
    });
    await page.selectOption("#insert-target", "sheets");
  });

  test("multimodal and trans-Pacific maps: one colour per modality, the Pacific in the middle", async () => {
    for (const [destination, name] of [
      ["DEDUI", "10b-map-multimodal"],
      ["USLAX", "10c-map-transpacific"],
    ] as const) {
      await page.click("#edit-search");
      await page.fill("#destination", destination);
      await page.click("#search");
      await page.waitForFunction(
        (d) =>
          document
            .querySelector("#option-legs .leg-item:last-child strong")
            ?.textContent?.endsWith(d),
        destination
      );
      await page.waitForSelector("#map[data-paths=done]");
      const chosen = await page.$$eval("#option-legs .leg-item", (items) =>
        items.map((i) => i.getAttribute("data-modality"))
      );
      const drawn = await page.$$eval("#map svg path.leg", (ps) =>
        ps.map((p) => [p.getAttribute("data-modality"), p.getAttribute("stroke")])
      );
      expect(drawn.map((d) => d[0])).toEqual(chosen);
      const colours = new Map(drawn.map(([m, c]) => [m, c]));
      expect(new Set(colours.values()).size).toBe(colours.size);
      expect(
        await page.$$eval("#map .map-legend li", (lis) => lis.map((li) => li.textContent))
      ).toEqual([...new Set(chosen)]);
      await page.locator("#map").scrollIntoViewIfNeeded();
      await page.locator("#map").screenshot({ path: path.join(SHOTS, `${name}.png`) });
      if (destination === "USLAX") {
        // Shanghai left of Los Angeles on a map centred on the Pacific (not split at the antimeridian).
        const x = await page.$$eval("#map svg g.port circle", (cs) =>
          cs.map(
            (c) =>
              [c.parentElement!.getAttribute("data-place"), Number(c.getAttribute("cx"))] as [
                string,
                number,
              ]
          )
        );
        const at = Object.fromEntries(x);
        expect(at.CNSHA).toBeLessThan(at.USLAX);
      }
    }
    await page.click("#edit-search");
    await page.fill("#destination", "NLRTM");
  });

  test("keyboard: arrow keys switch tabs", async () => {
    await page.focus("#tab-search");
    await page.keyboard.press("ArrowLeft");
    expect(await page.getAttribute("#tab-connection", "aria-selected")).toBe("true");
    expect(await page.isVisible("#panel-connection")).toBe(true);
    expect(await page.isHidden("#panel-search")).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("tab-connection");
    await page.keyboard.press("ArrowRight");
    expect(await page.isVisible("#panel-search")).toBe(true);
  });

  test("freeze as values: every ROUTE formula (a spill as a whole) becomes its value, other formulas stay, after a confirmation", async () => {
    await page.click("#tab-connection");
    await page.evaluate(() => {
      const w = window as unknown as {
        __excelCalls: unknown[];
        __workbook: Record<string, unknown>;
      };
      w.__excelCalls.length = 0;
      w.__workbook.formulas = {
        Sheet1: {
          row: 1,
          column: 0,
          formulas: [
            ["Lane", "=ROUTE.DISTANCE(A3,B3)", "=SUM(1,2)"],
            ["x", '="ROUTE.DISTANCE("', '=ROUTE.OPTIONS("CNSHA","NLRTM")'],
          ],
          values: [
            ["Lane", 19338.4, 3],
            ["x", "ROUTE.DISTANCE(", "Option id"],
          ],
          spills: {
            "2,2": [
              ["Option id", "Lead time (days)"],
              ["a1", 29.7],
            ],
          },
        },
      };
    });
    await page.click("#freeze");
    // The first click only asks.
    expect(await page.textContent("#freeze")).toBe("Yes, freeze every ROUTE formula");
    expect(await page.isVisible("#freeze-cancel")).toBe(true);
    let calls = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    expect(calls.filter((c) => c[0] === "write")).toEqual([]);
    await page.click("#freeze");
    await page.waitForFunction(
      () => document.getElementById("freeze-status")?.dataset.state === "ok"
    );
    calls = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    expect(calls.filter((c) => c[0] === "write")).toEqual([
      ["write", "Sheet1", "1,1", "cell", [[19338.4]]],
      [
        "write",
        "Sheet1",
        "2,2",
        "spill",
        [
          ["Option id", "Lead time (days)"],
          ["a1", 29.7],
        ],
      ],
    ]);
    expect(await page.textContent("#freeze-status")).toBe(
      'Froze 2 ROUTE formulas (5 cells) on "Sheet1": the workbook now holds their values.'
    );
    expect(await page.textContent("#freeze")).toBe("Freeze as values");
    await page.evaluate(() => {
      (window as unknown as { __workbook: Record<string, unknown> }).__workbook.formulas = {};
    });
  });

  test("clear cache and recalculate: a full recalculation", async () => {
    await page.click("#tab-connection");
    await page.evaluate(
      () => ((window as unknown as { __excelCalls: unknown[] }).__excelCalls.length = 0)
    );
    await page.click("#clear-cache");
    await page.waitForFunction(() =>
      /recalculated/.test(document.getElementById("cache-status")?.textContent ?? "")
    );
    const calls = (await page.evaluate(
      () => (window as unknown as { __excelCalls: Call[] }).__excelCalls
    )) as Call[];
    expect(calls).toContainEqual(["calculate", "Full"]);
    expect(await page.textContent("#stat-entries")).toBe("0");
    await shot("12-cache-cleared");
  });

  /** The search form shown again (results fold it), on the Search tab, its status cleared. */
  const searchAgain = async (origin: string, destination: string) => {
    await page.click("#tab-search");
    if (await page.isVisible("#edit-search")) await page.click("#edit-search");
    await page.fill("#origin", origin);
    await page.fill("#destination", destination);
    await page.evaluate(() => (document.getElementById("search-status")!.textContent = ""));
    await page.click("#search");
    await page.waitForFunction(
      () =>
        document.getElementById("search-status")?.dataset.state !== "busy" &&
        !!document.getElementById("search-status")?.textContent
    );
  };

  test('the name fields: names in any case looked up and kept as typed; a misspelt name or an unknown code worded with "did you mean"; namesakes listed', async () => {
    // Five letters in lower case are a name first: "busan" is Busan, never rewritten to BUSAN.
    await searchAgain("busan", "rotterdam");
    if (await page.isVisible("#edit-search")) await page.click("#edit-search");
    expect(await page.inputValue("#origin")).toBe("busan");
    expect(await page.inputValue("#destination")).toBe("rotterdam");
    expect(await page.textContent("#origin-type")).toBe("KRPUS · Busan");
    expect(await page.textContent("#destination-type")).toBe("NLRTM · Rotterdam");
    expect(await page.textContent("#origin-error")).toBe("");

    // A misspelt name: "did you mean", and no raw service text (ids, lists of forms) anywhere.
    await searchAgain("Rotterdm", "Shanghai");
    expect(await page.textContent("#origin-error")).toBe(
      'From: unknown place "Rotterdm" — did you mean NLRTM (Rotterdam)?'
    );
    const shown = await page.textContent("#search-form");
    expect(shown).not.toMatch(/allowed forms|[0-9a-f]{8}-[0-9a-f]{4}-/);

    // Five capitals are a code: BUSAN is none, so it is said with the place meant, kept as typed.
    await searchAgain("BUSAN", "Rotterdam");
    expect(await page.inputValue("#origin")).toBe("BUSAN");
    expect(await page.textContent("#origin-error")).toBe(
      'From: unknown place "BUSAN" — did you mean KRPUS (Busan)?'
    );
    expect(await page.textContent("#search-form")).not.toMatch(/allowed forms/);

    // A name of two places in one country: both listed as /places and the functions word it.
    await searchAgain("Rotterdam", "Portland");
    expect(await page.inputValue("#destination")).toBe("Portland");
    expect(await page.textContent("#destination-error")).toBe(
      "To: Portland: USPDX (Oregon) or USPWM (Maine)"
    );
    await shot("13-name-fields");
  });

  test("at 320 × 720, Shanghai → Duisburg: the chosen routing's Insert stays within reach", async () => {
    await searchAgain("Shanghai", "Duisburg");
    expect(await page.getAttribute("#search-status", "data-state")).toBe("ok");
    await page.setViewportSize({ width: 320, height: FIRST_SCREEN });
    try {
      await page.click("#results-list button.option >> nth=0");
      await page.waitForSelector("#map[data-paths=done]");
      await page.evaluate(() => window.scrollTo(0, 0));
      const insert = await page.$eval("#insert", (e) => {
        const r = e.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return { top: r.top, bottom: r.bottom, onTop: hit === e || e.contains(hit) };
      });
      await page.screenshot({ path: path.join(SHOTS, "14-shanghai-duisburg-320x720.png") });
      // On the first screen, not under anything: one click away without scrolling.
      expect(insert.top).toBeGreaterThanOrEqual(0);
      expect(insert.bottom).toBeLessThanOrEqual(FIRST_SCREEN);
      expect(insert.onTop).toBe(true);
    } finally {
      await page.setViewportSize({ width: 320, height: 900 });
    }
  });

  test("opened outside Office with the real Office.js: says so within a few seconds, connection still testable", async () => {
    officeJsServed.length = 0;
    const outside = await openPane("none");
    await outside.waitForSelector("body[data-ready=true]", { timeout: 10_000 });
    // Microsoft's office.js ran (from @microsoft/office-js), and reported no Office host.
    expect(officeJsServed[0]).toBe("office.js");
    expect(await outside.evaluate(() => typeof (window as { Office?: unknown }).Office)).toBe(
      "object"
    );
    expect(await outside.getAttribute("body", "data-host")).toBe("no-office");
    expect(await outside.textContent("#host-banner")).toMatch(/outside Office/);
    // Office.js said "no host" (not the give-up-after-a-while path).
    expect(await outside.textContent("#host-banner")).not.toMatch(/did not answer/);
    await outside.fill("#api-key", keys.good);
    await outside.click("#test-connection");
    await outside.waitForFunction(
      () => document.getElementById("status")?.textContent === "Connected: everything works."
    );
    await outside.click("#save");
    await outside.waitForFunction(() =>
      document.getElementById("status")?.textContent?.startsWith("Saved")
    );
    // Without Office the key is kept in this browser's localStorage.
    expect(await outside.evaluate(() => localStorage.getItem("routeSheets.apiKey"))).toBe(
      keys.good
    );
    await shot("13-outside-office", outside);
    await outside.context().close();
  });

  test("an Excel without the shared runtime: the pane says so, in words", async () => {
    const old = await openPane("excel", async (p) => {
      await p.addInitScript(() => {
        (window as unknown as { __unsupportedSets: string[] }).__unsupportedSets = [
          "SharedRuntime",
        ];
      });
    });
    await old.waitForSelector("body[data-ready=true]");
    expect(await old.isVisible("#host-banner")).toBe(true);
    expect(await old.textContent("#host-banner")).toMatch(
      /^This version of Excel lacks SharedRuntime 1\.1, which Route Sheets needs: the ROUTE functions cannot run here/
    );
    expect(await old.getAttribute("body", "data-runtime")).toBe("missing");
    await old.context().close();
  });

  test("an old Office runtime (no ES2022, as Internet Explorer 11): a clear message, not a blank pane", async () => {
    const old = await openPane("none", async (p) => {
      await p.addInitScript(() => {
        delete (Object as { hasOwn?: unknown }).hasOwn;
      });
    });
    await old.waitForSelector("#unsupported", { state: "visible" });
    expect(await old.textContent("#unsupported")).toMatch(
      /This version of Office is too old for Route Sheets\..*Internet Explorer 11/s
    );
    expect(await old.isHidden("#app")).toBe(true);
    expect(await old.getAttribute("body", "data-host")).toBe("unsupported");
    await shot("14-old-office", old);
    await old.context().close();
  });
});
