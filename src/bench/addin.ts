/**
 * `npm run bench:addin`: one formula over a 10,000-row lane sheet,
 * =ROUTE.DISTANCE(A2:A10001, B2:B10001, "DEEPSEA") with 2,000 distinct lanes, in the built add-in
 * page (headless Chromium, real Office.js, Excel host simulated) against the real server
 * (`route-sheets start`) on loopback. Reports the time until the spill has every value and the API
 * requests that reached the server, for a cold pass and a recalculation.
 * Goals: cold ≤ 12 requests and under 3 s; recalculation 0 requests.
 * `--cells` runs the same sheet as 10,000 single-cell formulas instead (the former shape).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  CHROMIUM,
  createKey,
  distanceFormula,
  distanceSheet,
  FaultProxy,
  lanesOf,
  openAddinPage,
  seaPorts,
  sheetOf,
  startServer,
} from "./addin-harness";

const CELLS = 10_000;
const LANES = 2_000;
const GOAL_MS = 3_000;
const GOAL_REQUESTS = 12;
const SINGLE_CELLS = process.argv.includes("--cells");

async function main(): Promise<void> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-addin-"));
  const key = await createKey(dataDir, 1_000_000);
  const server = await startServer(dataDir, "serve", [
    "--host",
    "127.0.0.1",
    "--log-level",
    "warn",
    "--no-request-log",
  ]);
  const proxy = new FaultProxy(server.url);
  const origin = await proxy.start();
  const addin = await openAddinPage(`${origin}/taskpane.html`, key);
  try {
    const lanes = lanesOf(await seaPorts(55), LANES);
    const sheet = sheetOf(lanes, CELLS);
    const passes: Array<{
      pass: string;
      ms: number;
      requests: number;
      serviceMs: number;
      /** [sent, answered] of each request, ms after the pass started. */
      requestTimes: number[][];
      values: number;
      errors: number;
    }> = [];
    for (const pass of ["cold", "recalc"]) {
      const before = proxy.apiRequests;
      const busyBefore = proxy.apiBusyMs;
      const logBefore = proxy.apiLog.length;
      const passStarted = performance.now();
      const { ms, cells } = SINGLE_CELLS
        ? await distanceSheet(addin.page, sheet)
        : await distanceFormula(addin.page, sheet);
      const values = cells.filter((c) => typeof c === "number").length;
      passes.push({
        pass,
        ms: Math.round(ms),
        requests: proxy.apiRequests - before,
        serviceMs: Math.round(proxy.apiBusyMs - busyBefore),
        requestTimes: proxy.apiLog
          .slice(logBefore)
          .map((r) => [Math.round(r.started - passStarted), Math.round(r.ended - passStarted)]),
        values,
        errors: cells.length - values,
      });
    }
    const figures = {
      shape: SINGLE_CELLS ? "10,000 single-cell formulas" : "one formula over 10,000 rows",
      cells: CELLS,
      lanes: LANES,
      goalMs: GOAL_MS,
      node: process.version,
      cpus: os.cpus().length,
      passes,
    };
    for (const p of passes) {
      console.log(
        `${p.pass.padEnd(6)} ${CELLS} cells / ${LANES} lanes: ${p.ms} ms (${p.serviceMs} ms waiting for the service), ${p.requests} API requests, ${p.values} values, ${p.errors} errors`
      );
    }
    const [cold, warm] = passes;
    const met = cold.ms < GOAL_MS && cold.requests <= GOAL_REQUESTS && warm.requests === 0;
    console.log(
      `${met ? "goal met" : "goal missed"}: cold ${cold.ms} ms (goal < ${GOAL_MS}), ` +
        `${cold.requests} requests (goal ≤ ${GOAL_REQUESTS}); recalculation ${warm.requests} requests (goal 0)`
    );
    console.log(JSON.stringify(figures));
  } finally {
    await addin.close();
    await proxy.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
