/**
 * include=eca's measure of a routed path, remembered per path: a batch asks it for the same lane
 * again and again (a 1,000-item batch of six lanes measured NLRTM–CNSHA ~170 times, 0.6–0.7 ms
 * each, cutting 19,000 km into 10 km pieces). The engine hands out the same path array for a
 * cached lane, so the array itself is the key (held weakly: a path the engine drops is forgotten
 * here too). Each answer gets its own copy, so no answer can change another's.
 */
import { EcaAreas, EcaResult } from "../../engine/voyage/eca";
import { LatLng } from "../../engine/types";

/** Per areas instance, per path: results by distance and date (a few at most per path). */
const memo = new WeakMap<EcaAreas, WeakMap<readonly LatLng[], Map<string, EcaResult>>>();
const PER_PATH = 8;

export function measureEca(
  areas: EcaAreas,
  path: readonly LatLng[],
  distance: number,
  asOf: string
): EcaResult {
  let byPath = memo.get(areas);
  if (!byPath) memo.set(areas, (byPath = new WeakMap()));
  let results = byPath.get(path);
  if (!results) byPath.set(path, (results = new Map()));
  const key = `${distance} ${asOf}`;
  let r = results.get(key);
  if (!r) {
    r = areas.measure(path, distance, asOf);
    if (results.size >= PER_PATH) results.clear();
    results.set(key, r);
  }
  return { ...r, areas: r.areas.map((a) => ({ ...a })) };
}
