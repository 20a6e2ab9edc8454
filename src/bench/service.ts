/**
 * npm run bench:service — autocannon on loopback against GET /route-information/api/distance with a
 * valid key (one cached lane: the cost measured is the service path — auth, rate limit, credit
 * debit in SQLite — not routing), next to a bare Fastify route, each server in its own child process.
 * Then the same cheap calls while 4 worst-case route searches run at once (kept running in a loop),
 * and while 2 loops send 1,000-item paid batches: their p99 shows whether searches or batches
 * stall the event loop (goal < 20 ms each, issue 31).
 * The service and the bare route are measured in alternating slices (5 × 2 s each by default), so
 * that the shared machine's changing load weighs on both sides of their ratio alike.
 * Prints requests/s, p50/p99 latency and the ratio; writes the figures as JSON when --out is given.
 * `--bin <file>` benchmarks another build's CLI (e.g. an older checkout, for before/after figures).
 * `--warm-up N`: rounds of 2 s per server before measuring (default 3).
 * `--before <dir>`: another built checkout's service (e.g. the code before a change) is measured too,
 * in the same alternating slices, so before/after CPU per request is a ratio from one run.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { autocannon } from "./autocannon";

const ROOT = path.resolve(__dirname, "..", "..");
const LANE = "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK";
/** The heaviest search the query limits allow: six required LOCODEs over the default window. */
const WORST_SEARCH =
  "/route-optimizer/api/external?origin=CNSHA&originType=LOCODE&destination=NLRTM&destinationType=LOCODE" +
  "&allRequiredLocodes=CNNGB,CNYTN,MYTPP,DEBRV,PLGDN,CNTAO";
const CONCURRENT_SEARCHES = 4;

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  total: number;
  /** The server process's CPU time per answered request (Linux /proc only). */
  cpuMicrosPerRequest?: number;
  /** The same per alternating slice (see alternating()). */
  sliceCpuMicros?: number[];
}

/** CPU seconds (user + system, all threads) a process has used so far; undefined off Linux. */
function cpuSecondsOf(pid: number | undefined): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: the unit of /proc/<pid>/stat times (100 on Linux builds). */
const CLOCK_TICKS = 100;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

/** `--bare-server`: the baseline, a Fastify route answering the same body with no checks. */
async function bareServer(): Promise<void> {
  const Fastify = (await import("fastify")).default;
  const app = Fastify({ logger: false });
  app.get(
    "/route-information/api/distance",
    {
      schema: {
        response: { 200: { type: "object", properties: { distance: { type: "number" } } } },
      },
    },
    async () => ({ distance: 522_032 })
  );
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  process.stdout.write(`Listening on ${url}\n`);
}

function startChild(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

function run(
  name: string,
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string>
): Promise<Figures> {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: seconds, connections, headers }, (err, r) => {
      if (err) return reject(err);
      resolve({
        name,
        requestsPerSecond: Math.round(r.requests.average),
        p50ms: r.latency.p50,
        p99ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        total: r.requests.total,
      });
    });
  });
}

/**
 * Runs each target for `seconds` in all, in `SLICES` alternating slices, and sums the slices:
 * req/s over the whole time, p50 the median of the slices' p50s, p99 the largest slice p99.
 */
async function alternating(
  targets: Array<{ name: string; url: string; headers: Record<string, string>; pid?: number }>,
  seconds: number,
  connections: number
): Promise<Figures[]> {
  const slices = targets.map(() => [] as Figures[]);
  const cpu = targets.map(() => 0 as number | undefined);
  const sliceCpu = targets.map(() => [] as number[]);
  const slice = seconds / SLICES;
  for (let i = 0; i < SLICES; i++)
    for (const [t, target] of targets.entries()) {
      const before = cpuSecondsOf(target.pid);
      slices[t].push(await run(target.name, target.url, slice, connections, target.headers));
      const after = cpuSecondsOf(target.pid);
      const answered = slices[t][slices[t].length - 1].total;
      if (before !== undefined && after !== undefined && answered > 0)
        sliceCpu[t].push(((after - before) * 1e6) / answered);
      cpu[t] =
        before === undefined || after === undefined || cpu[t] === undefined
          ? undefined
          : cpu[t]! + after - before;
    }
  return targets.map((target, t) => {
    const runs = slices[t];
    const total = runs.reduce((sum, r) => sum + r.total, 0);
    const p50s = runs.map((r) => r.p50ms).sort((a, b) => a - b);
    return {
      name: target.name,
      requestsPerSecond: Math.round(total / seconds),
      p50ms: p50s[Math.floor(p50s.length / 2)],
      p99ms: Math.max(...runs.map((r) => r.p99ms)),
      non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
      errors: runs.reduce((sum, r) => sum + r.errors, 0),
      total,
      cpuMicrosPerRequest:
        cpu[t] === undefined || total === 0 ? undefined : Math.round((cpu[t]! * 1e6) / total),
      sliceCpuMicros: sliceCpu[t].length === SLICES ? sliceCpu[t] : undefined,
    };
  });
}

/** Warm-up rounds of 2 s per server before measuring; `--warm-up N`. */
const WARM_UP_ROUNDS = Number(arg("--warm-up", "3"));

/** Alternating slices per measured server (see alternating()); `--slices N`. */
const SLICES = Number(arg("--slices", "5"));

/**
 * The median over the slices of a/b's CPU per request: each slice's pair ran back to back, so a
 * slice where the shared machine was busy weighs on both; the median drops the odd slice out.
 */
function medianSliceRatio(a: Figures, b: Figures): number | undefined {
  if (!a.sliceCpuMicros || !b.sliceCpuMicros) return undefined;
  const ratios = a.sliceCpuMicros.map((x, i) => x / b.sliceCpuMicros![i]).sort((x, y) => x - y);
  const mid = ratios.length / 2;
  return ratios.length % 2 ? ratios[Math.floor(mid)] : (ratios[mid - 1] + ratios[mid]) / 2;
}

/** What the loops of a loaded run got back: answers by status (0: failed). */
interface LoadStats {
  answered: number;
  statuses: string[];
  /** Batches only: the items answered 200 (each paid for). */
  paidItems?: number;
}

const searchStats: LoadStats = { answered: 0, statuses: [] };
const batchStats: LoadStats = { answered: 0, statuses: [], paidItems: 0 };

/**
 * Cheap /distance calls (10 connections) while `loops` loops each send `send()` one after the
 * other; the loops' answers are counted into `stats`.
 */
async function whileLooping(
  name: string,
  url: string,
  headers: Record<string, string>,
  seconds: number,
  loops: number,
  send: (loop: number) => Promise<{ status: number; paidItems?: number }>,
  stats: LoadStats
): Promise<Figures> {
  let running = true;
  const counts = new Map<number, number>();
  const loop = async (_: unknown, index: number) => {
    while (running) {
      try {
        const { status, paidItems } = await send(index);
        counts.set(status, (counts.get(status) ?? 0) + 1);
        if (paidItems !== undefined) stats.paidItems = (stats.paidItems ?? 0) + paidItems;
      } catch {
        counts.set(0, (counts.get(0) ?? 0) + 1);
      }
    }
  };
  const loopsDone = Array.from({ length: loops }, loop);
  // Let the load start before measuring.
  await new Promise((r) => setTimeout(r, 500));
  const figures = await run(name, url + LANE, seconds, 10, headers);
  running = false;
  await Promise.all(loopsDone);
  // Nothing answered at all (a blocked event loop): the p99 is at least the whole run.
  if (figures.total === 0) figures.p99ms = seconds * 1000;
  stats.answered = [...counts.values()].reduce((a, b) => a + b, 0);
  stats.statuses = [...counts].map(([st, n]) => `${n}× ${st || "failed"}`);
  return figures;
}

/** CONCURRENT_SEARCHES worst-case searches, each loop with its own key (a key may run 2 at once). */
function underSearches(
  url: string,
  headers: Record<string, string>,
  searchKeys: string[],
  seconds: number
): Promise<Figures> {
  return whileLooping(
    `service /distance while ${CONCURRENT_SEARCHES} worst-case searches run`,
    url,
    headers,
    seconds,
    CONCURRENT_SEARCHES,
    async (loop) => {
      const r = await fetch(url + WORST_SEARCH, {
        headers: { "x-api-key": searchKeys[loop % searchKeys.length] },
        signal: AbortSignal.timeout(seconds * 1000 + 120_000),
      });
      await r.arrayBuffer();
      return { status: r.status };
    },
    searchStats
  );
}

/**
 * Large paid batches: BATCH_ITEMS items each, over a few lanes of every modality and both
 * operations (distance and emissions, some with include=time,eca), all charged.
 */
const BATCH_LANES: Array<Record<string, string>> = [
  { type: "distance", origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" },
  { type: "distance", origin: "NLRTM", destination: "DEHAM", modality: "RAIL" },
  { type: "distance", origin: "NLRTM", destination: "CNSHA", modality: "DEEPSEA" },
  { type: "emissions", origin: "NLRTM", destination: "CNSHA", modality: "DEEPSEA" },
  { type: "emissions", origin: "BEANR", destination: "DEHAM", modality: "TRUCK" },
  {
    type: "distance",
    origin: "NLRTM",
    destination: "CNSHA",
    modality: "DEEPSEA",
    include: "time,eca",
  },
];
const BATCH_ITEMS = 1000;
const CONCURRENT_BATCHES = 2;

function underBatches(
  url: string,
  headers: Record<string, string>,
  batchKey: string,
  seconds: number
): Promise<Figures> {
  const body = JSON.stringify({
    requests: Array.from({ length: BATCH_ITEMS }, (_, i) => BATCH_LANES[i % BATCH_LANES.length]),
  });
  return whileLooping(
    `service /distance while ${CONCURRENT_BATCHES} × ${BATCH_ITEMS}-item paid batches run`,
    url,
    headers,
    seconds,
    CONCURRENT_BATCHES,
    async () => {
      const r = await fetch(url + "/route-information/api/batch", {
        method: "POST",
        headers: { "x-api-key": batchKey, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(seconds * 1000 + 120_000),
      });
      const answer = (await r.json()) as { results?: Array<{ status: number }> };
      return {
        status: r.status,
        paidItems: answer.results?.filter((item) => item.status === 200).length ?? 0,
      };
    },
    batchStats
  );
}

/** A key made through the CLI like an operator would (its last stdout line). */
function createKey(bin: string, dataDir: string, name: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const c = spawn(
      process.execPath,
      [
        bin,
        "keys",
        "create",
        "--data-dir",
        dataDir,
        "--name",
        name,
        "--credits",
        "100000000",
        "--rate-limit",
        "10000000",
        "--optimizer",
        "--optimizer-credits",
        "100000000",
      ],
      { cwd: ROOT }
    );
    let out = "";
    c.stdout.on("data", (d) => (out += d));
    c.on("exit", (code) =>
      code === 0
        ? resolve(out.trimEnd().split("\n").pop()!)
        : reject(new Error("keys create failed"))
    );
  });
}

async function main(): Promise<void> {
  if (process.argv.includes("--bare-server")) return bareServer();
  const seconds = Number(arg("--duration", "10"));
  const connections = Number(arg("--connections", "50"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-"));
  const bin = path.resolve(arg("--bin", path.join(ROOT, "bin", "route-sheets.js")));
  const beforeDir = arg("--before", "");

  // The keys: the measured caller's, the batch loops', and one per search loop.
  const created = await createKey(bin, dataDir, "bench");
  const batchKey = await createKey(bin, dataDir, "bench-batches");
  const searchKeys: string[] = [];
  for (let i = 0; i < CONCURRENT_SEARCHES; i++)
    searchKeys.push(await createKey(bin, dataDir, `bench-search-${i}`));
  const serve = (cli: string, dir: string) =>
    startChild([
      cli,
      "serve",
      "--port",
      "0",
      "--data-dir",
      dir,
      "--log-level",
      "warn",
      "--no-request-log",
    ]);
  const service = await serve(bin, dataDir);
  const bare = await startChild([__filename, "--bare-server"]);
  // The other build, with its own data directory and key made by its own CLI.
  const beforeBin = beforeDir ? path.resolve(beforeDir, "bin", "route-sheets.js") : "";
  const beforeData = beforeDir
    ? fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-before-"))
    : "";
  const beforeKey = beforeDir ? await createKey(beforeBin, beforeData, "bench") : "";
  const before = beforeDir ? await serve(beforeBin, beforeData) : undefined;
  const results: Figures[] = [];
  let beforeFigures: Figures | undefined;
  try {
    const headers = { "x-api-key": created };
    for (const [url, key] of [
      [service.url, created],
      ...(before ? [[before.url, beforeKey]] : []),
    ]) {
      const check = await fetch(url + LANE, { headers: { "x-api-key": key } });
      if (check.status !== 200)
        throw new Error(`service answered ${check.status}: ${await check.text()}`);
    }
    // The search threads load in the background: wait for them (one operators call each) so
    // their loading does not share the CPU with the measured runs, in the other build too.
    for (const [url, key] of [[service.url, created], ...(before ? [[before.url, beforeKey]] : [])])
      await fetch(url + "/route-optimizer/api/external/operators", {
        headers: { "x-api-key": key },
      }).then((r) => r.arrayBuffer());
    // Warm-up (JIT, SQLite page cache), then the measured runs. In WARM_UP_ROUNDS alternating
    // rounds: on a busy machine one 2 s run answers too few requests for the JIT to finish.
    for (let round = 0; round < WARM_UP_ROUNDS; round++) {
      await run("warm-up", service.url + LANE, 2, connections, headers);
      await run("warm-up", bare.url + LANE, 2, connections, {});
      if (before)
        await run("warm-up", before.url + LANE, 2, connections, { "x-api-key": beforeKey });
    }
    // The servers are measured in alternating slices rather than one after the other, so a
    // change in the machine's load (it is shared) falls on every side of the ratios alike.
    const measured = await alternating(
      [
        {
          name: "service /distance (auth + rate limit + debit)",
          url: service.url + LANE,
          headers,
          pid: service.child.pid,
        },
        { name: "bare Fastify route", url: bare.url + LANE, headers: {}, pid: bare.child.pid },
        ...(before
          ? [
              {
                name: "before: service /distance",
                url: before.url + LANE,
                headers: { "x-api-key": beforeKey },
                pid: before.child.pid,
              },
            ]
          : []),
      ],
      seconds,
      connections
    );
    results.push(measured[0], measured[1]);
    beforeFigures = measured[2];
    // --cpu-only: the CPU-per-request comparison alone (quicker, for before/after iterations).
    if (!process.argv.includes("--cpu-only")) {
      results.push(await underSearches(service.url, headers, searchKeys, seconds));
      results.push(await underBatches(service.url, headers, batchKey, seconds));
    }
  } finally {
    service.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
    before?.child.kill("SIGTERM");
  }
  const [svc, base, loaded, batched] = results;
  const ratio = svc.requestsPerSecond / base.requestsPerSecond;
  console.log(
    `route service benchmark: ${connections} connections, ${seconds} s per run, loopback, ${os.cpus().length} CPUs, Node ${process.version}`
  );
  for (const r of beforeFigures ? [...results, beforeFigures] : results) {
    console.log(
      `${r.name.padEnd(48)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.p50ms} ms  p99 ${r.p99ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}` +
        (r.cpuMicrosPerRequest === undefined
          ? ""
          : `  server CPU ${r.cpuMicrosPerRequest} µs/request`)
    );
  }
  // Throughput ratios shrink towards 1 when the machine is busy (the load generator becomes the
  // bottleneck); the servers' own CPU per request is the steadier figure of what a request costs.
  if (svc.cpuMicrosPerRequest && base.cpuMicrosPerRequest)
    console.log(
      `server CPU per request, bare / service: ${(base.cpuMicrosPerRequest / svc.cpuMicrosPerRequest).toFixed(2)} (the cost ratio behind the req/s ratio)`
    );
  const cpuRatio = medianSliceRatio(svc, base);
  if (svc.cpuMicrosPerRequest && base.cpuMicrosPerRequest)
    console.log(
      `server CPU per request, service / bare: ${(svc.cpuMicrosPerRequest / base.cpuMicrosPerRequest).toFixed(2)} over the run, ${cpuRatio?.toFixed(2) ?? "?"} median of the ${SLICES} slices (goal ≤ 1.5: ${(cpuRatio ?? Infinity) <= 1.5 ? "met" : "NOT met"})`
    );
  if (beforeFigures?.cpuMicrosPerRequest && base.cpuMicrosPerRequest && svc.cpuMicrosPerRequest)
    console.log(
      `before (${beforeDir}): server CPU per request, before / bare: ${(beforeFigures.cpuMicrosPerRequest / base.cpuMicrosPerRequest).toFixed(2)} over the run, ${medianSliceRatio(beforeFigures, base)?.toFixed(2) ?? "?"} median of the slices; now / before: ${(svc.cpuMicrosPerRequest / beforeFigures.cpuMicrosPerRequest).toFixed(2)} over the run, ${medianSliceRatio(svc, beforeFigures)?.toFixed(2) ?? "?"} median of the slices`
    );
  console.log(
    `ratio service / bare: ${ratio.toFixed(2)} (goal ≥ 0.5: ${ratio >= 0.5 ? "met" : "NOT met"}; ≥ 10,000 req/s: ${svc.requestsPerSecond >= 10_000 ? "met" : "NOT met"})`
  );
  if (loaded)
    console.log(
      `/distance p99 while ${CONCURRENT_SEARCHES} worst-case searches run: ${loaded.p99ms} ms (goal < 20 ms: ${loaded.p99ms < 20 ? "met" : "NOT met"}); searches answered: ${searchStats.answered} (${searchStats.statuses.join(", ")})`
    );
  if (batched)
    console.log(
      `/distance p99 while ${CONCURRENT_BATCHES} × ${BATCH_ITEMS}-item paid batches run: ${batched.p99ms} ms (goal < 20 ms: ${batched.p99ms < 20 ? "met" : "NOT met"}); batches answered: ${batchStats.answered} (${batchStats.statuses.join(", ")}), ${batchStats.paidItems} paid items`
    );
  const out = arg("--out", "");
  if (out)
    fs.writeFileSync(
      out,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          connections,
          seconds,
          cpus: os.cpus().length,
          node: process.version,
          results,
          before: beforeFigures,
          ratio,
          cpuRatio,
          searches: searchStats,
          batches: batchStats,
        },
        null,
        2
      ) + "\n"
    );
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (beforeData) fs.rmSync(beforeData, { recursive: true, force: true });
  if (svc.non2xx > 0 || svc.errors > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
