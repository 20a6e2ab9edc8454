/**
 * Sea routes against a lower bound, on random coastal points (no reference table): how much longer
 * than the shortest way by water is the DEEPSEA route between two points at sea?
 *
 * - Points: a random vertex of Natural Earth 1:50m land (with the sea islands), moved 3–40 km in
 *   a random direction; kept when the exact land index says water. Seeded, so runs repeat.
 * - Bound: the great circle when it crosses no land (the exact 1:50m test the router uses);
 *   otherwise (pairs up to GRID_MAX_M) the shortest way on a fine lat/lng water grid (16 moves per
 *   cell), pulled straight against the same exact land. The grid bound is a close estimate (a
 *   grid path is never shorter than the best water path, and the pulling leaves it within a few
 *   tenths of a percent), so a route may come out a little under it.
 *
 * `node dist/bench/open-water.js [--pairs N] [--seed S] [--closed SUEZ,...]` prints the
 * distribution of route ÷ bound − 1 (median, p95, share over +10 %) and the worst pairs;
 * `--ports` instead routes every pair of sea-ports ports whose great circle is clear of land but
 * for 5 km at each end (clearPortPairs) and prints the same figures for them.
 * The same functions back test/engine/routing/sea-open-water.test.ts.
 */
import type { LatLng, Passage } from "../engine/types";
import { geodesicMeters, MEAN_RADIUS_M, RAD } from "../engine/geo/geodesy";
import { MinHeap } from "../engine/heap";
import type { LandIndex } from "../engine/routing/sea/land-crossing";
import { pointInPolygon } from "../engine/routing/sea/passages";
import { GRID_MOVES } from "../engine/graph/grid-moves";

export interface SeaRouteFn {
  (from: LatLng, to: LatLng): { meters: number } | null;
}

/** Seeded uniform numbers in [0, 1) (LCG; the same sequence on every platform). */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** A point `meters` from p on the initial bearing `bearing` (radians), on the sphere. */
export function destinationPoint(p: LatLng, meters: number, bearing: number): LatLng {
  const d = meters / MEAN_RADIUS_M;
  const phi1 = p.lat * RAD;
  const lam1 = p.lng * RAD;
  const phi2 = Math.asin(
    Math.sin(phi1) * Math.cos(d) + Math.cos(phi1) * Math.sin(d) * Math.cos(bearing)
  );
  const lam2 =
    lam1 +
    Math.atan2(
      Math.sin(bearing) * Math.sin(d) * Math.cos(phi1),
      Math.cos(d) - Math.sin(phi1) * Math.sin(phi2)
    );
  let lng = lam2 / RAD;
  lng = ((((lng + 180) % 360) + 360) % 360) - 180;
  return { lat: phi2 / RAD, lng };
}

/**
 * `count` random sea points near coasts: a random ring vertex of `polygons`, moved 3–40 km in a
 * random direction, kept when `land` says water, the latitude is within 60°S–66°N (the
 * ice limits of the shortcut generator) and
 * `exclude` (e.g. inside a closed passage's area: the Arctic passages) does not hold.
 */
export function coastalPoints(
  polygons: ReadonlyArray<ReadonlyArray<ReadonlyArray<ArrayLike<number>>>>,
  land: LandIndex,
  count: number,
  random: () => number,
  options: { offsetM?: [number, number]; exclude?: (p: LatLng) => boolean } = {}
): LatLng[] {
  const offsetM = options.offsetM ?? [3_000, 40_000];
  const vertices: number[] = [];
  for (const polygon of polygons)
    for (const ring of polygon) for (const v of ring) vertices.push(v[0], v[1]);
  const n = vertices.length / 2;
  const out: LatLng[] = [];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const i = Math.floor(random() * n);
    const v = { lng: vertices[2 * i], lat: vertices[2 * i + 1] };
    const p = destinationPoint(
      v,
      offsetM[0] + random() * (offsetM[1] - offsetM[0]),
      random() * 2 * Math.PI
    );
    if (p.lat < -60 || p.lat > 66 || land.isLand(p.lat, p.lng) || options.exclude?.(p)) continue;
    out.push({ lat: Math.round(p.lat * 1e5) / 1e5, lng: Math.round(p.lng * 1e5) / 1e5 });
  }
  return out;
}

/** Grid step (degrees of latitude) and the longest pair measured on the grid. */
const GRID_STEP_DEG = 0.04;
export const GRID_MAX_M = 1_200_000;
/** Window around the pair: this share of their distance beyond each, at least GRID_MARGIN_M. */
const GRID_MARGIN_M = 250_000;
const GRID_MAX_CELLS = 1_500_000;
const MOVES = GRID_MOVES;

/**
 * The shortest water way from a to b on a lat/lng grid of water cells (cell centres not in land,
 * a move allowed when the cells it passes are water), pulled straight against `land`: metres, or
 * null when the window holds no way. Longitudes are unwrapped next to a's.
 */
export function gridWaterMeters(a: LatLng, b: LatLng, land: LandIndex): number | null {
  let bLng = b.lng;
  while (bLng - a.lng > 180) bLng -= 360;
  while (bLng - a.lng < -180) bLng += 360;
  const gc = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
  const marginDeg = Math.max(GRID_MARGIN_M, gc * 0.5) / 111_000;
  const lat0 = Math.max(-85, Math.min(a.lat, b.lat) - marginDeg);
  const lat1 = Math.min(85, Math.max(a.lat, b.lat) + marginDeg);
  const midCos = Math.max(0.2, Math.cos(((lat0 + lat1) / 2) * RAD));
  const stepLng = GRID_STEP_DEG / midCos;
  const lng0 = Math.min(a.lng, bLng) - marginDeg / midCos;
  const lng1 = Math.max(a.lng, bLng) + marginDeg / midCos;
  const rows = Math.ceil((lat1 - lat0) / GRID_STEP_DEG) + 1;
  const cols = Math.ceil((lng1 - lng0) / stepLng) + 1;
  if (rows * cols > GRID_MAX_CELLS) return null;
  const latOf = (r: number): number => lat0 + r * GRID_STEP_DEG;
  const lngOf = (c: number): number => lng0 + c * stepLng;
  const water = new Int8Array(rows * cols).fill(-1);
  const isWater = (r: number, c: number): boolean => {
    const i = r * cols + c;
    if (water[i] < 0) water[i] = land.isLand(latOf(r), lngOf(c)) ? 0 : 1;
    return water[i] === 1;
  };
  const cellOf = (p: { lat: number; lng: number }): [number, number] => [
    Math.round((p.lat - lat0) / GRID_STEP_DEG),
    Math.round((p.lng - lng0) / stepLng),
  ];
  // Start and goal: the nearest water cells the point reaches straight.
  const nearestWater = (p: LatLng): number => {
    const [r0, c0] = cellOf(p);
    for (let ring = 0; ring <= 3; ring++)
      for (let dr = -ring; dr <= ring; dr++)
        for (let dc = -ring; dc <= ring; dc++) {
          if (Math.max(Math.abs(dr), Math.abs(dc)) !== ring) continue;
          const r = r0 + dr;
          const c = c0 + dc;
          if (r < 0 || c < 0 || r >= rows || c >= cols || !isWater(r, c)) continue;
          if (!land.crossesLand(p, { lat: latOf(r), lng: lngOf(c) })) return r * cols + c;
        }
    return -1;
  };
  const bb = { lat: b.lat, lng: bLng };
  const start = nearestWater(a);
  const goal = nearestWater(bb);
  if (start < 0 || goal < 0) return null;
  const dist = new Float64Array(rows * cols).fill(Infinity);
  const prev = new Int32Array(rows * cols).fill(-1);
  const heap = new MinHeap(1024);
  const stepM = (dr: number, dc: number, r: number): number => {
    const y = dr * GRID_STEP_DEG * 111_195;
    const x = dc * stepLng * 111_195 * Math.cos((latOf(r) + (dr * GRID_STEP_DEG) / 2) * RAD);
    return Math.hypot(x, y);
  };
  const [gr, gcol] = [Math.floor(goal / cols), goal % cols];
  const h = (r: number, c: number): number =>
    0.98 *
    Math.hypot(
      (r - gr) * GRID_STEP_DEG * 111_195,
      (c - gcol) * stepLng * 111_195 * Math.cos(Math.max(Math.abs(latOf(r)), Math.abs(lat1)) * RAD)
    );
  dist[start] = 0;
  heap.push(0, start);
  while (heap.size) {
    const k = heap.peekKey();
    const u = heap.pop();
    const r = Math.floor(u / cols);
    const c = u % cols;
    if (k > dist[u] + h(r, c) + 1e-6) continue;
    if (u === goal) break;
    for (const [dr, dc] of MOVES) {
      const r2 = r + dr;
      const c2 = c + dc;
      if (r2 < 0 || c2 < 0 || r2 >= rows || c2 >= cols || !isWater(r2, c2)) continue;
      // A knight move passes the two cells beside its line: both must be water.
      if (Math.abs(dr) + Math.abs(dc) === 3) {
        const sr = Math.abs(dr) === 2 ? Math.sign(dr) : 0;
        const sc = Math.abs(dc) === 2 ? Math.sign(dc) : 0;
        if (!isWater(r + sr, c + sc) || !isWater(r + dr - sr, c + dc - sc)) continue;
      } else if (dr !== 0 && dc !== 0 && !isWater(r + dr, c) && !isWater(r, c + dc)) continue;
      const v = r2 * cols + c2;
      const d = dist[u] + stepM(dr, dc, r);
      if (d < dist[v]) {
        dist[v] = d;
        prev[v] = u;
        heap.push(d + h(r2, c2), v);
      }
    }
  }
  if (!Number.isFinite(dist[goal])) return null;
  const cells: LatLng[] = [];
  for (let v = goal; v >= 0; v = prev[v])
    cells.push({ lat: latOf(Math.floor(v / cols)), lng: lngOf(v % cols) });
  cells.reverse();
  const way = [a, ...cells, bb];
  return pulledMeters(way, land);
}

/** Length of `way` after greedy string pulling: from each kept point, the farthest point seen clear. */
function pulledMeters(way: LatLng[], land: LandIndex): number {
  let meters = 0;
  let i = 0;
  while (i < way.length - 1) {
    let j = way.length - 1;
    // Binary-ish: try the far end, then back off (visibility is not monotone; take the first clear).
    let step = Math.max(1, Math.floor((j - i) / 16));
    while (j > i + 1 && land.crossesLand(way[i], way[j], 0, 0)) {
      j = Math.max(i + 1, j - step);
      if (j - i <= step) step = 1;
    }
    meters += geodesicMeters(way[i].lat, way[i].lng, way[j].lat, way[j].lng);
    i = j;
  }
  return meters;
}

export interface PairResult {
  from: LatLng;
  to: LatLng;
  kind: "open" | "grid";
  bound: number;
  route: number | null;
  /** route ÷ bound − 1. */
  excess: number;
}

/**
 * Random coastal pairs with their bound and route. Pairs are 30 km to `maxM` apart; `gridShare`
 * of the pairs whose great circle crosses land are kept (grid bounds cost ≈ 0.1–0.5 s each).
 */
export function measurePairs(options: {
  points: LatLng[];
  pairs: number;
  land: LandIndex;
  route: SeaRouteFn;
  random: () => number;
  maxM?: number;
  gridPairs?: number;
}): PairResult[] {
  const { points, land, route, random } = options;
  const maxM = options.maxM ?? 3_000_000;
  const gridPairs = options.gridPairs ?? 0;
  const out: PairResult[] = [];
  let grids = 0;
  for (let tries = 0; out.length < options.pairs && tries < options.pairs * 200; tries++) {
    const from = points[Math.floor(random() * points.length)];
    const to = points[Math.floor(random() * points.length)];
    const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
    if (gc < 30_000 || gc > maxM) continue;
    const open = !land.crossesLand(from, to, 0, 0);
    let bound: number | null = gc;
    if (!open) {
      if (grids >= gridPairs || gc > GRID_MAX_M) continue;
      bound = gridWaterMeters(from, to, land);
      if (bound === null) continue;
      grids++;
    }
    const r = route(from, to);
    out.push({
      from,
      to,
      kind: open ? "open" : "grid",
      bound,
      route: r ? r.meters : null,
      excess: r ? r.meters / bound - 1 : NaN,
    });
  }
  return out;
}

/** A port of the npm sea-ports list at the package's own position. */
export interface PortPoint extends LatLng {
  code: string;
}

/**
 * The npm sea-ports list at its positions as corrected by data/sea-ports-corrections.csv (some are
 * swapped or in another country there), one port per position, sorted by code.
 */
export function seaPortPoints(): PortPoint[] {
  const { seaPortsLayer } = require("../data/places") as typeof import("../data/places");
  const seen = new Set<string>();
  const out: PortPoint[] = [];
  for (const [code, p] of [...seaPortsLayer()].sort((x, y) => (x[0] < y[0] ? -1 : 1))) {
    if (p.lat === undefined || p.lng === undefined) continue;
    const key = `${p.lat},${p.lng}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ code, lat: p.lat, lng: p.lng });
  }
  return out;
}

/** Port pairs with a clear great circle: apart, and where that is measured (metres). */
export const PORT_PAIR_MIN_M = 50_000;
export const PORT_PAIR_MAX_M = 2_000_000;
/** A port's position is a town or a quay: its own shore (these metres at each end) is not checked. */
export const PORT_PAIR_SHORE_M = 5_000;

/**
 * Every pair of `ports` PORT_PAIR_MIN_M to PORT_PAIR_MAX_M apart whose great circle crosses no land
 * but for PORT_PAIR_SHORE_M at each end, with its route: the routes should be that great circle.
 */
export function clearPortPairs(
  ports: ReadonlyArray<PortPoint>,
  land: LandIndex,
  route: SeaRouteFn
): Array<PairResult & { codes: [string, string] }> {
  const out: Array<PairResult & { codes: [string, string] }> = [];
  const maxDegLat = PORT_PAIR_MAX_M / 111_000;
  for (let i = 0; i < ports.length; i++)
    for (let j = i + 1; j < ports.length; j++) {
      const a = ports[i];
      const b = ports[j];
      if (Math.abs(a.lat - b.lat) > maxDegLat) continue;
      const gc = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
      if (gc < PORT_PAIR_MIN_M || gc > PORT_PAIR_MAX_M) continue;
      if (land.crossesLand(a, b, PORT_PAIR_SHORE_M, PORT_PAIR_SHORE_M)) continue;
      const r = route(a, b);
      out.push({
        from: a,
        to: b,
        codes: [a.code, b.code],
        kind: "open",
        bound: gc,
        route: r ? r.meters : null,
        excess: r ? r.meters / gc - 1 : NaN,
      });
    }
  return out;
}

export function quantile(xs: number[], q: number): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}

export function summary(results: PairResult[]): {
  n: number;
  noRoute: number;
  median: number;
  p95: number;
  over10: number;
} {
  const ok = results.filter((r) => r.route !== null).map((r) => r.excess);
  return {
    n: results.length,
    noRoute: results.length - ok.length,
    median: quantile(ok, 0.5),
    p95: quantile(ok, 0.95),
    over10: ok.filter((e) => e > 0.1).length / Math.max(1, ok.length),
  };
}

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/* istanbul ignore next -- the command-line run */
if (require.main === module) {
  const { loadSeaRouter, loadCoastIndex, readPassageAreas } =
    require("../data/sea") as typeof import("../data/sea");
  const { loadSeaLandPolygons } = require("../data/inland") as typeof import("../data/inland");
  const pairs = Number(argValue("--pairs") ?? 3000);
  const gridPairs = Number(argValue("--grid-pairs") ?? 300);
  const seed = Number(argValue("--seed") ?? 18);
  const closed = new Set(
    (argValue("--closed") ?? "NORTHWEST,NORTHEAST,KIEL,CORINTH")
      .split(",")
      .filter(Boolean) as Passage[]
  );
  const router = loadSeaRouter();
  const land = loadCoastIndex();
  const random = seeded(seed);
  const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
  if (process.argv.includes("--ports")) {
    // Every sea-ports pair with a clear great circle (no sampling: about 1,500 pairs).
    const t = process.cpuUsage();
    const results = clearPortPairs(seaPortPoints(), land, (a, b) => router.route(a, b, { closed }));
    const cpu = process.cpuUsage(t);
    const s = summary(results);
    console.log(
      `port pairs with a clear great circle: ${s.n}, ${s.noRoute} without a route; median ` +
        `+${pct(s.median)}, p95 +${pct(s.p95)}, over +10 %: ${Math.round(s.over10 * (s.n - s.noRoute))}; ` +
        `${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU`
    );
    for (const w of results
      .filter((r) => r.route !== null && r.excess > 0.05)
      .sort((x, y) => y.excess - x.excess))
      console.log(
        `  ${w.codes[0]} → ${w.codes[1]}: ${(w.route! / 1000).toFixed(0)} km vs ` +
          `${(w.bound / 1000).toFixed(0)} km (+${pct(w.excess)})`
      );
    process.exit(0);
  }
  const t0 = Date.now();
  const areas = readPassageAreas().filter((a) => closed.has(a.name));
  const points = coastalPoints(loadSeaLandPolygons(), land, 20_000, random, {
    exclude: (p) => areas.some((a) => pointInPolygon(p.lng, p.lat, a.polygon)),
  });
  const results = measurePairs({
    points,
    pairs,
    gridPairs,
    land,
    random,
    route: (a, b) => router.route(a, b, { closed }),
  });
  for (const kind of ["open", "grid"] as const) {
    const s = summary(results.filter((r) => r.kind === kind));
    console.log(
      `${kind === "open" ? "great circle clear of land" : "grid water path"}: ${s.n} pairs, ` +
        `${s.noRoute} without a route; median +${pct(s.median)}, p95 +${pct(s.p95)}, ` +
        `over +10 %: ${pct(s.over10)}`
    );
    const worst = results
      .filter((r) => r.kind === kind && r.route !== null)
      .sort((x, y) => y.excess - x.excess)
      .slice(0, 8);
    for (const w of worst)
      console.log(
        `  ${w.from.lat},${w.from.lng} → ${w.to.lat},${w.to.lng}: ` +
          `${(w.route! / 1000).toFixed(0)} km vs ${(w.bound / 1000).toFixed(0)} km (+${pct(w.excess)})`
      );
  }
  const under = results.filter((r) => r.route !== null && r.excess < -0.005).length;
  console.log(`routes more than 0.5 % under their bound: ${under}; ${Date.now() - t0} ms`);
}
