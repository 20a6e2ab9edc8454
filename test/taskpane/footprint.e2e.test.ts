/**
 * "Export footprint" (issue 20 item 6, the pane action) in headless Chromium: the pane served by
 * our real server on 127.0.0.1 with Microsoft's real Office.js (from @microsoft/office-js, served
 * with page.route), and Excel itself simulated by a small workbook model (cells, tables, the
 * selection). Lanes are put in the sheet, the action is clicked, both downloads are captured: the
 * JSON's figures are what /emissions?include=method answers for each lane, bad rows carry the
 * service's error, blank rows are skipped, and the JSON and CSV are the documents `route-sheets
 * lanes --footprint` writes for the same lanes (but for their generation time and row numbers).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import { parse } from "csv-parse/sync";
import type { Browser, Download, Page } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  createKey,
  ROOT,
  ServerProcess,
} from "../../src/bench/addin-harness";
import { loadFactorSets } from "../../src/data/emissions";
import { ensureAddinAndCliBuilt } from "../addin/build-once";
import { startHttpsPaneServer } from "./https-pane-server";

jest.setTimeout(300_000);

const describeBrowser = fs.existsSync(CHROMIUM) ? describe : describe.skip;
const OFFICE_JS = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");
const SHOTS = path.join(ROOT, "test-output", "taskpane");

/**
 * Excel, simulated after Office.js has loaded: Office reports the Excel host, and Excel.run gets a
 * workbook of cell grids with tables and a selection (what a test sets in window.__book). Writes
 * are recorded in window.__writes.
 */
const EXCEL_SIMULATION = `
(function () {
  var book = window.__book = window.__book || { sheets: {}, tables: [], selection: null, active: 'Lanes' };
  var writes = window.__writes = [];
  var ready = Office.onReady.bind(Office);
  Office.onReady = function (cb) {
    return ready().then(function () {
      var info = { host: 'Excel', platform: 'PC' };
      if (cb) cb(info);
      return info;
    });
  };
  function blank(v) { return v === '' || v === null || v === undefined; }
  function cellsOf(name) { return book.sheets[name] || (book.sheets[name] = []); }
  function letters(c) { var s = ''; for (var n = c + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s; return s; }
  function range(sheet, r, c, rc, cc) {
    var cells = cellsOf(sheet), values = [];
    for (var i = 0; i < rc; i++) { var row = []; for (var j = 0; j < cc; j++) { var v = (cells[r + i] || [])[c + j]; row.push(blank(v) ? '' : v); } values.push(row); }
    var target = {
      isNullObject: false, rowIndex: r, columnIndex: c, rowCount: rc, columnCount: cc, values: values,
      address: sheet + '!' + letters(c) + (r + 1) + ':' + letters(c + cc - 1) + (r + rc),
      load: function () {},
      format: { autofitColumns: function () {} },
      getTables: function () {
        var items = book.tables.filter(function (t) {
          return t.sheet === sheet && t.row <= r + rc - 1 && r <= t.row + t.rows - 1 && t.column <= c + cc - 1 && c <= t.column + t.columns - 1;
        }).map(tableOf);
        return { items: items, load: function () {} };
      },
      getSurroundingRegion: function () {
        // Grows from the cell while a row or column next to the region holds a value (Ctrl+A).
        var top = r, left = c, bottom = r, right = c, grown = true;
        function filled(i, j) { return !blank((cells[i] || [])[j]); }
        while (grown) {
          grown = false;
          for (var j = left - 1; j <= right + 1; j++) {
            if (top > 0 && filled(top - 1, j)) { top--; grown = true; break; }
            if (filled(bottom + 1, j)) { bottom++; grown = true; break; }
          }
          for (var i = top - 1; i <= bottom + 1; i++) {
            if (left > 0 && filled(i, left - 1)) { left--; grown = true; break; }
            if (filled(i, right + 1)) { right++; grown = true; break; }
          }
        }
        return range(sheet, top, left, bottom - top + 1, right - left + 1);
      },
      getIntersectionOrNullObject: function (o) {
        var top = Math.max(r, o.rowIndex), left = Math.max(c, o.columnIndex);
        var bottom = Math.min(r + rc, o.rowIndex + o.rowCount), right = Math.min(c + cc, o.columnIndex + o.columnCount);
        if (bottom <= top || right <= left) return { isNullObject: true, load: function () {} };
        return range(sheet, top, left, bottom - top, right - left);
      }
    };
    return new Proxy(target, { set: function (t, k, v) { writes.push(['range.' + String(k), sheet, [r, c, rc, cc], v]); t[k] = v; return true; } });
  }
  function tableOf(t) {
    return { name: t.name,
      getRange: function () { return range(t.sheet, t.row, t.column, t.rows, t.columns); },
      getHeaderRowRange: function () { return range(t.sheet, t.row, t.column, 1, t.columns); } };
  }
  function sheet(name) {
    return {
      name: name, load: function () {},
      getRangeByIndexes: function (r, c, rc, cc) { return range(name, r, c, rc, cc); },
      getUsedRange: function () {
        var cells = cellsOf(name), top = -1, bottom = -1, left = 1e9, right = -1;
        cells.forEach(function (row, i) { (row || []).forEach(function (v, j) {
          if (blank(v)) return; if (top < 0) top = i; bottom = i; left = Math.min(left, j); right = Math.max(right, j); }); });
        return range(name, top, left, bottom - top + 1, right - left + 1);
      },
      tables: { add: function (rg, headers) {
        return new Proxy({}, { set: function (t, k, v) {
          if (k === 'name') { book.tables.push({ name: v, sheet: name, row: rg.rowIndex, column: rg.columnIndex, rows: rg.rowCount, columns: rg.columnCount }); writes.push(['table', name, v, headers]); }
          t[k] = v; return true; } });
      } },
      activate: function () { book.active = name; writes.push(['activate', name]); }
    };
  }
  window.Excel = { run: function (fn) {
    var context = {
      workbook: {
        tables: { items: [], load: function () { this.items = book.tables.map(function (t) { return { name: t.name }; }); } },
        worksheets: {
          items: [],
          load: function () { this.items = Object.keys(book.sheets).map(function (n) { return { name: n }; }); },
          add: function (n) { book.sheets[n] = []; writes.push(['worksheets.add', n]); return sheet(n); },
          getActiveWorksheet: function () { return sheet(book.active); }
        },
        // Excel's decimal mark (ExcelApi 1.11): what the book says, a point by default.
        application: { decimalSeparator: book.decimal || '.', load: function () {} },
        getSelectedRange: function () { var s = book.selection; return range(book.active, s.row, s.column, s.rows || 1, s.columns || 1); }
      },
      sync: function () { return Promise.resolve(); }
    };
    return Promise.resolve().then(function () { return fn(context); });
  } };
})();
`;

interface Lane {
  row: number;
  input: Record<string, string>;
  result?: Record<string, unknown>;
  method?: Record<string, unknown>;
  shipmentFootprint?: { tces: Array<Record<string, unknown>> } & Record<string, unknown>;
  error?: string;
}
interface Doc {
  format: string;
  factorSet: string;
  framework: string;
  generatedAt: string;
  lanes: Lane[];
}

describeBrowser("Export footprint in the task pane", () => {
  let dataDir: string;
  let server: ServerProcess;
  let browser: Browser;
  let key = "";
  const [current, earlier] = loadFactorSets().ids();

  /** The lanes sheet: a header in any case, a blank row, a bad place, a pinned factor set. */
  const HEADER = [
    "lane",
    "Origin",
    "DESTINATION",
    "modality",
    "containerType",
    "containers",
    "weightTons",
    "factorSet",
  ];
  const ROWS: unknown[][] = [
    ["A", "CNSHA", "NLRTM", "DEEPSEA", "40HC", 3, "", ""],
    ["B", "NLRTM", "DEDUI", "BARGE", "", "", 4.5, ""],
    ["", "", "", "", "", "", "", ""],
    ["C", "USLAX", "USNYC", "RAIL", "", "", "", ""],
    ["D", "XXXXX", "NLRTM", "DEEPSEA", "", "", "", ""],
    ["E", "CNSHA", "NLRTM", "", "20RF", "", "", earlier],
  ];

  /** The page's origin: the server's --public-url (HTTPS with a throwaway certificate). */
  let origin = "";
  let ca: Buffer;

  /** GET /emissions from Node, trusting the throwaway certificate. */
  const api = (query: Record<string, string>) =>
    new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
      const url = `${origin}/route-information/api/emissions?${new URLSearchParams(query)}`;
      https
        .get(url, { ca, headers: { "x-api-key": key } }, (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (body += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(body) }));
        })
        .on("error", reject);
    });

  beforeAll(async () => {
    ensureAddinAndCliBuilt();
    fs.mkdirSync(SHOTS, { recursive: true });
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-footprint-"));
    key = await createKey(dataDir, 1000);
    ({ server, origin, ca } = await startHttpsPaneServer(dataDir));
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** The pane with Office.js from the npm package, Excel simulated and the key stored. */
  async function openPane(book: unknown, colorScheme: "light" | "dark" = "light"): Promise<Page> {
    const context = await browser.newContext({
      viewport: { width: 320, height: 900 },
      acceptDownloads: true,
      ignoreHTTPSErrors: true,
      colorScheme,
    });
    const page = await context.newPage();
    const served: string[] = [];
    await page.route("https://appsforoffice.microsoft.com/lib/1/hosted/**", (route) => {
      const rel = new URL(route.request().url()).pathname.replace("/lib/1/hosted/", "");
      const file = path.join(OFFICE_JS, rel);
      if (!file.startsWith(OFFICE_JS + path.sep) || !fs.existsSync(file))
        return route.fulfill({ status: 404, body: "" });
      served.push(rel);
      const body = fs.readFileSync(file, "utf8");
      return route.fulfill({
        status: 200,
        contentType: "application/javascript",
        body: rel === "office.js" ? body + "\n" + EXCEL_SIMULATION : body,
      });
    });
    await page.addInitScript(
      ({ apiKey, workbook }) => {
        localStorage.setItem("routeSheets.apiKey", apiKey);
        (window as unknown as { __book: unknown }).__book = workbook;
      },
      { apiKey: key, workbook: book }
    );
    await page.goto(`${origin}/taskpane.html`);
    await page.waitForSelector("body[data-ready=true]");
    expect(served[0]).toBe("office.js");
    expect(await page.getAttribute("body", "data-host")).toBe("excel");
    return page;
  }

  /** Clicks Export footprint; resolves with both downloads (JSON first) once the status says done. */
  async function exportFootprint(page: Page): Promise<{ json: Doc; csv: string; names: string[] }> {
    const downloads: Download[] = [];
    page.on("download", (d) => downloads.push(d));
    await page.click("#tab-footprint");
    await page.click("#export-footprint");
    await page.waitForFunction(() =>
      /^(Exported|Could not)/.test(document.getElementById("footprint-status")?.textContent ?? "")
    );
    for (let i = 0; i < 100 && downloads.length < 2; i++) await page.waitForTimeout(100);
    expect(downloads).toHaveLength(2);
    const read = async (d: Download) => fs.readFileSync((await d.path())!, "utf8");
    const byName = (ext: string) => downloads.find((d) => d.suggestedFilename().endsWith(ext))!;
    return {
      json: JSON.parse(await read(byName(".json"))) as Doc,
      csv: await read(byName(".csv")),
      names: downloads.map((d) => d.suggestedFilename()).sort(),
    };
  }

  /** The CLI's footprint of the same lanes (a CSV of the sheet's non-blank rows). */
  function cliFootprint(): { json: Doc; csv: string } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-footprint-cli-"));
    try {
      const lines = [HEADER, ...ROWS.filter((r) => r.some((v) => v !== ""))].map((r) =>
        r.map(String).join(",")
      );
      fs.writeFileSync(path.join(dir, "in.csv"), lines.join("\n") + "\n");
      const r = spawnSync(
        process.execPath,
        [
          path.join(ROOT, "bin/route-sheets.js"),
          "lanes",
          path.join(dir, "in.csv"),
          "-o",
          path.join(dir, "out.csv"),
          "--footprint",
          path.join(dir, "fp.json"),
        ],
        { encoding: "utf8", timeout: 120_000 }
      );
      expect(r.status).toBe(0);
      return {
        json: JSON.parse(fs.readFileSync(path.join(dir, "fp.json"), "utf8")) as Doc,
        csv: fs.readFileSync(path.join(dir, "fp.footprint.csv"), "utf8"),
      };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /** A lane without what depends on its sheet row (the row and the ids made from it). */
  const withoutRow = (lane: Lane) =>
    JSON.parse(JSON.stringify({ ...lane, row: 0 }).replace(/lane-\d+/g, "lane-#")) as Lane;

  test("a cell of the lanes table: each lane's figures are /emissions?include=method's, the CLI's document, as JSON and CSV downloads and a new table", async () => {
    const page = await openPane({
      sheets: { Lanes: [HEADER, ...ROWS] },
      tables: [
        {
          name: "Lanes",
          sheet: "Lanes",
          row: 0,
          column: 0,
          rows: ROWS.length + 1,
          columns: HEADER.length,
        },
      ],
      selection: { row: 2, column: 1 },
      active: "Lanes",
    });
    const { json, csv, names } = await exportFootprint(page);
    await page.screenshot({ path: path.join(SHOTS, "footprint-exported.png"), fullPage: true });
    const day = json.generatedAt.slice(0, 10);
    expect(names).toEqual([`lane-footprint-${day}.csv`, `lane-footprint-${day}.json`]);
    expect(json.format).toBe("route-sheets/lane-footprints/1");
    expect(json.factorSet).toBe(current);

    // Sheet rows 2, 3, 5, 6, 7: the blank row 4 is skipped.
    expect(json.lanes.map((l) => l.row)).toEqual([2, 3, 5, 6, 7]);
    const queries: Array<Record<string, string>> = [
      {
        origin: "CNSHA",
        destination: "NLRTM",
        modality: "DEEPSEA",
        containerType: "40HC",
        containers: "3",
      },
      { origin: "NLRTM", destination: "DEDUI", modality: "BARGE", weightTons: "4.5" },
      { origin: "USLAX", destination: "USNYC", modality: "RAIL" },
      { origin: "XXXXX", destination: "NLRTM", modality: "DEEPSEA" },
      {
        origin: "CNSHA",
        destination: "NLRTM",
        modality: "DEEPSEA",
        containerType: "20RF",
        factorSet: earlier,
      },
    ];
    for (const [i, q] of queries.entries()) {
      const lane = json.lanes[i];
      const answer = await api({ ...q, include: "method" });
      if (answer.status !== 200) {
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(lane.result).toBeUndefined();
        // The service's 404 reaches the sheet worded as lanes and the functions word it.
        expect(answer.body.detail).toMatch(/^origin XXXXX is not a known UN\/LOCODE/);
        expect(lane.error).toBe('unknown place "XXXXX"');
        continue;
      }
      const { method, places, box, ...figures } = answer.body;
      expect(lane.result).toEqual(figures);
      expect(lane.method).toEqual(method);
      expect(places).toBeDefined();
      expect(box).toBeDefined();
      // The same figures as the plain call (include=method only adds).
      const plain = await api(q);
      expect(lane.result!.co2eTeu).toBe(plain.body.co2eTeu);
      expect(lane.result!.distance).toBe(plain.body.distance);
    }
    expect(json.lanes[0].input).toEqual({
      lane: "A",
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      containerType: "40HC",
      containers: "3",
    });
    expect(json.lanes[0].shipmentFootprint!.mass).toBe("60000");
    expect(json.lanes[4].method!.factorSet).toBe(earlier);

    // The CLI's document for the same lanes, lane by lane.
    const cli = cliFootprint();
    expect(json.factorSet).toBe(cli.json.factorSet);
    expect(json.framework).toBe(cli.json.framework);
    expect(json.lanes.map(withoutRow)).toEqual(cli.json.lanes.map(withoutRow));

    // The CSV: the sheet's own columns (the lane id) then the footprint's, as the CLI writes
    // them, with a byte-order mark so Excel reads UTF-8; one row per lane with the JSON's figures.
    expect(csv.startsWith("\uFEFF")).toBe(true);
    const rows = parse(csv, { columns: true, bom: true }) as Array<Record<string, string>>;
    const header = csv.slice(1).split("\n")[0];
    expect(header).toBe(cli.csv.split("\n")[0]);
    expect(header.startsWith(["row", ...HEADER, "modality_used"].join(","))).toBe(true);
    expect(rows.map((r) => r.lane)).toEqual(["A", "B", "C", "D", "E"]);
    expect(rows).toHaveLength(5);
    expect(rows.map((r) => Number(r.row))).toEqual([2, 3, 5, 6, 7]);
    rows.forEach((r, i) => {
      const lane = json.lanes[i];
      // The CSV rounds kg to 0.1, as every surface does; the JSON keeps the service's figure.
      expect(r.co2e_kg_per_teu).toBe(
        lane.result ? String(tenths(lane.result.co2eTeu as number)) : ""
      );
      expect(r.error).toBe(lane.error ?? "");
    });
    // Row for row the CLI's CSV, but for the sheet row numbers (the CLI's input has no blank row).
    const cliRows = parse(cli.csv, { columns: true }) as Array<Record<string, string>>;
    const withoutRowCell = (r: Record<string, string>) => ({ ...r, row: "" });
    expect(rows.map(withoutRowCell)).toEqual(cliRows.map(withoutRowCell));

    // And a table on a new sheet, numbers as numbers.
    const writes = (await page.evaluate(
      () => (window as unknown as { __writes: unknown[][] }).__writes
    )) as unknown[][];
    expect(writes).toContainEqual(["worksheets.add", "Footprint"]);
    expect(writes).toContainEqual(["table", "Footprint", "Footprint1", true]);
    const values = writes.find(
      (w) => w[0] === "range.values" && w[1] === "Footprint"
    )![3] as unknown[][];
    // The CSV's columns, the sheet's own first, figures at the CSV's 0.1.
    expect((values[0] as string[]).join(",")).toBe(header);
    expect(values).toHaveLength(6);
    expect(values[1].slice(0, 2)).toEqual([2, "A"]);
    const at = (c: string) => (values[0] as string[]).indexOf(c);
    expect(values[1][at("co2e_kg_per_teu")]).toBe(tenths(json.lanes[0].result!.co2eTeu as number));
    expect(values[4][at("error")]).toBe(json.lanes[3].error);
    expect(await page.textContent("#footprint-status")).toMatch(
      /^Exported 5 lanes from Lanes!A1:H7 \(1 with an error, in its row\); table Footprint1 on the sheet "Footprint"\./
    );
    await page.context().close();
  });

  test("a plain range (no table) selected with its header: those lanes only, no sheet written when unticked; a range without the columns says which are missing", async () => {
    const page = await openPane({
      sheets: {
        Lanes: [
          ["note"],
          [],
          ["x", ...HEADER],
          ["x", ...ROWS[0]],
          ["x", ...ROWS[1]],
          ["x", ...ROWS[3]],
        ],
      },
      tables: [],
      selection: { row: 2, column: 1, rows: 3, columns: HEADER.length },
      active: "Lanes",
    });
    await page.click("#tab-footprint");
    await page.uncheck("#footprint-to-sheet");
    const { json } = await exportFootprint(page);
    expect(json.lanes.map((l) => [l.row, l.input.origin])).toEqual([
      [4, "CNSHA"],
      [5, "NLRTM"],
    ]);
    const writes = (await page.evaluate(
      () => (window as unknown as { __writes: unknown[][] }).__writes
    )) as unknown[][];
    expect(writes.filter((w) => w[0] === "worksheets.add")).toEqual([]);

    // A selection of data rows of a range without its header row: the missing columns named.
    await page.evaluate(() => {
      (window as unknown as { __book: { selection: unknown } }).__book.selection = {
        row: 3,
        column: 1,
        rows: 2,
        columns: 8,
      };
    });
    await page.click("#export-footprint");
    await page.waitForFunction(() =>
      /^Could not/.test(document.getElementById("footprint-status")?.textContent ?? "")
    );
    expect(await page.textContent("#footprint-status")).toMatch(
      /missing column\(s\) origin, destination, modality: required columns are origin, destination, modality/
    );
    await page.context().close();
  });

  test("some rows of a table selected: those lanes under the table's header, every column of the table", async () => {
    const page = await openPane({
      sheets: { Lanes: [[], [], [...HEADER], ...ROWS] },
      tables: [
        {
          name: "Lanes",
          sheet: "Lanes",
          row: 2,
          column: 0,
          rows: ROWS.length + 1,
          columns: HEADER.length,
        },
      ],
      // Rows 6-7 of the sheet, columns B:C only: the lanes C (USLAX) and D (XXXXX).
      selection: { row: 6, column: 1, rows: 2, columns: 2 },
      active: "Lanes",
      // A German Excel: decimal commas, so its CSV is ";"-separated.
      decimal: ",",
    });
    await page.click("#tab-footprint");
    await page.uncheck("#footprint-to-sheet");
    const { json, csv } = await exportFootprint(page);
    expect(csv.startsWith("\uFEFFrow;lane;Origin;")).toBe(true);
    const rows = parse(csv, { columns: true, bom: true, delimiter: ";" }) as Array<
      Record<string, string>
    >;
    expect(rows.map((r) => [r.row, r.lane, r.Origin])).toEqual([
      ["7", "C", "USLAX"],
      ["8", "D", "XXXXX"],
    ]);
    expect(rows[0].distance_km).toBe(
      String(tenths((json.lanes[0].result!.distance as number) / 1000)).replace(".", ",")
    );
    expect(json.lanes.map((l) => [l.row, l.input.lane, l.input.modality])).toEqual([
      [7, "C", "RAIL"],
      [8, "D", "DEEPSEA"],
    ]);
    expect(json.lanes[0].method!.region).toBe("North America");
    expect(json.lanes[1].error).toMatch(/XXXXX/);
    expect(await page.textContent("#footprint-status")).toMatch(
      /^Exported 2 lanes from Lanes!A7:H8 \(header A3:H3\) \(1 with an error/
    );
    await page.context().close();
  });

  test("the dark palette is keyed once, on data-theme, which the page sets from the system's scheme before its bundle runs", async () => {
    for (const scheme of ["dark", "light"] as const) {
      const context = await browser.newContext({ colorScheme: scheme, ignoreHTTPSErrors: true });
      const page = await context.newPage();
      // Neither Office.js nor the pane's bundles: only the page's own first script sets the theme.
      await page.route("https://appsforoffice.microsoft.com/**", (r) =>
        r.fulfill({ status: 404, body: "" })
      );
      await page.route(/\/(taskpane|functions|runtime)\.js$/, (r) =>
        r.fulfill({ status: 404, body: "" })
      );
      await page.goto(`${origin}/taskpane.html`);
      const theme = await page.evaluate(() => ({
        attr: document.documentElement.getAttribute("data-theme"),
        bg: getComputedStyle(document.documentElement).getPropertyValue("--bg1").trim(),
      }));
      expect(theme).toEqual(
        scheme === "dark" ? { attr: "dark", bg: "#292929" } : { attr: null, bg: "#ffffff" }
      );
      await context.close();
    }
    const css = fs.readFileSync(path.join(ROOT, "src", "taskpane", "taskpane.css"), "utf8");
    expect(css.match(/--bg1: #292929/g)).toHaveLength(1);
  });
});

function tenths(x: number): number {
  return Math.round(x * 10) / 10;
}
