/**
 * Land audit of the sea network: every edge the graph can travel, and the paths of random port
 * pairs, measured against Natural Earth 1:50m land (npm world-atlas) with the exact LandIndex.
 * Canal edges (passages SUEZ, PANAMA, KIEL, CORINTH) and river approaches (data/sea-approaches.json
 * entries that follow a waterway) are inland by nature and not counted.
 *
 * Run:  npm run build:node && node dist/builders/sea-land-audit.js   (prints the counts)
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "../data/csv";
import { passageId, pointInPolygon, SeaGraph } from "../engine/routing/sea";
import { LandIndex } from "../engine/routing/sea/land-crossing";
import type { SeaRouter } from "../engine/route-engine";
import { LatLng, Passage } from "../engine/types";
import { loadSeaLandPolygons } from "../data/inland";
import { LAND_TOLERANCE_M, readLandExceptions, readSeaLanes } from "../data/sea-lanes";
import { loadSeaNetwork, loadSeaRouter, readPassageAreas, readSeaApproaches } from "../data/sea";
import { DEFAULT_CLOSED } from "../engine/routing/vessels";
import { greatCircleMeters } from "../engine/geo/geodesy";
import { MinHeap } from "../engine/heap";

const DATA_ROOT = path.resolve(__dirname, "../../data");

export { LAND_TOLERANCE_M };
/** A path's first and last kilometre (the port's own shore) are not checked. */
export const PORT_SKIP_M = 1_000;
const CANALS: readonly Passage[] = ["SUEZ", "PANAMA", "KIEL", "CORINTH"];

let landIndex: LandIndex | undefined;
export function loadLandIndex(): LandIndex {
  return (landIndex ??= new LandIndex(loadSeaLandPolygons()));
}

/** The river approaches (entries of data/sea-approaches.json that follow a waterway) as edges. */
export function riverApproachEdges(): Array<[number, number, number, number]> {
  const json = JSON.parse(fs.readFileSync(path.join(DATA_ROOT, "sea-approaches.json"), "utf8")) as {
    approaches: Array<{ waterway?: string }>;
  };
  const lines = readSeaApproaches();
  const out: Array<[number, number, number, number]> = [];
  json.approaches.forEach((a, i) => {
    if (!a.waterway) return;
    const line = lines[i];
    for (let k = 1; k < line.length; k++)
      out.push([line[k - 1][0], line[k - 1][1], line[k][0], line[k][1]]);
  });
  return out;
}

/** True for a point on a river approach or an edge of data/sea-land-exceptions.json. */
export function inlandWaterTest(): (lat: number, lng: number) => boolean {
  return exceptionTest([
    ...readLandExceptions(),
    {
      name: "river approaches",
      kind: "river",
      reason: "",
      source: "",
      edges: riverApproachEdges(),
    },
  ]);
}

/** Vertex-pair keys of the river approaches (entries of data/sea-approaches.json with a waterway). */
function riverEdgeKeys(): Set<string> {
  const json = JSON.parse(fs.readFileSync(path.join(DATA_ROOT, "sea-approaches.json"), "utf8")) as {
    approaches: Array<{ waterway?: string }>;
  };
  const lines = readSeaApproaches();
  const keys = new Set<string>();
  json.approaches.forEach((a, i) => {
    if (!a.waterway) return;
    const line = lines[i];
    for (let k = 1; k < line.length; k++) {
      keys.add(pairKey(line[k - 1][1], line[k - 1][0], line[k][1], line[k][0]));
    }
  });
  return keys;
}

function pairKey(lat1: number, lng1: number, lat2: number, lng2: number): string {
  const a = `${lat1.toFixed(6)},${lng1.toFixed(6)}`;
  const b = `${lat2.toFixed(6)},${lng2.toFixed(6)}`;
  return a < b ? `${a};${b}` : `${b};${a}`;
}

/**
 * True for a point on an edge of data/sea-land-exceptions.json (within ~50 m): an edge with both
 * ends on exception edges is one of them, or a piece of one split by the stitching.
 */
export function exceptionTest(
  exceptions = readLandExceptions()
): (lat: number, lng: number) => boolean {
  const segs = exceptions.flatMap((e) => e.edges);
  const tol = 0.0005;
  return (lat, lng) =>
    segs.some(([x1, y1, x2, y2]) => {
      if (lng < Math.min(x1, x2) - tol || lng > Math.max(x1, x2) + tol) return false;
      if (lat < Math.min(y1, y2) - tol || lat > Math.max(y1, y2) + tol) return false;
      const dx = x2 - x1;
      const dy = y2 - y1;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.max(0, Math.min(1, ((lng - x1) * dx + (lat - y1) * dy) / len2)) : 0;
      return Math.hypot(x1 + t * dx - lng, y1 + t * dy - lat) < tol;
    });
}

export interface LandEdge {
  edge: number;
  from: LatLng;
  to: LatLng;
  landM: number;
  kind: "line" | "shortcut";
}

/** Travelled edges (main network, not canal, not river approach) with more land than the tolerance. */
export function landCrossingEdges(
  graph: SeaGraph = loadSeaNetwork().graph,
  land = loadLandIndex(),
  toleranceM = LAND_TOLERANCE_M
): { checked: number; crossing: LandEdge[] } {
  const canals = new Set(CANALS.map((p) => passageId(p)));
  const rivers = riverEdgeKeys();
  const excepted = exceptionTest();
  // A port approach's first leg starts at the port: its first kilometre (the quay) is not checked.
  const portEnds = new Map<string, LatLng>();
  for (const lane of readSeaLanes())
    if (lane.port) {
      const [[lngA, latA], [lngB, latB]] = lane.points;
      portEnds.set(pairKey(latA, lngA, latB, lngB), { lat: latA, lng: lngA });
    }
  const crossing: LandEdge[] = [];
  let checked = 0;
  for (let e = 0; e < graph.edgeCount; e++) {
    if (!graph.edgeInMain[e] || canals.has(graph.edgePassage[e])) continue;
    const a = graph.edgeA[e];
    const b = graph.edgeB[e];
    if (rivers.has(pairKey(graph.lat[a], graph.lng[a], graph.lat[b], graph.lng[b]))) continue;
    if (excepted(graph.lat[a], graph.lng[a]) && excepted(graph.lat[b], graph.lng[b])) continue;
    checked++;
    const from = { lat: graph.lat[a], lng: graph.lng[a] };
    const to = { lat: graph.lat[b], lng: graph.lng[b] };
    const port = portEnds.get(pairKey(from.lat, from.lng, to.lat, to.lng));
    const atFrom = port !== undefined && port.lat === from.lat && port.lng === from.lng;
    const landM = port
      ? land.landMeters(from, to, atFrom ? PORT_SKIP_M : 0, atFrom ? 0 : PORT_SKIP_M)
      : land.landMeters(from, to);
    if (landM > toleranceM)
      crossing.push({
        edge: e,
        from,
        to,
        landM,
        kind: e < graph.snapEdgeCount ? "line" : "shortcut",
      });
  }
  return { checked, crossing };
}

export interface SeaPort {
  locode: string;
  lat: number;
  lng: number;
}

/** The seaports of data/ports-overlay.csv. */
export function readOverlaySeaports(file = path.join(DATA_ROOT, "ports-overlay.csv")): SeaPort[] {
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true, trim: true }) as Array<
    Record<string, string>
  >;
  return rows
    .filter((r) => r.kind.split(";").includes("seaport"))
    .map((r) => ({ locode: r.locode, lat: Number(r.lat), lng: Number(r.lng) }));
}

/** `count` random distinct port pairs, reproducible from `seed` (a linear congruential generator). */
export function randomPortPairs(
  ports: SeaPort[],
  count: number,
  seed = 20261123
): Array<[SeaPort, SeaPort]> {
  let s = seed >>> 0;
  const rnd = (): number => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const out: Array<[SeaPort, SeaPort]> = [];
  while (out.length < count) {
    const a = ports[Math.floor(rnd() * ports.length)];
    const b = ports[Math.floor(rnd() * ports.length)];
    if (a.locode !== b.locode) out.push([a, b]);
  }
  return out;
}

/**
 * Metres of a routed path inside land, not counting the first and last `PORT_SKIP_M` nor legs in
 * canal areas (`inCanal` on a leg's midpoint).
 */
export function pathLandMeters(
  path: ReadonlyArray<LatLng>,
  land: LandIndex,
  inCanal: (lat: number, lng: number) => boolean = () => false,
  inland?: (lat: number, lng: number) => boolean
): { landM: number; worstLeg: number } {
  let total = 0;
  let worst = -1;
  let worstM = 0;
  const lengths = path.slice(1).map((q, i) => greatCircleMeters(path[i], q));
  const sum = lengths.reduce((x, y) => x + y, 0);
  let along = 0;
  for (let i = 1; i < path.length; i++) {
    const len = lengths[i - 1];
    const skipStart = Math.max(0, PORT_SKIP_M - along);
    const skipEnd = Math.max(0, PORT_SKIP_M - (sum - along - len));
    along += len;
    const a = path[i - 1];
    const b = path[i];
    // Routed paths unwrap longitudes past ±180 (a trans-Pacific route goes on to 190): the canal
    // and exception tests take them back to [-180, 180).
    const mid = { lat: (a.lat + b.lat) / 2, lng: wrapLng((a.lng + b.lng) / 2) };
    if (inCanal(mid.lat, mid.lng)) continue;
    if (inland && inland(a.lat, wrapLng(a.lng)) && inland(b.lat, wrapLng(b.lng))) continue;
    const m = land.landMeters(a, b, Math.min(skipStart, len), Math.min(skipEnd, len));
    total += m;
    if (m > worstM) {
      worstM = m;
      worst = i - 1;
    }
  }
  return { landM: total, worstLeg: worst };
}

function wrapLng(lng: number): number {
  return lng >= -180 && lng < 180 ? lng : ((((lng + 180) % 360) + 360) % 360) - 180;
}

export interface PathAudit {
  pairs: number;
  routed: number;
  crossing: Array<{ from: string; to: string; landM: number; leg: [LatLng, LatLng] }>;
}

export function landCrossingPaths(
  pairs: Array<[SeaPort, SeaPort]>,
  closed: ReadonlySet<Passage>,
  router: SeaRouter = loadSeaRouter(),
  land = loadLandIndex(),
  toleranceM = LAND_TOLERANCE_M,
  inCanal?: (lat: number, lng: number) => boolean,
  inland: (lat: number, lng: number) => boolean = inlandWaterTest()
): PathAudit {
  const out: PathAudit = { pairs: pairs.length, routed: 0, crossing: [] };
  for (const [a, b] of pairs) {
    const r = router.route(a, b, { closed });
    if (!r) continue;
    out.routed++;
    const { landM, worstLeg } = pathLandMeters(r.path, land, inCanal, inland);
    if (landM > toleranceM)
      out.crossing.push({
        from: a.locode,
        to: b.locode,
        landM,
        leg: [r.path[worstLeg], r.path[worstLeg + 1]],
      });
  }
  return out;
}

/**
 * A way by water from a port to the sea network, for drafting a port approach lane: from the port
 * to the nearest 1:50m water, then the shortest way over water cells (every step crossing no land)
 * to the nearest vertex of a snappable main-network line, straightened. [lng, lat] points, port
 * first; undefined when no network vertex is reachable by water within `boxDeg` of the port.
 */
export function tracePortApproach(
  port: { lat: number; lng: number },
  graph: SeaGraph,
  land: LandIndex,
  boxDeg = 0.6,
  cell = 0.005
): Array<[number, number]> | undefined {
  const cos = Math.max(0.2, Math.cos((port.lat * Math.PI) / 180));
  const minLat = port.lat - boxDeg;
  const minLng = port.lng - boxDeg / cos;
  const rows = Math.ceil((2 * boxDeg) / cell);
  const cols = Math.ceil((2 * boxDeg) / cos / cell);
  const centre = (i: number): LatLng => ({
    lat: minLat + (Math.floor(i / cols) + 0.5) * cell,
    lng: minLng + ((i % cols) + 0.5) * cell,
  });
  const water = new Uint8Array(rows * cols);
  for (let i = 0; i < water.length; i++) {
    const c = centre(i);
    water[i] = land.isLand(c.lat, c.lng) ? 0 : 1;
  }
  const cellOf = (lat: number, lng: number): number => {
    const r = Math.floor((lat - minLat) / cell);
    const c = Math.floor((lng - minLng) / cell);
    return r < 0 || c < 0 || r >= rows || c >= cols ? -1 : r * cols + c;
  };
  // Targets: vertices of snappable main lines in water cells.
  const target = new Map<number, number>();
  for (let e = 0; e < graph.snapEdgeCount; e++) {
    if (!graph.edgeInMain[e] || graph.edgePassage[e] !== 0) continue;
    for (const v of [graph.edgeA[e], graph.edgeB[e]]) {
      const i = cellOf(graph.lat[v], graph.lng[v]);
      if (i >= 0 && water[i] && !target.has(i)) target.set(i, v);
    }
  }
  // Start: the port's cell if water, else the nearest water cell.
  let start = cellOf(port.lat, port.lng);
  if (!water[start]) {
    let best = -1;
    let bestKm = Infinity;
    for (let i = 0; i < water.length; i++) {
      if (!water[i]) continue;
      const c = centre(i);
      const km = Math.hypot(c.lat - port.lat, (c.lng - port.lng) * cos);
      if (km < bestKm) [best, bestKm] = [i, km];
    }
    if (best < 0) return undefined;
    start = best;
  }
  const dist = new Float64Array(rows * cols).fill(Infinity);
  const prev = new Int32Array(rows * cols).fill(-1);
  const heap = new MinHeap(1024);
  dist[start] = 0;
  heap.push(0, start);
  let end = -1;
  while (heap.size > 0) {
    const d = heap.peekKey();
    const v = heap.pop();
    if (d > dist[v]) continue;
    if (target.has(v)) {
      end = v;
      break;
    }
    const r = Math.floor(v / cols);
    const c = v % cols;
    for (let dr = -1; dr <= 1; dr++)
      for (let dc = -1; dc <= 1; dc++) {
        const rr = r + dr;
        const cc = c + dc;
        if ((!dr && !dc) || rr < 0 || cc < 0 || rr >= rows || cc >= cols) continue;
        const w = rr * cols + cc;
        const nd = d + Math.hypot(dc * cos, dr);
        if (!water[w] || nd >= dist[w] || land.landMeters(centre(v), centre(w)) > 0) continue;
        dist[w] = nd;
        prev[w] = v;
        heap.push(nd, w);
      }
  }
  if (end < 0) return undefined;
  const cells: LatLng[] = [];
  for (let v = end; v !== -1; v = prev[v]) cells.push(centre(v));
  cells.reverse();
  const v = target.get(end)!;
  const pts: LatLng[] = [...cells, { lat: graph.lat[v], lng: graph.lng[v] }];
  const clear = (a: LatLng, b: LatLng): boolean => land.landMeters(a, b) === 0;
  const kept: LatLng[] = [pts[0]];
  for (let i = 0; i < pts.length - 1;) {
    let j = i + 1;
    while (j + 1 < pts.length && clear(pts[i], pts[j + 1])) j++;
    kept.push(pts[j]);
    i = j;
  }
  const round = (x: number): number => Math.round(x * 1e4) / 1e4;
  const out: Array<[number, number]> = [[port.lng, port.lat]];
  for (const p of kept) out.push([round(p.lng), round(p.lat)]);
  out[out.length - 1] = [graph.lng[v], graph.lat[v]];
  return out;
}

if (require.main === module && process.argv[2] === "--trace") {
  // Drafts port approach lanes: node dist/builders/sea-land-audit.js --trace LOCODE...
  const land = loadLandIndex();
  const { graph } = loadSeaNetwork();
  const ports = readOverlaySeaports();
  for (const code of process.argv.slice(3)) {
    // A LOCODE of data/ports-overlay.csv, or "lat,lng" (to trace on from a river mouth).
    const [lat, lng] = code.split(",").map(Number);
    const port = code.includes(",")
      ? { locode: code, lat, lng }
      : ports.find((p) => p.locode === code);
    const way =
      port && (tracePortApproach(port, graph, land) ?? tracePortApproach(port, graph, land, 1.5));
    const legs = (way ?? []).slice(1).map((q, i) => {
      const p = way![i];
      return Math.round(land.landMeters({ lat: p[1], lng: p[0] }, { lat: q[1], lng: q[0] }));
    });
    console.log(JSON.stringify({ locode: code, points: way, landM: legs }));
  }
} else if (require.main === module) {
  const t0 = performance.now();
  const land = loadLandIndex();
  const t1 = performance.now();
  const { checked, crossing } = landCrossingEdges(undefined, land);
  const t2 = performance.now();
  console.log(
    `land index ${(t1 - t0).toFixed(0)} ms; edges checked ${checked} in ${(t2 - t1).toFixed(0)} ms`
  );
  console.log(
    `edges over land (> ${LAND_TOLERANCE_M} m): ${crossing.length} (lines ${crossing.filter((c) => c.kind === "line").length}, shortcuts ${crossing.filter((c) => c.kind === "shortcut").length})`
  );
  for (const c of crossing
    .sort((x, y) => y.landM - x.landM)
    .slice(0, Number(process.argv[2] ?? 40)))
    console.log(
      `  ${c.kind} ${c.from.lat.toFixed(3)},${c.from.lng.toFixed(3)} -> ${c.to.lat.toFixed(3)},${c.to.lng.toFixed(3)}  ${(c.landM / 1000).toFixed(1)} km`
    );
  const areas = readPassageAreas().filter((a) =>
    ["SUEZ", "PANAMA", "KIEL", "CORINTH"].includes(a.name)
  );
  const inCanal = (lat: number, lng: number): boolean =>
    areas.some((a) => pointInPolygon(lng, lat, a.polygon));
  const ports = readOverlaySeaports();
  for (const [label, closed] of [["default", new Set<Passage>(DEFAULT_CLOSED)]] as Array<
    [string, Set<Passage>]
  >) {
    const t3 = performance.now();
    const audit = landCrossingPaths(
      randomPortPairs(ports, 2000),
      closed,
      undefined,
      land,
      LAND_TOLERANCE_M,
      inCanal
    );
    console.log(
      `paths (${label}): ${audit.routed}/${audit.pairs} routed, ${audit.crossing.length} over land, ${(performance.now() - t3).toFixed(0)} ms`
    );
    const seen = new Set<string>();
    for (const c of audit.crossing.sort((x, y) => y.landM - x.landM)) {
      const k = `${c.leg[0].lat.toFixed(2)},${c.leg[0].lng.toFixed(2)}`;
      if (seen.has(k)) continue;
      seen.add(k);
      console.log(
        `  ${c.from}-${c.to} ${(c.landM / 1000).toFixed(1)} km, worst leg ${c.leg[0].lat.toFixed(3)},${c.leg[0].lng.toFixed(3)} -> ${c.leg[1].lat.toFixed(3)},${c.leg[1].lng.toFixed(3)}`
      );
    }
  }
}
