/**
 * npm run bench:cluster — GET /route-information/api/distance through nginx, in one run:
 *   1. one instance on SQLite (the embedded default),
 *   2. one instance on PostgreSQL + Redis,
 *   3. two instances on PostgreSQL + Redis,
 * and, to see where the time goes, the PostgreSQL instance without nginx and without Redis (rate
 * limits in memory), plus the CPU time each process group (service instances, PostgreSQL, Redis,
 * nginx, the load generator) spent per 1,000 requests. Real servers from the Debian packages on loopback (test/support/servers.js),
 * PostgreSQL with its durable defaults (fsync, synchronous commit). Prints req/s, p50/p99 and the
 * ratios; writes the figures as JSON with --out FILE. The SQLite and the PostgreSQL + Redis
 * instance run side by side and are measured in alternating slices (`--slices N`, default 5).
 */
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { autocannon } from "./autocannon";

const ROOT = path.resolve(__dirname, "..", "..");
const BIN = path.join(ROOT, "bin", "route-sheets.js");
const LANE = "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK";

/** The launchers shared with the tests (plain CommonJS, so this compiled script can load them). */
interface Launched {
  pid: number;
  url: string;
  stop(): Promise<void>;
}
interface Servers {
  startPostgres(o?: {
    durable?: boolean;
  }): Promise<Launched & { createDatabase(p?: string): Promise<string> }>;
  startRedis(): Promise<Launched>;
  startNginx(upstreams: string[], o?: { workers?: number }): Promise<Launched>;
}
const servers = require(path.join(ROOT, "test", "support", "servers.js")) as Servers;

interface Figures {
  name: string;
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  errors: number;
  total: number;
  /** CPU milliseconds per 1,000 requests by process group. */
  cpuMsPer1000: Record<string, number>;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** utime + stime of a process in ms (0 when it is gone). */
function cpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** A process and its children (PostgreSQL backends, nginx workers). */
function family(pid: number): number[] {
  const pids = [pid];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

type Groups = Record<string, () => number[]>;

/**
 * Resolves once the processes are idle (under 5 % of a core over 500 ms, at most 90 s): an
 * instance prints "Listening" while its search thread is still loading its data, and that start-up
 * CPU must not be counted as the cost of the requests measured next.
 */
async function settled(pids: number[]): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const before = pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
    await new Promise((r) => setTimeout(r, 500));
    const used = pids.reduce((sum, pid) => sum + cpuMs(pid), 0) - before;
    if (used <= 25 * pids.length || Date.now() > deadline) return;
  }
}

function sampleCpu(groups: Groups): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, pids] of Object.entries(groups))
    out[name] = pids().reduce((sum, pid) => sum + cpuMs(pid), 0);
  out["load generator"] = (process.cpuUsage().user + process.cpuUsage().system) / 1000;
  return out;
}

function run(
  name: string,
  url: string,
  seconds: number,
  connections: number,
  headers: Record<string, string>,
  groups: Groups
): Promise<Figures> {
  const before = sampleCpu(groups);
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: seconds, connections, headers }, (err, r) => {
      if (err) return reject(err);
      const after = sampleCpu(groups);
      const per = (ms: number) => Math.round((ms / Math.max(1, r.requests.total)) * 1000);
      resolve({
        name,
        requestsPerSecond: Math.round(r.requests.average),
        p50ms: r.latency.p50,
        p99ms: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        total: r.requests.total,
        cpuMsPer1000: Object.fromEntries(
          Object.keys(after).map((k) => [k, per(after[k] - (before[k] ?? 0))])
        ),
      });
    });
  });
}

function serve(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--port", "0", "--log-level", "warn", "--no-request-log", ...args],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] }
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /Listening on (\S+)/.exec(out);
      if (m) resolve({ child, url: m[1] });
    });
    child.on("exit", (code) => reject(new Error(`serve ${args.join(" ")} exited with ${code}`)));
  });
}

function createKey(args: string[]): string {
  const out = execFileSync(
    process.execPath,
    [
      BIN,
      "keys",
      "create",
      "--name",
      "bench",
      "--credits",
      "1000000000",
      "--rate-limit",
      "100000000",
      // Optimizer access: the operators call below waits for an instance's search thread.
      "--optimizer",
      ...args,
    ],
    { cwd: ROOT, encoding: "utf8" }
  );
  return out.trimEnd().split("\n").pop()!;
}

interface Setup {
  name: string;
  instances: Array<{ child: ChildProcess; url: string }>;
  url: string;
  key: string;
  groups: Groups;
  stop(): Promise<void>;
}

/** Alternating slices of the SQLite / PostgreSQL comparison; `--slices N`. */
const SLICES = Number(arg("--slices", "5"));

/** Slices of one setup as one run: requests and CPU summed, p50 the median slice's, p99 the worst. */
function sumSlices(runs: Figures[], seconds: number): Figures {
  const total = runs.reduce((sum, r) => sum + r.total, 0);
  const p50s = runs.map((r) => r.p50ms).sort((a, b) => a - b);
  const cpu: Record<string, number> = {};
  // cpuMsPer1000 of each slice back to milliseconds, summed, then per 1,000 of all requests.
  for (const r of runs)
    for (const [k, v] of Object.entries(r.cpuMsPer1000))
      cpu[k] = (cpu[k] ?? 0) + (v * r.total) / 1000;
  return {
    name: runs[0].name,
    requestsPerSecond: Math.round(total / seconds),
    p50ms: p50s[Math.floor(p50s.length / 2)],
    p99ms: Math.max(...runs.map((r) => r.p99ms)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    total,
    cpuMsPer1000: Object.fromEntries(
      Object.entries(cpu).map(([k, ms]) => [k, Math.round((ms / Math.max(1, total)) * 1000)])
    ),
  };
}

async function main(): Promise<void> {
  const seconds = Number(arg("--duration", "10"));
  const connections = Number(arg("--connections", "40"));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-cluster-"));
  const [postgres, redis] = await Promise.all([
    servers.startPostgres({ durable: true }),
    servers.startRedis(),
  ]);
  const started: Array<() => Promise<void>> = [
    () => postgres.stop(),
    () => redis.stop(),
    async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  ];
  const results: Figures[] = [];
  try {
    const database = await postgres.createDatabase("bench");
    // One search thread per instance: the benchmark calls /distance only.
    const config = path.join(dataDir, "serve.json");
    fs.writeFileSync(config, JSON.stringify({ optimizer: { threads: 1 } }));
    const shared = [
      "--database",
      database,
      "--redis",
      redis.url,
      // As docs/deploy.md's unit behind nginx: the balancer's request ids, believed from it only.
      "--request-id-header",
      "x-request-id",
      "--trust-proxy",
      "127.0.0.1/32",
    ];
    const pgKey = createKey(["--database", database]);
    const sqliteKey = createKey(["--data-dir", dataDir]);

    async function setup(name: string, size: number, args: string[], key: string): Promise<Setup> {
      const instances = await Promise.all(Array.from({ length: size }, () => serve(args)));
      // Each instance's search thread loads its data after "Listening" (seconds of CPU, more on a
      // busy machine than settled()'s 90 s allow): wait for it, as bench:service does, so that
      // loading is not counted as the cost of the requests measured next.
      await Promise.all(
        instances.map((i) =>
          fetch(i.url + "/route-optimizer/api/external/operators", {
            headers: { "x-api-key": key },
          }).then((r) => r.arrayBuffer())
        )
      );
      await settled(instances.map((i) => i.child.pid!));
      const nginx = await servers.startNginx(
        instances.map((i) => new URL(i.url).host),
        {
          workers: 1,
        }
      );
      const groups: Groups = {
        "service instances": () => instances.map((i) => i.child.pid!),
        nginx: () => family(nginx.pid),
        ...(args.includes("--database")
          ? { postgresql: () => family(postgres.pid), redis: () => [redis.pid] }
          : {}),
      };
      return {
        name,
        instances,
        url: nginx.url,
        key,
        groups,
        async stop() {
          await nginx.stop();
          for (const i of instances) i.child.kill("SIGTERM");
          await Promise.all(instances.map((i) => new Promise((r) => i.child.once("exit", r))));
        },
      };
    }

    async function warm(s: Setup, direct = false): Promise<string> {
      const headers = { "x-api-key": s.key };
      const target = direct ? s.instances[0].url : s.url;
      const check = await fetch(target + LANE, { headers });
      if (check.status !== 200)
        throw new Error(`${s.name} answered ${check.status}: ${await check.text()}`);
      await run("warm-up", target + LANE, 2, connections, headers, s.groups);
      return target;
    }

    async function measure(s: Setup, direct = false): Promise<Figures> {
      const target = await warm(s, direct);
      const name = direct ? `${s.name}, no nginx` : s.name;
      process.stderr.write(`measuring ${name} (${seconds} s)…\n`);
      return run(name, target + LANE, seconds, connections, { "x-api-key": s.key }, s.groups);
    }

    /**
     * The setups measured in alternating slices (SLICES of seconds / SLICES each), summed: a
     * change in the shared machine's load falls on every side of their ratio alike.
     */
    async function alternately(setups: Setup[]): Promise<Figures[]> {
      const targets = [];
      for (const s of setups) targets.push(await warm(s));
      process.stderr.write(
        `measuring ${setups.map((s) => s.name).join(" | ")} in ${SLICES} alternating slices (${seconds} s each in all)…\n`
      );
      const slices = setups.map(() => [] as Figures[]);
      for (let i = 0; i < SLICES; i++)
        for (const [k, s] of setups.entries())
          slices[k].push(
            await run(
              s.name,
              targets[k] + LANE,
              seconds / SLICES,
              connections,
              { "x-api-key": s.key },
              s.groups
            )
          );
      return slices.map((runs) => sumSlices(runs, seconds));
    }

    // SQLite and PostgreSQL + Redis, the ratio the goals are about, run side by side and are
    // measured in alternating slices (one after the other, a change of the shared machine's load
    // between the two runs moved their ratio by more than the goal's margin).
    const sqlite = await setup(
      "1 instance, SQLite",
      1,
      ["--data-dir", dataDir, "--config", config],
      sqliteKey
    );
    const one = await setup(
      "1 instance, PostgreSQL + Redis",
      1,
      [...shared, "--data-dir", dataDir, "--config", config],
      pgKey
    );
    results.push(...(await alternately([sqlite, one])));
    await sqlite.stop();
    results.push(await measure(one, true));
    await one.stop();
    const two = await setup(
      "2 instances, PostgreSQL + Redis",
      2,
      [...shared, "--data-dir", dataDir, "--config", config],
      pgKey
    );
    results.push(await measure(two));
    await two.stop();
    // Redis's share: the same instance with in-memory rate limits.
    const noRedis = await setup(
      "1 instance, PostgreSQL, limits in memory",
      1,
      ["--database", database, "--data-dir", dataDir, "--config", config],
      pgKey
    );
    results.push(await measure(noRedis));
    await noRedis.stop();
  } finally {
    for (const stop of started) await stop();
  }

  const [sq, pg1, pg1direct, pg2, pgNoRedis] = results;
  console.log(
    `cluster benchmark: GET /distance through nginx, ${connections} connections, ${seconds} s per run, loopback, ${os.cpus().length} CPUs (load average ${os.loadavg()[0].toFixed(1)} at the end), Node ${process.version}`
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(42)} ${String(r.requestsPerSecond).padStart(6)} req/s  p50 ${r.p50ms} ms  p99 ${r.p99ms} ms  non-2xx ${r.non2xx}  errors ${r.errors}`
    );
    console.log(
      `${"".padEnd(42)} CPU ms per 1,000 requests: ${Object.entries(r.cpuMsPer1000)
        .map(([k, v]) => `${k} ${v}`)
        .join(", ")}`
    );
  }
  const ratio = (a: Figures, b: Figures) => (a.requestsPerSecond / b.requestsPerSecond).toFixed(2);
  const ratios = {
    "1 PG / 1 SQLite": ratio(pg1, sq),
    "2 PG / 1 PG": ratio(pg2, pg1),
    "2 PG / 1 SQLite": ratio(pg2, sq),
    "1 PG via nginx / direct": ratio(pg1, pg1direct),
    "1 PG+Redis / 1 PG without Redis": ratio(pg1, pgNoRedis),
  };
  console.log(
    `ratios (req/s): ${Object.entries(ratios)
      .map(([k, v]) => `${k} ${v}`)
      .join(", ")}`
  );
  // The goals of issue 21, in this run's own figures.
  const totalCpu = (r: Figures) =>
    (r.cpuMsPer1000["service instances"] ?? 0) +
    (r.cpuMsPer1000.postgresql ?? 0) +
    (r.cpuMsPer1000.redis ?? 0);
  const cpuRatio = totalCpu(pg1) / Math.max(1, totalCpu(sq));
  const speedRatio = pg1.requestsPerSecond / Math.max(1, sq.requestsPerSecond);
  const instanceRatio =
    (pg1.cpuMsPer1000["service instances"] ?? 0) /
    Math.max(1, sq.cpuMsPer1000["service instances"] ?? 0);
  // Issue 31's goal (issue 21's was 2.5×).
  const goals = [
    {
      goal: "total CPU per 1,000 requests (instances + PostgreSQL + Redis) ≤ 1.5× SQLite's",
      value: `${totalCpu(pg1)} vs ${totalCpu(sq)} ms: ${cpuRatio.toFixed(2)}× (the instance alone ${instanceRatio.toFixed(2)}×)`,
      met: cpuRatio <= 1.5,
    },
    {
      goal: "1 PostgreSQL instance ≥ 0.6× the requests/s of 1 SQLite instance",
      value: `${speedRatio.toFixed(2)}×`,
      met: speedRatio >= 0.6,
    },
  ];
  for (const g of goals) console.log(`goal: ${g.goal}: ${g.value} (${g.met ? "met" : "NOT met"})`);
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
          ratios,
          goals,
        },
        null,
        2
      ) + "\n"
    );
  if (results.some((r) => r.non2xx > 0 || r.errors > 0)) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
