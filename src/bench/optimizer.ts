/**
 * Route optimizer benchmark: p50/p99 search time over 1,000 random LOCODE origin/destination pairs
 * on the sample network, then on a generated network ten times larger (every service repeated ten
 * times with shifted departure days and hours and its own code, so trips and connections grow
 * tenfold on the same ports). Run: npm run bench:optimizer [-- --pairs N]
 *
 * Goals (issue 21) on the 10x network: p50 under 20 ms and p99 under 100 ms; the script prints
 * each goal and whether this run met it.
 */
import { loadEngine } from "../data/load-engine";
import { PARAMETERS_FILE, scheduleData } from "../data/optimizer";
import {
  createOptimizer,
  engineGeography,
  ScheduleData,
  ScheduleOptimizer,
  ScheduleParameters,
} from "../engine/optimizer";
import fs from "node:fs";
import { scaledSchedule } from "./scaled-schedule";

const NOW = new Date();
const pairsArg = process.argv.indexOf("--pairs");
const PAIRS = pairsArg > 0 ? Number(process.argv[pairsArg + 1]) : 1000;
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
  const [sample, tenfold] = timings;
  console.log(
    `\n10x / sample in this run: p50 ${(tenfold.p50 / sample.p50).toFixed(1)}x, p99 ${(tenfold.p99 / sample.p99).toFixed(1)}x`
  );
  console.log("Goals on the 10x network:");
  for (const key of ["p50", "p99"] as const) {
    const met = tenfold[key] < GOALS[key];
    console.log(
      `  ${key} < ${GOALS[key]} ms: ${tenfold[key].toFixed(1)} ms, ${met ? "met" : "NOT met"}`
    );
  }
}

function report(optimizer: ScheduleOptimizer, n: number): Timing {
  const stops = optimizer.network.stops.map((s) => s.locode);
  let seed = 20261121;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pairs: Array<[string, string]> = [];
  while (pairs.length < n) {
    const a = stops[Math.floor(rnd() * stops.length)];
    const b = stops[Math.floor(rnd() * stops.length)];
    if (a !== b) pairs.push([a, b]);
  }
  // Warm-up: JIT and the engine's truck-distance cache for first/last mile.
  for (const [a, b] of pairs.slice(0, 50)) optimizer.search(query(a, b));
  const times: number[] = [];
  let results = 0;
  let empty = 0;
  for (const [a, b] of pairs) {
    const t = performance.now();
    const r = optimizer.search(query(a, b));
    times.push(performance.now() - t);
    results += r.results.length;
    if (!r.results.length) empty++;
  }
  times.sort((x, y) => x - y);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))];
  const pct = (p: number) => at(p).toFixed(1);
  console.log(
    `  search p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, p99 ${pct(0.99)} ms, max ${times[times.length - 1].toFixed(1)} ms`
  );
  console.log(
    `  ${(results / n).toFixed(1)} options per query on average; ${empty} of ${n} pairs without a route`
  );
  return { p50: at(0.5), p99: at(0.99) };
}

function query(origin: string, destination: string) {
  return { origin, originType: "LOCODE", destination, destinationType: "LOCODE" };
}

main();
