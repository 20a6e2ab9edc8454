/**
 * npm run bench:service — autocannon on loopback against GET /route-information/api/distance with a
 * valid key (one cached lane: the cost measured is the service path — auth, rate limit, credit
 * debit in SQLite — not routing), next to a bare Fastify route, each server in its own child process.
 * Prints requests/s, p50/p99 latency and the ratio; writes the figures as JSON when --out is given.
 */
import { ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "..", "..");
const LANE = "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK";

/** The part of autocannon's API used here (the package ships no types). */
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (
  options: { url: string; duration: number; connections: number; headers: Record<string, string> },
  done: (err: Error | null, result: AutocannonResult) => void
) => unknown;
const autocannon = require("autocannon") as Autocannon;

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  total: number;
}

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

async function main(): Promise<void> {
  if (process.argv.includes("--bare-server")) return bareServer();
  const seconds = Number(arg("--duration", "10"));
  const connections = Number(arg("--connections", "50"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-"));
  const bin = path.join(ROOT, "bin", "route-sheets.js");

  // The key: created through the CLI like an operator would (last stdout line).
  const created = await new Promise<string>((resolve, reject) => {
    const c = spawn(
      process.execPath,
      [
        bin,
        "keys",
        "create",
        "--data-dir",
        dataDir,
        "--name",
        "bench",
        "--credits",
        "100000000",
        "--rate-limit",
        "10000000",
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
  const service = await startChild([
    bin,
    "serve",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--log-level",
    "warn",
    "--no-request-log",
  ]);
  const bare = await startChild([__filename, "--bare-server"]);
  const results: Figures[] = [];
  try {
    const headers = { "x-api-key": created };
    const check = await fetch(service.url + LANE, { headers });
    if (check.status !== 200)
      throw new Error(`service answered ${check.status}: ${await check.text()}`);
    // Warm-up (JIT, SQLite page cache), then the measured runs.
    await run("warm-up", service.url + LANE, 2, connections, headers);
    await run("warm-up", bare.url + LANE, 2, connections, {});
    results.push(
      await run(
        "service /distance (auth + rate limit + debit)",
        service.url + LANE,
        seconds,
        connections,
        headers
      )
    );
    results.push(await run("bare Fastify route", bare.url + LANE, seconds, connections, {}));
  } finally {
    service.child.kill("SIGTERM");
    bare.child.kill("SIGTERM");
  }
  const [svc, base] = results;
  const ratio = svc.requestsPerSecond / base.requestsPerSecond;
  console.log(
    `route service benchmark: ${connections} connections, ${seconds} s per run, loopback, ${os.cpus().length} CPUs, Node ${process.version}`
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(48)} ${String(r.requestsPerSecond).padStart(7)} req/s  p50 ${r.p50ms} ms  p99 ${r.p99ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}`
    );
  }
  console.log(
    `ratio service / bare: ${ratio.toFixed(2)}  (goal ≥ 10,000 req/s: ${svc.requestsPerSecond >= 10_000 ? "met" : "NOT met"})`
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
          ratio,
        },
        null,
        2
      ) + "\n"
    );
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (svc.non2xx > 0 || svc.errors > 0) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
