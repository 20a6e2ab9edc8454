/**
 * Route optimizer benchmark: p50/p99 search time over 1,000 random LOCODE origin/destination pairs
 * on the sample network, then on a generated network ten times larger (every service repeated ten
 * times with shifted departure days and hours and its own code, so trips and connections grow
 * tenfold on the same ports). Run: npm run bench:optimizer [-- --pairs N] [-- --no-compare]
 *
 * Goals (issue 21) on the 10x network: p50 under 20 ms and p99 under 100 ms; the script prints
 * each goal and whether this run met it. The machine is shared, so the same queries also run
 * through the previous search algorithm (src/bench/reference-mc-csa.ts) in the same run, and the
 * script prints the ratios: those compare across runs where wall-clock times do not.
 */
import { loadEngine } from "../data/load-engine";
import { PARAMETERS_FILE, scheduleData } from "../data/optimizer";
import {
  createOptimizer,
  engineGeography,
  parseQuery,
  ScheduleData,
  ScheduleOptimizer,
  ScheduleParameters,
} from "../engine/optimizer";
import fs from "node:fs";
import os from "node:os";
import { searchJourneys } from "../engine/optimizer/search/mc-csa";
import { searchJourneysV1 } from "./reference-mc-csa";
import { scaledSchedule } from "./scaled-schedule";

const NOW = new Date();
const pairsArg = process.argv.indexOf("--pairs");
const PAIRS = pairsArg > 0 ? Number(process.argv[pairsArg + 1]) : 1000;
const COMPARE = !process.argv.includes("--no-compare");
/** Goals on the 10x network, in milliseconds per search. */
const GOALS = { p50: 20, p99: 100 };

interface Timing {
  p50: number;
  p99: number;
}

function main(): void {
  let t = performance.now();
  const engine = loadEngine({});
  const engineMs = performance.now() - t;
  const parameters = JSON.parse(fs.readFileSync(PARAMETERS_FILE, "utf8")) as ScheduleParameters;
  const geography = engineGeography(engine);
  const build = (data: ScheduleData) =>
    createOptimizer({
      data,
      parameters,
      geography,
      resolvePlace: (v, p) => engine.parts.places.resolve(v, p),
      now: NOW,
    });

  console.log(`Engine loaded in ${engineMs.toFixed(0)} ms. Pairs per network: ${PAIRS}.`);
  console.log(`Load average at start: ${os.loadavg()[0].toFixed(1)} (${os.cpus().length} cores).`);
  const base = scheduleData();
  const timings: Timing[] = [];
  for (const [label, data] of [
    ["sample", base],
    ["10x generated", scaledSchedule(base, 10)],
  ] as const) {
    t = performance.now();
    const optimizer = build(data);
    const loadMs = performance.now() - t;
    const net = optimizer.network;
    console.log(
      `\n${label}: ${net.patterns.length} services, ${net.trips.length} trips, ${net.connections.count} connections, ${net.stops.length} stops; built in ${loadMs.toFixed(0)} ms`
    );
    timings.push(report(optimizer, PAIRS));
  }
  const loadAtEnd = os.loadavg()[0];
  const [sample, tenfold] = timings;
  console.log(
    `\n10x / sample in this run: p50 ${(tenfold.p50 / sample.p50).toFixed(1)}x, p99 ${(tenfold.p99 / sample.p99).toFixed(1)}x`
  );
  console.log(`Load average at the end: ${loadAtEnd.toFixed(1)}.`);
  console.log("Goals on the 10x network (wall-clock):");
  for (const key of ["p50", "p99"] as const) {
    const met = tenfold[key] < GOALS[key];
    console.log(
      `  ${key} < ${GOALS[key]} ms: ${tenfold[key].toFixed(1)} ms, ${met ? "met" : "NOT met"}`
    );
  }
}

function report(optimizer: ScheduleOptimizer, n: number): Timing {
  const stats = timeSearches(optimizer, n);
  if (COMPARE) compareWithPrevious(optimizer, n);
  return stats;
}

function randomPairs(optimizer: ScheduleOptimizer, n: number): Array<[string, string]> {
  const stops = optimizer.network.stops.map((s) => s.locode);
  let seed = 20261121;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pairs: Array<[string, string]> = [];
  while (pairs.length < n) {
    const a = stops[Math.floor(rnd() * stops.length)];
    const b = stops[Math.floor(rnd() * stops.length)];
    if (a !== b) pairs.push([a, b]);
  }
  return pairs;
}

function timeSearches(optimizer: ScheduleOptimizer, n: number): Timing {
  const pairs = randomPairs(optimizer, n);
  // Warm-up: JIT and the engine's truck-distance cache for first/last mile.
  for (const [a, b] of pairs.slice(0, 50)) optimizer.search(query(a, b));
  const times: number[] = [];
  // CPU time too: on a shared machine the wall clock also counts the time other processes ran.
  const cpuTimes: number[] = [];
  let results = 0;
  let empty = 0;
  for (const [a, b] of pairs) {
    const c = process.cpuUsage();
    const t = performance.now();
    const r = optimizer.search(query(a, b));
    times.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpuTimes.push((used.user + used.system) / 1000);
    results += r.results.length;
    if (!r.results.length) empty++;
  }
  times.sort((x, y) => x - y);
  cpuTimes.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
  const pct = (p: number) => at(p).toFixed(1);
  const cpuAt = (p: number) => percentile(cpuTimes, p).toFixed(1);
  console.log(
    `  search p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, p99 ${pct(0.99)} ms, max ${times[times.length - 1].toFixed(1)} ms`
  );
  console.log(
    `  search CPU time p50 ${cpuAt(0.5)} ms, p90 ${cpuAt(0.9)} ms, p99 ${cpuAt(0.99)} ms, max ${cpuTimes[cpuTimes.length - 1].toFixed(1)} ms`
  );
  console.log(
    `  ${(results / n).toFixed(1)} options per query on average; ${empty} of ${n} pairs without a route`
  );
  return { p50: at(0.5), p99: at(0.99) };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * The search alone (no parsing, access or records) by the optimized and by the previous algorithm,
 * on the same queries, interleaved so that both see the same machine load; CPU time as well as
 * wall-clock.
 */
function compareWithPrevious(optimizer: ScheduleOptimizer, n: number): void {
  const net = optimizer.network;
  const plans = randomPairs(optimizer, n).flatMap(([a, b]) => {
    const p = optimizer.plan(parseQuery(query(a, b), optimizer.defaults()));
    return p ? [p] : [];
  });
  for (const p of plans.slice(0, 20)) {
    searchJourneys(net, p.spec);
    searchJourneysV1(net, p.spec);
  }
  const wall = { now: [] as number[], before: [] as number[] };
  const cpu = { now: [] as number[], before: [] as number[] };
  const cpuMs = () => process.cpuUsage().user / 1000;
  for (const p of plans) {
    for (const [key, search] of [
      ["now", searchJourneys],
      ["before", searchJourneysV1],
    ] as const) {
      const c = cpuMs();
      const t = performance.now();
      search(net, p.spec);
      wall[key].push(performance.now() - t);
      cpu[key].push(cpuMs() - c);
    }
  }
  for (const list of [wall.now, wall.before, cpu.now, cpu.before]) list.sort((x, y) => x - y);
  const line = (label: string, m: { now: number[]; before: number[] }) =>
    `  ${label}: p50 ${percentile(m.now, 0.5).toFixed(1)} ms (previous algorithm ${percentile(m.before, 0.5).toFixed(1)} ms, ${(percentile(m.before, 0.5) / percentile(m.now, 0.5)).toFixed(2)}x faster), p99 ${percentile(m.now, 0.99).toFixed(1)} ms (previous ${percentile(m.before, 0.99).toFixed(1)} ms, ${(percentile(m.before, 0.99) / percentile(m.now, 0.99)).toFixed(2)}x faster)`;
  console.log(
    `  search alone, optimized vs previous algorithm on the same ${plans.length} queries:`
  );
  console.log(line("wall-clock", wall));
  console.log(line("CPU time  ", cpu));
}

function query(origin: string, destination: string) {
  return { origin, originType: "LOCODE", destination, destinationType: "LOCODE" };
}

main();
