/**
 * docs/deploy.md states the route engine's memory ceiling (issue 31: bound the distance cache by
 * bytes and say what it costs). The budgets it names are the ones the engine and the sea router
 * use by default, and they add up to less than the ceiling it gives operators.
 * (test/engine/distance-cache-memory.test.ts checks that the budgets bound the heap.)
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { loadSeaRouter } from "../../src/data/sea";
import { DISTANCE_CACHE_BYTES, RouteEngine } from "../../src/engine/route-engine";
import { REMEMBERED_ENDS, SEA_CACHE_BYTES } from "../../src/engine/routing/sea/tuning";

const doc = fs
  .readFileSync(path.join(__dirname, "..", "..", "docs", "deploy.md"), "utf8")
  .replace(/\s+/g, " ");
const MB = 2 ** 20;

function stated(pattern: RegExp): number[] {
  const m = pattern.exec(doc);
  if (!m) throw new Error(`docs/deploy.md no longer says ${pattern}`);
  return m.slice(1).map((x) => Number(x.replace(/,/g, "")));
}

test("the budgets docs/deploy.md states are the defaults, and they fit its ceiling", () => {
  const [distanceMb] = stated(/the distance cache holds at most (\d+) MB/);
  const [seaMb] = stated(/the sea router's route cache at most (\d+) MB/);
  const [points, pointKb] = stated(
    /remembers at most ([\d,]+) query points \(about ([\d.]+) KB each\)/
  );
  const [ceilingMb] = stated(/Reckon on at most about (\d+) MB of heap/);

  expect(DISTANCE_CACHE_BYTES).toBe(distanceMb * MB);
  expect(SEA_CACHE_BYTES).toBe(seaMb * MB);
  expect(REMEMBERED_ENDS).toBe(points);
  // What the engine and the router really use when nothing is configured.
  expect(new RouteEngine({} as never)["distanceCache"].budgetBytes).toBe(DISTANCE_CACHE_BYTES);
  const sea = loadSeaRouter();
  expect(sea["cache"].budgetBytes).toBe(SEA_CACHE_BYTES);
  expect(sea["rememberedEnds"]).toBe(REMEMBERED_ENDS);
  // The ceiling covers the budgets and the remembered points with room to spare.
  expect(distanceMb + seaMb + (points * pointKb) / 1024).toBeLessThan(ceilingMb);
});
