/**
 * Drives the built Excel add-in the way Excel would, without Excel: the real server (the CLI)
 * serves dist/addin, headless Debian Chromium loads taskpane.html with the real Office.js of
 * @microsoft/office-js (its CDN requests answered from node_modules: the outside-Office path for
 * real), the in-Excel host simulated (CustomFunctions.associate captured), and the page's own
 * ROUTE.* functions are called. A loopback proxy in front of the server counts the API requests
 * that reach it and can inject faults. Used by test/addin/e2e.test.ts and `npm run bench:addin`.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";

export const ROOT = path.resolve(__dirname, "../..");
const CLI = path.join(ROOT, "bin", "route-sheets.js");
export const CHROMIUM = "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

/** Runs the CLI to completion; resolves with stdout. */
function runCli(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0
        ? resolve(out)
        : reject(new Error(`route-sheets ${args.join(" ")} exited ${code}: ${err || out}`))
    );
  });
}

/** Creates an account with a key through the CLI; the key is alone on the last stdout line. */
export async function createKey(
  dataDir: string,
  credits: number,
  extra: string[] = []
): Promise<string> {
  const out = await runCli([
    "keys",
    "create",
    "--data-dir",
    dataDir,
    "--credits",
    String(credits),
    ...extra,
  ]);
  const lines = out.trim().split("\n");
  return lines[lines.length - 1].trim();
}

export interface ServerProcess {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts the server on a free port and waits for the URL it prints: `start` serves the add-in and
 * the API on one origin, `serve` the API only.
 */
export function startServer(
  dataDir: string,
  command: "start" | "serve" = "start",
  extra: string[] = []
): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, command, "--port", "0", "--data-dir", dataDir, ...extra],
      {
        cwd: ROOT,
        stdio: ["ignore", "pipe", "pipe"],
      }
    );
    let out = "";
    let settled = false;
    const timer = setTimeout(
      () => fail(new Error(`server did not print its URL within 120 s: ${out}`)),
      120_000
    );
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /(https?:\/\/(?:127\.0\.0\.1|localhost|\[::1\]):\d+)/.exec(out);
      if (m && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({
          url: m[1].replace("localhost", "127.0.0.1"),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
              setTimeout(() => child.kill("SIGKILL"), 5000).unref();
            }),
        });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("error", fail);
    child.on("exit", (code) =>
      fail(new Error(`server exited (${code}) before printing its URL: ${out}`))
    );
  });
}

export type ProxyMode = "pass" | "rate-limit" | "slow" | "stall";

/**
 * A loopback HTTP proxy in front of the server. Counts requests to the API (paths under
 * /route-information and /route-optimizer) and, per mode, answers 429, delays or never answers
 * them. When the upstream is down the client's connection is dropped, as a stopped server would.
 */
export class FaultProxy {
  mode: ProxyMode = "pass";
  slowMs = 3000;
  retryAfterSeconds = 1;
  apiRequests = 0;
  /** Time (ms) with at least one API request in flight through the proxy: the service's share. */
  apiBusyMs = 0;
  /** When each API request arrived and was answered (performance.now() of this process). */
  apiLog: Array<{ started: number; ended: number }> = [];
  private apiInFlight = 0;
  private apiBusySince = 0;
  private server: http.Server | undefined;
  private readonly stalled = new Set<http.ServerResponse>();

  constructor(public upstream: string) {}

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => this.handle(req, res));
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const res of this.stalled) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const isApi = /^\/route-(information|optimizer)\//.test(req.url ?? "");
    if (isApi) {
      this.apiRequests++;
      const started = performance.now();
      if (this.apiInFlight++ === 0) this.apiBusySince = started;
      res.on("close", () => {
        this.apiLog.push({ started, ended: performance.now() });
        if (--this.apiInFlight === 0) this.apiBusyMs += performance.now() - this.apiBusySince;
      });
    }
    const mode = isApi ? this.mode : "pass";
    if (mode === "rate-limit") {
      req.resume();
      const body = JSON.stringify({
        type: "about:blank",
        title: "Too Many Requests",
        status: 429,
        detail: "Requests arrive too quickly (test proxy).",
      });
      res.writeHead(429, {
        "content-type": "application/problem+json",
        "retry-after": String(this.retryAfterSeconds),
      });
      res.end(body);
      return;
    }
    if (mode === "stall") {
      req.resume();
      this.stalled.add(res);
      res.on("close", () => this.stalled.delete(res));
      return;
    }
    const forward = () => this.forward(req, res);
    if (mode === "slow") setTimeout(forward, this.slowMs);
    else forward();
  }

  private forward(req: http.IncomingMessage, res: http.ServerResponse): void {
    const target = new URL(req.url ?? "/", this.upstream);
    const upstream = http.request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      }
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  }
}

/** A stand-in for Office.js (the pane tests use it; the functions tests load the real Office.js): CustomFunctions (associate captured), OfficeRuntime.storage, Office.onReady. */
export const OFFICE_STUB = `
(function () {
  var registered = {};
  window.__routeFunctions = registered;
  function ExcelError(code, message) { this.code = code; this.message = message; }
  window.CustomFunctions = {
    associate: function (id, fn) { registered[id] = fn; },
    Error: ExcelError,
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A', divisionByZero: '#DIV/0!', invalidNumber: '#NUM!', nullReference: '#NULL!', invalidName: '#NAME?', invalidReference: '#REF!' }
  };
  window.OfficeRuntime = { storage: {
    getItem: function (k) { return Promise.resolve(localStorage.getItem(k)); },
    setItem: function (k, v) { localStorage.setItem(k, v); return Promise.resolve(); },
    removeItem: function (k) { localStorage.removeItem(k); return Promise.resolve(); }
  } };
  window.Office = { HostType: { Excel: 'Excel' }, onReady: function (cb) {
    var info = { host: 'Excel', platform: 'PC' };
    return Promise.resolve().then(function () { if (cb) cb(info); return info; });
  } };
})();
`;

/** Where the real Office.js lives (the package Microsoft publishes; the page asks its CDN for it). */
const OFFICE_JS_DIR = path.join(ROOT, "node_modules", "@microsoft", "office-js", "dist");
const OFFICE_CDN = "https://appsforoffice.microsoft.com/lib/1/hosted/";

/**
 * The in-Excel host, simulated (Excel itself is not here): CustomFunctions with associate
 * captured, Error and ErrorCode as Excel defines them. Installed before the page's scripts and
 * kept when Office.js loads outside Office. `window.__routeSheetsRequirements` (set by a test)
 * answers Office.context.requirements.isSetSupported, to play an Excel with newer runtimes.
 */
export const EXCEL_HOST_SIMULATION = `
(function () {
  var registered = {};
  window.__routeFunctions = registered;
  function ExcelError(code, message) { this.code = code; this.message = message; }
  var members = {
    associate: function (id, fn) { registered[id] = fn; },
    Error: ExcelError,
    ErrorCode: { invalidValue: '#VALUE!', notAvailable: '#N/A', divisionByZero: '#DIV/0!', invalidNumber: '#NUM!', nullReference: '#NULL!', invalidName: '#NAME?', invalidReference: '#REF!' }
  };
  // Office.js outside Office installs its own CustomFunctions members; Excel's win, as in Excel.
  var host = {};
  Object.keys(members).forEach(function (name) {
    Object.defineProperty(host, name, { get: function () { return members[name]; }, set: function () {}, enumerable: true });
  });
  Object.defineProperty(window, 'CustomFunctions', { get: function () { return host; }, set: function () {} });
})();
`;

/** Opens taskpane.html in headless Chromium with the real Office.js, the Excel host simulated and the API key stored. */
export async function openAddinPage(pageUrl: string, apiKey: string): Promise<AddinPage> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage();
  officeJsRequests.length = 0;
  await page.route(`${OFFICE_CDN}**`, (route) => {
    const rel = decodeURIComponent(new URL(route.request().url()).pathname).replace(
      "/lib/1/hosted/",
      ""
    );
    const file = path.join(OFFICE_JS_DIR, rel);
    officeJsRequests.push(rel);
    if (!file.startsWith(OFFICE_JS_DIR + path.sep) || !fs.existsSync(file))
      return route.fulfill({ status: 404, body: "" });
    return route.fulfill({
      status: 200,
      contentType: "application/javascript",
      body: fs.readFileSync(file),
    });
  });
  await page.addInitScript(EXCEL_HOST_SIMULATION);
  await page.addInitScript(
    (key: string) => localStorage.setItem("routeSheets.apiKey", key),
    apiKey
  );
  // Every function of the build's metadata (served next to the page) must be associated.
  const metadata = (await (await fetch(new URL("functions.json", pageUrl))).json()) as {
    functions: unknown[];
  };
  await page.goto(pageUrl);
  await page.waitForFunction((count: number) => {
    const f = (window as unknown as { __routeFunctions?: Record<string, unknown> })
      .__routeFunctions;
    return !!f && Object.keys(f).length === count;
  }, metadata.functions.length);
  return { browser, page, close: () => browser.close() };
}

/** Files of @microsoft/office-js the last opened page loaded (office.js first). */
export const officeJsRequests: string[] = [];

export interface AddinPage {
  browser: Browser;
  page: Page;
  close(): Promise<void>;
}

/** What a cell shows: a value, or an Excel error with its message. */
export type CellResult = number | string | { code: string; message: string };

/**
 * A sheet of single-cell formulas =ROUTE.DISTANCE(A2, B2): every pair at once, each argument as
 * Excel passes a cell to a matrix parameter ([[value]]), the 1×1 answer unwrapped.
 */
export async function distanceSheet(
  page: Page,
  calls: Array<[string, string]>
): Promise<{ ms: number; cells: CellResult[] }> {
  return page.evaluate(async (pairs) => {
    type Fn = (...args: unknown[]) => Promise<unknown[][]>;
    const fn = (window as unknown as { __routeFunctions: Record<string, Fn> }).__routeFunctions
      .DISTANCE;
    const started = performance.now();
    const cells = await Promise.all(
      pairs.map(([o, d]) =>
        fn([[o]], [[d]], null, null, null, null, null, { isInValuePreview: false }).then(
          (v) => v[0][0] as number | string,
          (e: { code?: string; message?: string }) => ({
            code: String(e.code),
            message: String(e.message),
          })
        )
      )
    );
    return { ms: performance.now() - started, cells };
  }, calls);
}

/**
 * One spilling formula =ROUTE.DISTANCE(A2:A10001, B2:B10001, "DEEPSEA") over the lanes: the
 * ranges as Excel passes them (one row per lane), the answer's cells in row order.
 */
export async function distanceFormula(
  page: Page,
  rows: Array<[string, string]>,
  modality: string | null = "DEEPSEA"
): Promise<{ ms: number; cells: CellResult[] }> {
  return page.evaluate(
    async ({ rows, modality }) => {
      type Fn = (...args: unknown[]) => Promise<unknown[][]>;
      const fn = (window as unknown as { __routeFunctions: Record<string, Fn> }).__routeFunctions
        .DISTANCE;
      const ExcelError = (window as unknown as { CustomFunctions: { Error: unknown } })
        .CustomFunctions.Error as new () => object;
      const started = performance.now();
      const spill = await fn(
        rows.map(([o]) => [o]),
        rows.map(([, d]) => [d]),
        modality === null ? null : [[modality]],
        null,
        null,
        null,
        null,
        { isInValuePreview: false }
      );
      const ms = performance.now() - started;
      const cells = spill.map((row) => {
        const v = row[0] as { code?: string; message?: string } | number | string;
        return v instanceof ExcelError
          ? {
              code: String((v as { code: string }).code),
              message: String((v as { message: string }).message),
            }
          : (v as number | string);
      });
      return { ms, cells };
    },
    { rows, modality }
  );
}

/** LOCODEs of the seaports in data/ports-overlay.csv, in file order. */
export async function seaPorts(limit: number): Promise<string[]> {
  const csv = fs
    .readFileSync(path.join(ROOT, "data", "ports-overlay.csv"), "utf8")
    .trim()
    .split("\n")
    .slice(1);
  return csv
    .map((line) => line.split(","))
    .filter((cols) => (cols[5] ?? "").includes("seaport"))
    .map((cols) => cols[0])
    .slice(0, limit);
}

/** `count` distinct ordered lanes between the given ports, starting at lane `offset`. */
export function lanesOf(ports: string[], count: number, offset = 0): Array<[string, string]> {
  const lanes: Array<[string, string]> = [];
  for (const a of ports) for (const b of ports) if (a !== b) lanes.push([a, b]);
  if (offset + count > lanes.length)
    throw new Error(`only ${lanes.length} lanes between ${ports.length} ports`);
  return lanes.slice(offset, offset + count);
}

/** The sheet: `calls` cells cycling over the lanes. */
export function sheetOf(lanes: Array<[string, string]>, calls: number): Array<[string, string]> {
  return Array.from({ length: calls }, (_, i) => lanes[i % lanes.length]);
}

/** To 0.1, as the functions round km (src/functions/units.ts oneDecimal; the node build leaves the add-in out). */
function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** The API's own answers for the lanes in km to 0.1, as the cells show them (one batch request per 1,000, straight to the server). */
export async function apiDistancesKm(
  baseUrl: string,
  apiKey: string,
  lanes: Array<[string, string]>
): Promise<CellResult[]> {
  const cells: CellResult[] = [];
  for (let i = 0; i < lanes.length; i += 1000) {
    const chunk = lanes.slice(i, i + 1000);
    const res = await fetch(`${baseUrl}/route-information/api/batch`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify({
        requests: chunk.map(([origin, destination]) => ({
          type: "distance",
          origin,
          destination,
          modality: "DEEPSEA",
        })),
      }),
    });
    if (res.status !== 200) throw new Error(`batch answered ${res.status}: ${await res.text()}`);
    const { results } = (await res.json()) as {
      results: Array<{ status: number; body: { distance?: number; detail?: string } }>;
    };
    for (const r of results)
      cells.push(
        r.status === 200
          ? oneDecimal(r.body.distance! / 1000)
          : { code: r.status === 400 ? "#VALUE!" : "#N/A", message: r.body.detail ?? "" }
      );
  }
  return cells;
}

/** One lane asked with a plain GET (the reference for the batch extension). */
export async function apiDistanceKmByGet(
  baseUrl: string,
  apiKey: string,
  [origin, destination]: [string, string]
): Promise<number | undefined> {
  const q = new URLSearchParams({ origin, destination, modality: "DEEPSEA" });
  const res = await fetch(`${baseUrl}/route-information/api/distance?${q}`, {
    headers: { "x-api-key": apiKey },
  });
  if (res.status !== 200) return undefined;
  return oneDecimal(((await res.json()) as { distance: number }).distance / 1000);
}

/** What one whole-column formula cost in the page: time, answers, event-loop stalls and heap. */
export interface WholeColumnRun {
  ms: number;
  /** Rows of the answer (the spill). */
  rows: number;
  values: number;
  blanks: number;
  errors: number;
  /** Longest gap between two 10 ms ticks of the page while the formula ran (responsiveness). */
  maxStallMs: number;
  /** When that gap began, ms after the formula was called. */
  stallAtMs?: number;
  /** JS heap used (MB) by the page: before the columns existed, with them, and after the answer. */
  heapMb: { before: number; columns: number; after: number; peak: number };
  /** The first few error messages, to say why. */
  sampleErrors: string[];
}

/**
 * =ROUTE.DISTANCE(A:A, B:B) as Excel hands it over: two columns of `totalRows` rows (1,048,576 for
 * a whole column), the lanes in the first rows and every other cell empty (`blank`: "" or null).
 * The columns are built inside the page (Excel passes them in process; shipping them over the
 * DevTools protocol would time the harness). Gives up after `timeoutMs`.
 */
export async function wholeColumnFormula(
  page: Page,
  lanes: Array<[string, string]>,
  totalRows: number,
  { blank = "" as string | null, timeoutMs = 60_000 } = {}
): Promise<WholeColumnRun> {
  const cdp = await page.context().newCDPSession(page);
  const heapMb = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    const { usedSize } = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
    return usedSize / 1_048_576;
  };
  const before = await heapMb();
  await page.evaluate(
    ({ lanes, totalRows, blank }) => {
      const a: unknown[][] = new Array(totalRows);
      const b: unknown[][] = new Array(totalRows);
      for (let i = 0; i < totalRows; i++) {
        a[i] = [i < lanes.length ? lanes[i][0] : blank];
        b[i] = [i < lanes.length ? lanes[i][1] : blank];
      }
      (window as unknown as { __columns: unknown }).__columns = { a, b };
    },
    { lanes, totalRows, blank }
  );
  const columns = await heapMb();
  let peak = columns;
  const sampler = setInterval(() => {
    cdp
      .send("Runtime.getHeapUsage")
      .then((u) => (peak = Math.max(peak, (u as { usedSize: number }).usedSize / 1_048_576)))
      .catch(() => undefined);
  }, 100);
  let result: Omit<WholeColumnRun, "heapMb">;
  const started = performance.now();
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  // A page busy in one long task never runs its own timer: the harness gives up from outside.
  const stuck = new Promise<Omit<WholeColumnRun, "heapMb">>((resolve) => {
    giveUp = setTimeout(
      () =>
        resolve({
          ms: performance.now() - started,
          rows: 0,
          values: 0,
          blanks: 0,
          errors: 0,
          maxStallMs: performance.now() - started,
          sampleErrors: [`no answer within ${timeoutMs / 1000} s; the page did not respond`],
        }),
      timeoutMs + 5_000
    );
  });
  try {
    result = await Promise.race([
      stuck,
      page.evaluate(async (timeoutMs) => {
        type Fn = (...args: unknown[]) => Promise<unknown[][]>;
        const w = window as unknown as {
          __routeFunctions: Record<string, Fn>;
          __columns: { a: unknown[][]; b: unknown[][] } | undefined;
          CustomFunctions: { Error: new () => object };
        };
        const { a, b } = w.__columns!;
        w.__columns = undefined;
        let last = performance.now();
        let maxStallMs = 0;
        let stallAtMs = 0;
        const started = performance.now();
        const ticker = setInterval(() => {
          const now = performance.now();
          if (now - last - 10 > maxStallMs) {
            maxStallMs = now - last - 10;
            stallAtMs = last - started;
          }
          last = now;
        }, 10);
        const spill = await Promise.race([
          w.__routeFunctions.DISTANCE(a, b, null, null, null, null, null, {
            isInValuePreview: false,
          }),
          new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), timeoutMs)),
        ]).catch((e: unknown) => [[e]]);
        const ms = performance.now() - started;
        clearInterval(ticker);
        if (spill === "timeout")
          return {
            ms,
            rows: 0,
            values: 0,
            blanks: 0,
            errors: 0,
            maxStallMs,
            sampleErrors: [`no answer within ${timeoutMs / 1000} s`],
          };
        let values = 0;
        let blanks = 0;
        let errors = 0;
        const sampleErrors: string[] = [];
        for (const row of spill) {
          const v = row[0];
          if (typeof v === "number") values++;
          else if (v === "") blanks++;
          else {
            errors++;
            if (sampleErrors.length < 3)
              sampleErrors.push(String((v as { message?: string })?.message ?? v));
          }
        }
        return {
          ms,
          rows: spill.length,
          values,
          blanks,
          errors,
          maxStallMs,
          stallAtMs,
          sampleErrors,
        };
      }, timeoutMs),
    ]);
  } finally {
    clearInterval(sampler);
    clearTimeout(giveUp);
  }
  if (result.rows === 0 && result.sampleErrors[0]?.includes("did not respond"))
    return { ...result, heapMb: { before, columns, after: NaN, peak } };
  const after = await heapMb();
  await cdp.detach();
  return { ...result, heapMb: { before, columns, after, peak: Math.max(peak, after) } };
}
