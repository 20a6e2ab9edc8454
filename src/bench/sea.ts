/**
 * `npm run bench`: our sea router against searoute-js on the same 1,000 random port pairs (ports
 * from the sea-ports package, fixed seed): graph build time, time per query and speed ratio,
 * agreement in km (searoute-js's route length recomputed by us on WGS84, and its own figure
 * corrected for its ×1.324 nautical-mile overstatement), and the trans-Pacific pairs where the
 * two differ a lot (searoute-js never joins ±180°).
 */
import {
  buildSeaGraphFromFiles,
  loadSeaNetwork,
  loadSeaTables,
  loadSnapLand,
  readPassageAreas,
} from "../data/sea";
import { geodesicMeters, NetworkSeaRouter, passageEdgeCounts } from "../engine/routing/sea";
import { LatLng, Passage, PASSAGES } from "../engine/types";

const PAIRS = 1000;
/**
 * Queries run before timing (on other pairs), so neither router is measured while V8 is still
 * compiling it: ours needs a few thousand of its ~0.1 ms queries (≈0.5 s), searoute-js's ~10 ms
 * queries are long enough that a few hundred suffice (≈3 s).
 */
const WARMUP_OURS = 3000;
const WARMUP_THEIRS = 300;
const SEAROUTE_BUDGET_MS = 100_000;
const DEFAULT_CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);
/** searoute-js multiplies statute miles by 1.15078 instead of dividing: nm are 1.15078² too big. */
const SEAROUTE_NM_FACTOR = 1.15078 * 1.15078;

interface PortPoint extends LatLng {
  code: string;
}

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function loadPorts(): PortPoint[] {
  const json = require("sea-ports").JSON as Record<string, { coordinates?: [number, number] }>;
  return Object.entries(json)
    .filter(([, p]) => Array.isArray(p.coordinates) && p.coordinates.length === 2)
    .map(([code, p]) => ({ code, lng: Number(p.coordinates![0]), lat: Number(p.coordinates![1]) }))
    .filter(
      (p) =>
        Number.isFinite(p.lat) &&
        Number.isFinite(p.lng) &&
        Math.abs(p.lat) <= 90 &&
        Math.abs(p.lng) <= 180
    )
    .sort((a, b) => a.code.localeCompare(b.code));
}

function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

function pathMeters(coords: number[][]): number {
  let m = 0;
  for (let i = 1; i < coords.length; i++)
    m += geodesicMeters(coords[i - 1][1], coords[i - 1][0], coords[i][1], coords[i][0]);
  return m;
}

/** A full garbage collection before each timed run, so neither router pays for the other's (or the build's) garbage. */
function collectGarbage(): void {
  try {
    require("v8").setFlagsFromString("--expose_gc");

    const gc = require("vm").runInNewContext("gc") as () => void;
    gc();
  } catch {
    // Not available: the timings then include whatever collection happens to run.
  }
}

function fmt(n: number, digits = 0): string {
  return n.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

function main(): void {
  console.log("Sea distance benchmark: our MARNET router vs searoute-js\n");

  // Start-up (what the CLI pays at each start): graph, chain graph + core table, snapping land raster.
  const network = loadSeaNetwork();
  const coldTables = loadSeaTables({ useCache: false });
  const coldLand = loadSnapLand({ useCache: false });
  const warmTables = loadSeaTables();
  const warmLand = loadSnapLand();
  const rebuilds: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    buildSeaGraphFromFiles();
    rebuilds.push(performance.now() - t);
  }
  const g = network.graph;
  const table = warmTables.tables[0];
  console.log(
    `Graph: ${fmt(g.vertexCount)} vertices, ${fmt(g.edgeCount)} edges (MARNET + estuary approaches + open-sea shortcuts), ${g.stitched} dangling ends stitched`
  );
  console.log(
    `Chain graph: ${fmt(warmTables.chains.junctionCount)} junctions, ${fmt(warmTables.chains.chainCount)} chains; core table ${fmt(table.size)} × ${fmt(table.size)} for the default closed set`
  );
  const coldTotal =
    network.readMs + network.buildMs + coldTables.chainMs + coldTables.tableMs + coldLand.ms;
  const warmTotal =
    network.readMs + network.buildMs + warmTables.chainMs + warmTables.tableMs + warmLand.ms;
  console.log(
    `Build, first start on a machine: read ${fmt(network.readMs, 1)} + graph ${fmt(network.buildMs, 1)} + chains ${fmt(coldTables.chainMs, 1)} + table ${fmt(coldTables.tableMs, 1)} + land raster ${fmt(coldLand.ms, 1)} = ${fmt(coldTotal, 1)} ms`
  );
  console.log(
    `Build, later starts (table and raster from the cache in the OS temp dir${warmTables.fromCache && warmLand.fromCache ? "" : " — cache NOT used"}): read ${fmt(network.readMs, 1)} + graph ${fmt(network.buildMs, 1)} + chains ${fmt(warmTables.chainMs, 1)} + table ${fmt(warmTables.tableMs, 1)} + land ${fmt(warmLand.ms, 1)} = ${fmt(warmTotal, 1)} ms (goal < 500 ms)`
  );
  console.log(`Graph rebuild in a warm process: median ${fmt(quantile(rebuilds, 0.5), 1)} ms`);
  const counts = passageEdgeCounts(g);
  console.log(`Passage edges: ${PASSAGES.map((p) => `${p} ${counts[p]}`).join(", ")}`);
  const missing = PASSAGES.filter((p) => counts[p] === 0);
  console.log(`Passages with no network edge: ${missing.length ? missing.join(", ") : "none"}\n`);

  const ports = loadPorts();
  const r = rng(20240601);
  const pairs: Array<[PortPoint, PortPoint]> = [];
  const warmup: Array<[PortPoint, PortPoint]> = [];
  while (warmup.length < WARMUP_OURS) {
    const a = ports[Math.floor(r() * ports.length)];
    const b = ports[Math.floor(r() * ports.length)];
    if (a.code !== b.code) warmup.push([a, b]);
  }
  while (pairs.length < PAIRS) {
    const a = ports[Math.floor(r() * ports.length)];
    const b = ports[Math.floor(r() * ports.length)];
    if (a.code !== b.code) pairs.push([a, b]);
  }

  // Ours: a fresh router (empty cache), every query a real search; warmed up on other pairs.
  const options = {
    chains: warmTables.chains,
    tables: warmTables.tables,
    land: warmLand.mask,
    areas: readPassageAreas(),
  };
  const warmRouter = new NetworkSeaRouter(g, options);
  for (const [a, b] of warmup) warmRouter.route(a, b, { closed: DEFAULT_CLOSED });
  const router = new NetworkSeaRouter(g, options);
  collectGarbage();
  const ours: Array<number | null> = [];
  const oursMs: number[] = [];
  const tOurs = performance.now();
  for (const [a, b] of pairs) {
    const t = performance.now();
    const route = router.route(a, b, { closed: DEFAULT_CLOSED });
    oursMs.push(performance.now() - t);
    ours.push(route ? route.meters : null);
  }
  const oursTotal = performance.now() - tOurs;
  const tCached = performance.now();
  for (const [a, b] of pairs) router.route(a, b, { closed: DEFAULT_CLOSED });
  const cachedMs = (performance.now() - tCached) / pairs.length;

  // searoute-js (loads and indexes its network on require; prints to console.log on every query).
  const tLoad = performance.now();

  const searoute = require("searoute-js") as (
    o: unknown,
    d: unknown,
    units?: string
  ) => { geometry: { coordinates: number[][] }; properties: { length: number } } | null;
  const loadMs = performance.now() - tLoad;
  const point = (p: LatLng) => ({
    type: "Feature",
    properties: {},
    geometry: { type: "Point", coordinates: [p.lng, p.lat] },
  });
  {
    const log = console.log;
    console.log = () => undefined;
    try {
      for (const [a, b] of warmup.slice(0, WARMUP_THEIRS)) {
        try {
          searoute(point(a), point(b), "nm");
        } catch {
          // counted below
        }
      }
    } finally {
      console.log = log;
    }
  }
  const theirs: Array<{ geometryM: number; ownNmCorrectedM: number } | null> = [];
  const theirsMs: number[] = [];
  collectGarbage();
  const log = console.log;
  const tTheirs = performance.now();
  console.log = () => undefined;
  try {
    for (const [a, b] of pairs) {
      if (performance.now() - tTheirs > SEAROUTE_BUDGET_MS) break;
      const t = performance.now();
      let res: ReturnType<typeof searoute> = null;
      try {
        res = searoute(point(a), point(b), "nm");
      } catch {
        res = null;
      }
      theirsMs.push(performance.now() - t);
      theirs.push(
        res
          ? {
              geometryM: pathMeters(res.geometry.coordinates),
              ownNmCorrectedM: (res.properties.length / SEAROUTE_NM_FACTOR) * 1852,
            }
          : null
      );
    }
  } finally {
    console.log = log;
  }
  const compared = theirs.length;

  const oursMean = oursTotal / pairs.length;
  const theirsMean = theirsMs.reduce((s, x) => s + x, 0) / Math.max(1, compared);
  console.log(
    `Queries: ${fmt(PAIRS)} random pairs of sea-ports ports (seed 20240601), after warm-up queries on other pairs (ours ${fmt(WARMUP_OURS)}, searoute-js ${fmt(WARMUP_THEIRS)}); searoute-js timed on ${fmt(compared)} of them${compared < PAIRS ? ` (stopped at its ${SEAROUTE_BUDGET_MS / 1000} s budget)` : ""}`
  );
  console.log(
    `Ours answered ${fmt(router.tableHits)} of ${fmt(router.searches)} searches from the core table`
  );
  console.log("");
  console.log("                       ours          searoute-js");
  console.log(
    `load/build             ${fmt(coldTotal, 1).padStart(8)} ms   ${fmt(loadMs, 1).padStart(8)} ms (require; ours: first start, ${fmt(warmTotal, 1)} ms with the cache)`
  );
  console.log(
    `mean per query         ${fmt(oursMean, 3).padStart(8)} ms   ${fmt(theirsMean, 3).padStart(8)} ms`
  );
  console.log(
    `median per query       ${fmt(quantile(oursMs, 0.5), 3).padStart(8)} ms   ${fmt(quantile(theirsMs, 0.5), 3).padStart(8)} ms`
  );
  console.log(
    `p99 per query          ${fmt(quantile(oursMs, 0.99), 3).padStart(8)} ms   ${fmt(quantile(theirsMs, 0.99), 3).padStart(8)} ms`
  );
  console.log(`cached query (ours)    ${fmt(cachedMs, 4).padStart(8)} ms`);
  console.log(
    `no route               ${String(ours.filter((x) => x === null).length).padStart(8)}      ${String(theirs.filter((x) => x === null).length).padStart(8)}`
  );
  console.log(`speed-up (mean)        ${fmt(theirsMean / oursMean, 1)}× faster (goal ≥ 100×)`);
  console.log(
    `speed-up (median)      ${fmt(quantile(theirsMs, 0.5) / quantile(oursMs, 0.5), 1)}× faster\n`
  );

  const diffGeomKm: number[] = [];
  const diffOwnKm: number[] = [];
  const relGeom: number[] = [];
  const pacific: string[] = [];
  for (let i = 0; i < compared; i++) {
    const o = ours[i];
    const t = theirs[i];
    if (o === null || !t) continue;
    const d = Math.abs(o - t.geometryM) / 1000;
    diffGeomKm.push(d);
    diffOwnKm.push(Math.abs(o - t.ownNmCorrectedM) / 1000);
    relGeom.push(Math.abs(o - t.geometryM) / Math.max(o, 1));
    const [a, b] = pairs[i];
    const transPacific = (a.lng > 100 && b.lng < -60) || (b.lng > 100 && a.lng < -60);
    if (transPacific && t.geometryM > o * 1.3) {
      pacific.push(
        `  ${a.code} → ${b.code}: ours ${fmt(o / 1000)} km, searoute-js ${fmt(t.geometryM / 1000)} km (×${(t.geometryM / o).toFixed(2)})`
      );
    }
  }
  console.log(`Agreement on ${fmt(diffGeomKm.length)} pairs both routed (|ours − theirs|):`);
  console.log(
    `  vs their geometry measured by us on WGS84: median ${fmt(quantile(diffGeomKm, 0.5), 1)} km, p90 ${fmt(quantile(diffGeomKm, 0.9), 1)} km, median ${fmt(quantile(relGeom, 0.5) * 100, 2)} %, p90 ${fmt(quantile(relGeom, 0.9) * 100, 1)} %`
  );
  console.log(
    `  vs their own length ÷ 1.324 (nm overstatement corrected): median ${fmt(quantile(diffOwnKm, 0.5), 1)} km, p90 ${fmt(quantile(diffOwnKm, 0.9), 1)} km`
  );
  console.log(
    `\nTrans-Pacific pairs where searoute-js is ≥ 30 % longer (it never joins ±180°, so it goes round the world): ${pacific.length}`
  );
  for (const line of pacific.slice(0, 25)) console.log(line);
  if (pacific.length > 25) console.log(`  … and ${pacific.length - 25} more`);
}

main();
