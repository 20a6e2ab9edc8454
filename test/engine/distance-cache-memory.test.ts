/**
 * The engine's caches are bounded by bytes, and a cached lane keeps no path until one is read
 * (issue 31: 51k distinct lanes took RSS from 206 to 883 MB). In a child process with the garbage
 * collector exposed (dist/ is built by `npm test`): thousands of distinct sea lanes with fresh ends
 * through an engine whose caches have small budgets leave the heap within those budgets plus the
 * router's bounded memory of ports; the cached lanes still give their paths, and the same ones.
 */
import { spawnSync } from "child_process";
import * as path from "path";

const DIST = path.resolve(__dirname, "..", "..", "dist");

const SCRIPT = `
const dist = process.argv[1];
const { loadEngine } = require(dist + "/data/load-engine.js");
const sea = require(dist + "/data/sea.js");
const { NetworkSeaRouter } = require(dist + "/engine/routing/sea/index.js");
const { RouteEngine } = require(dist + "/engine/route-engine.js");
const BUDGET = 2 * 2 ** 20;
const base = loadEngine();
const { chains, hierarchies } = sea.loadSeaTables();
const router = new NetworkSeaRouter(sea.loadSeaNetwork().graph, {
  chains, hierarchies, land: sea.loadSnapLand().mask, coast: sea.loadCoastIndex(),
  areas: sea.readPassageAreas(), cacheBytes: BUDGET, rememberedEnds: 300,
});
const engine = new RouteEngine({ ...base.parts, sea: router }, { distanceCacheBytes: BUDGET });
let seed = 5;
const r = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
// Fresh ends on open water and along coasts: random points in the North Atlantic and its seas.
const point = () => (35 + r() * 25).toFixed(4) + "," + (-60 + r() * 60).toFixed(4);
const heap = () => { global.gc(); return process.memoryUsage().heapUsed; };
const lane = () => ({ origin: point(), destination: point(), modality: "DEEPSEA" });
for (let i = 0; i < 300; i++) try { engine.distance(lane()); } catch {}
const before = heap();
const kept = [];
let routed = 0;
for (let i = 0; i < ${"${N}"}; i++) {
  const q = lane();
  try { engine.distance(q); routed++; if (i % 500 === 0) kept.push(q); } catch {}
}
const after = heap();
// Paths read from cached lanes: the same as a fresh engine's, and counted in the budget.
let samePaths = 0;
const fresh = new RouteEngine({ ...base.parts });
for (const q of kept) {
  const a = engine.distance(q).path;
  const b = fresh.distance(q).path;
  if (a.length > 1 && JSON.stringify(a) === JSON.stringify(b)) samePaths++;
}
console.log(JSON.stringify({ routed, growth: after - before, samePaths, kept: kept.length,
  cacheBytes: engine.distanceCache.bytes, seaBytes: router.cache.bytes }));
`;

describe("distance cache memory", () => {
  it("stays within its byte budgets over thousands of distinct lanes; paths made again on reading", () => {
    const N = 6000;
    const run = spawnSync(
      process.execPath,
      ["--expose-gc", "-e", SCRIPT.replace("${N}", String(N)), DIST],
      { encoding: "utf8", timeout: 300_000 }
    );
    expect(run.stderr).toBe("");
    const out = JSON.parse(run.stdout.trim().split("\n").pop()!) as {
      routed: number;
      growth: number;
      samePaths: number;
      kept: number;
      cacheBytes: number;
      seaBytes: number;
    };
    expect(out.routed).toBeGreaterThan(N * 0.9);
    expect(out.cacheBytes).toBeLessThanOrEqual(2 * 2 ** 20);
    expect(out.seaBytes).toBeLessThanOrEqual(2 * 2 ** 20);
    // Two 2 MB budgets, 300 remembered ports and the legs tried between network points: about
    // 4 MB measured; a cache that kept each lane's search state (≈ 3–16 KB a lane) holds 20–100 MB.
    expect(out.growth).toBeLessThan(12 * 2 ** 20);
    expect(out.samePaths).toBe(out.kept);
  });
});
