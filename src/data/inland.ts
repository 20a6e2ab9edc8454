/**
 * Loaders for the inland routers: the barge network (data/waterways.json) and the overland
 * (rail/truck) router built on Natural Earth land and country polygons (npm `world-atlas`) with the
 * circuity factors of data/circuity.csv, the fixed links of data/land-links.csv and the rail freight
 * corridors of data/rail-corridors.json.
 */
import * as fs from "fs";
import * as path from "path";
import type { feature as topoFeature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from "geojson";
import { BargeNetwork, measureSegments } from "../engine/routing/inland/barge-network";
import { BargeGraphRouter } from "../engine/routing/inland/barge-router";
import { parseWaterways, WaterwaysFile } from "../engine/routing/inland/waterways";
import {
  CIRCUITY_REGIONS,
  CircuityFactor,
  CircuityRegion,
  CircuityTable,
} from "../engine/routing/overland/circuity";
import { LandmassIndex, PolygonRings } from "../engine/routing/overland/landmass-index";
import { CircuityOverlandRouter, LandLink } from "../engine/routing/overland/overland-router";
import { CountryPolygon, CountryRegions } from "../engine/routing/overland/regions";
import { parseRailCorridors, RailCorridorsFile } from "../engine/routing/overland/rail-corridors";
import { RailNetwork } from "../engine/routing/overland/rail-network";
import type { RoadLegSource } from "../engine/routing/overland/road-legs";
import type { LandNetwork } from "../engine/routing/overland/land-network";
import { lazyLandNetworks } from "./land-networks";
import {
  ElevationGrid,
  ElevationGridFile,
  elevationGridData,
} from "../engine/routing/overland/elevation-grid";
import { Peak, Terrain } from "../engine/routing/overland/terrain";
import { CountryDetour } from "../engine/routing/overland/country-detour";
import type { LatLng } from "../engine/types";
import { concatFlatPolygons, FlatPolygons, flattenPolygons } from "../engine/geo/flat-polygons";
import { parse } from "./csv";
import {
  landmassRasterSnapshot,
  packedPolygonSnapshot,
  polygonSnapshot,
  waterwaySegmentsSnapshot,
  worldAtlasFile,
} from "./snapshot";
import { buildLandmassRaster, LandmassRaster } from "../engine/routing/overland/landmass-raster";
import { cachedSnapshot } from "./snapshot/cache";

// Loaded when a file is actually decoded: a warm start takes the polygons from their snapshot.
const feature = ((...args: Parameters<typeof topoFeature>) =>
  (require("topojson-client") as { feature: typeof topoFeature }).feature(
    ...args
  )) as typeof topoFeature;

/** data/ at the package root (two levels up from src/data or dist/data). */
export const DATA_DIR = path.resolve(__dirname, "..", "..", "data");

export interface InlandLoadOptions {
  dataDir?: string;
  /** RAIL along data/rail-corridors.json (default true); false = great circle × circuity only. */
  railCorridors?: boolean;
  /** TRUCK legs from a road engine (OSRM) before the router's own answer. */
  roadLegs?: RoadLegSource;
  /** TRUCK/RAIL on the road and rail networks of data/land/ (default true). */
  landNetworks?: boolean;
  /** Estimates priced for high mountains and open water (default true); false: plain circuity. */
  terrain?: boolean;
  /** The estimate's relief term (elevation grid), default true; false: terrain without relief. */
  relief?: boolean;
}

const NO_RELIEF = { TRUCK: 0, RAIL: 0 };

/** Peaks, high ranges (data/land/terrain/) and the open-water test of the landmasses. */
function terrainOf(options: InlandLoadOptions, isOpenWater: (p: LatLng) => boolean): Terrain {
  const file = path.join(options.dataDir ?? DATA_DIR, "land", "terrain", "high-mountains.json");
  const ranges = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, "utf8")) as { ranges: Array<{ polygons: PolygonRings[] }> })
        .ranges
    : [];
  const polygons = ranges.flatMap((r) => r.polygons);
  const index = polygons.length
    ? rasteredIndex("high-ranges", flattenPolygons(polygons), 0, [file])
    : undefined;
  const gridFile = path.join(options.dataDir ?? DATA_DIR, "land", "terrain", "elevation-20min.json");
  const withRelief = options.relief !== false && fs.existsSync(gridFile);
  let grid: ElevationGrid | undefined;
  // The grid is read on the first estimate priced, not at load, from a snapshot after the first
  // start (the 1.4 MB JSON costs ~100 ms to parse; the snapshot's typed array a few).
  const elevation = (p: LatLng) =>
    (grid ??= new ElevationGrid(
      cachedSnapshot(
        "elevation-grid",
        { dataFiles: [gridFile], code: ["engine/routing/overland/elevation-grid"] },
        () =>
          elevationGridData(JSON.parse(fs.readFileSync(gridFile, "utf8")) as ElevationGridFile)
      ).value
    )).at(p);
  return new Terrain(
    loadPeaks(options),
    isOpenWater,
    (p) => index?.landmassOf(p) != null,
    withRelief ? {} : { reliefSlope: NO_RELIEF },
    withRelief ? elevation : undefined
  );
}

/** data/land/terrain/peaks.csv: the peaks of 5,000 m and more (Natural Earth 1:10m). */
export function loadPeaks(options: InlandLoadOptions = {}): Peak[] {
  const file = path.join(options.dataDir ?? DATA_DIR, "land", "terrain", "peaks.csv");
  if (!fs.existsSync(file)) return [];
  return readCsv(file).map((r, i) => {
    const peak = { name: r.name, lat: Number(r.lat), lng: Number(r.lng), elevationMeters: Number(r.elevation_m) };
    if (![peak.lat, peak.lng, peak.elevationMeters].every(Number.isFinite))
      throw new Error(`peaks.csv row ${i + 2}: lat, lng and elevation_m must be numbers`);
    return peak;
  });
}

/**
 * The road and rail networks of data/land/*.json (src/builders/land/build-land-networks.ts), each
 * parsed on the first trip near it (land-networks.ts).
 */
export function loadLandNetworks(options: InlandLoadOptions = {}): LandNetwork[] {
  return lazyLandNetworks(path.join(options.dataDir ?? DATA_DIR, "land"));
}

// ---------- barge ----------

export function loadWaterwaysFile(options: InlandLoadOptions = {}): WaterwaysFile {
  const file = path.join(options.dataDir ?? DATA_DIR, "waterways.json");
  return parseWaterways(JSON.parse(fs.readFileSync(file, "utf8")));
}

export function loadBargeNetwork(options: InlandLoadOptions = {}): BargeNetwork {
  const file = loadWaterwaysFile(options);
  // The segments' geodesic lengths from a snapshot: measuring them is most of the build.
  const { value } = waterwaySegmentsSnapshot(
    path.join(options.dataDir ?? DATA_DIR, "waterways.json"),
    () => ({ meters: measureSegments(file) })
  );
  return new BargeNetwork(file, value.meters);
}

/** The BARGE router of the engine (a BargeRouter), with `snap` and `network` for inspection. */
export function loadBargeRouter(options: InlandLoadOptions = {}): BargeGraphRouter {
  return new BargeGraphRouter(loadBargeNetwork(options));
}

// ---------- overland ----------

export function loadCircuityFactors(options: InlandLoadOptions = {}): CircuityFactor[] {
  const rows = readCsv(path.join(options.dataDir ?? DATA_DIR, "circuity.csv"));
  return rows.map((r, i) => {
    const modality = r.modality?.trim().toUpperCase();
    const region = r.region?.trim().toUpperCase();
    const factor = Number(r.factor);
    if (modality !== "RAIL" && modality !== "TRUCK")
      throw new Error(`circuity.csv row ${i + 2}: modality "${r.modality}" is not RAIL or TRUCK`);
    if (!(CIRCUITY_REGIONS as readonly string[]).includes(region)) {
      throw new Error(
        `circuity.csv row ${i + 2}: region "${r.region}" is not one of ${CIRCUITY_REGIONS.join(", ")}`
      );
    }
    if (!r.source?.trim()) throw new Error(`circuity.csv row ${i + 2}: source is empty`);
    const minKm = r.min_km?.trim() ? Number(r.min_km) : 0;
    if (!(minKm >= 0))
      throw new Error(`circuity.csv row ${i + 2}: min_km "${r.min_km}" is not a distance in km`);
    return { modality, region: region as CircuityRegion, factor, minKm, source: r.source.trim() };
  });
}

export function loadLandLinks(options: InlandLoadOptions = {}): LandLink[] {
  const rows = readCsv(path.join(options.dataDir ?? DATA_DIR, "land-links.csv"));
  return rows.map((r, i) => {
    const modalities = r.modalities
      .trim()
      .toUpperCase()
      .split(/[\s;+]+/);
    for (const m of modalities) {
      if (m !== "RAIL" && m !== "TRUCK")
        throw new Error(`land-links.csv row ${i + 2}: modality "${m}" is not RAIL or TRUCK`);
    }
    return {
      name: r.name,
      modalities: modalities as ("RAIL" | "TRUCK")[],
      a: { lat: Number(r.lat1), lng: Number(r.lng1) },
      b: { lat: Number(r.lat2), lng: Number(r.lng2) },
    };
  });
}

export function loadRailCorridorsFile(options: InlandLoadOptions = {}): RailCorridorsFile {
  const file = path.join(options.dataDir ?? DATA_DIR, "rail-corridors.json");
  return parseRailCorridors(JSON.parse(fs.readFileSync(file, "utf8")));
}

type LandTopology = Topology<{ land: GeometryCollection }>;
type CountriesTopology = Topology<{ countries: GeometryCollection<{ name: string }> }>;

/** Natural Earth 1:50m land, one entry per polygon (landmass); decoded once, then from a snapshot. */
export function loadLandPolygons(): PolygonRings[] {
  return polygonSnapshot("land-50m.json", () => ({ polygons: decodeLandPolygons() })).value
    .polygons;
}

function decodeLandPolygons(): PolygonRings[] {
  const topo = readWorldAtlas("land-50m.json") as LandTopology;
  const fc = feature(topo, topo.objects.land) as unknown as FeatureCollection<
    Polygon | MultiPolygon
  >;
  const out: PolygonRings[] = [];
  for (const f of fc.features) out.push(...polygonsOf(f));
  return out;
}

/**
 * data/land-additions.json: islands and reclaimed port land missing from Natural Earth 1:50m where
 * a fixed link ends (Yangshan), one polygon each. For the overland router only: the sea network
 * keeps Natural Earth, so sea approaches to such ports are unchanged. Optional in a data directory.
 */
export function loadLandAdditions(options: InlandLoadOptions = {}): PolygonRings[] {
  return readRingAreas(path.join(options.dataDir ?? DATA_DIR, "land-additions.json"), "areas");
}

/**
 * data/sea-islands.json: islands that Natural Earth 1:50m leaves out in busy approaches (the
 * Incheon islands, the Seto Inland Sea's central islands), where a straight leg or a generated
 * shortcut would otherwise cut across them. Added to the land every sea check uses.
 */
export function loadSeaIslands(file = path.join(DATA_DIR, "sea-islands.json")): PolygonRings[] {
  return readRingAreas(file, "islands");
}

/** The land of the sea network's checks: Natural Earth 1:50m with the islands it lacks. */
export function loadSeaLandPolygons(): PolygonRings[] {
  return [...loadLandPolygons(), ...loadSeaIslands()];
}

/** A data file's list of areas, each a closed ring of [lng, lat] with a source; [] when absent. */
function readRingAreas(file: string, key: string): PolygonRings[] {
  if (!fs.existsSync(file)) return [];
  const name = path.basename(file);
  const json = JSON.parse(fs.readFileSync(file, "utf8")) as Record<
    string,
    Array<{ id?: string; source?: string; ring?: unknown }> | undefined
  >;
  const areas = json[key];
  if (!Array.isArray(areas)) throw new Error(`${name}: "${key}" must be an array`);
  return areas.map((a, i) => {
    const where = `${name} ${key.replace(/s$/, "")} #${i}${a.id ? ` (${a.id})` : ""}`;
    if (!a.source?.trim()) throw new Error(`${where}: source is empty`);
    const ring = a.ring as Array<[number, number]>;
    const valid =
      Array.isArray(ring) &&
      ring.length >= 4 &&
      ring.every(
        (p) =>
          Array.isArray(p) && Math.abs(p[0]) <= 180 && Math.abs(p[1]) <= 90 && p.length === 2
      ) &&
      ring[0][0] === ring[ring.length - 1][0] &&
      ring[0][1] === ring[ring.length - 1][1];
    if (!valid) throw new Error(`${where}: ring must be a closed list of at least 4 [lng, lat] points`);
    return [ring] as PolygonRings;
  });
}

/** Natural Earth 1:50m admin-0 countries, one entry per polygon, keyed by ISO numeric code (snapshot as above). */
export function loadCountryPolygons(): CountryPolygon[] {
  const { polygons, labels } = polygonSnapshot("countries-50m.json", countryPolygonLists).value;
  return polygons.map((rings, i) => ({ country: labels![i], rings }));
}

function countryPolygonLists(): { polygons: PolygonRings[]; labels: string[] } {
  const list = decodeCountryPolygons();
  return { polygons: list.map((c) => c.rings), labels: list.map((c) => c.country) };
}

function decodeCountryPolygons(): CountryPolygon[] {
  const topo = readWorldAtlas("countries-50m.json") as CountriesTopology;
  const fc = feature(topo, topo.objects.countries) as unknown as FeatureCollection<
    Polygon | MultiPolygon,
    { name: string }
  >;
  const out: CountryPolygon[] = [];
  for (const f of fc.features) {
    const country = f.id !== undefined ? String(f.id) : (f.properties?.name ?? "").toUpperCase();
    for (const rings of polygonsOf(f)) out.push({ country, rings });
  }
  return out;
}

/**
 * The landmasses of the overland router: data/land-additions.json then Natural Earth 1:50m land,
 * snapping 20 km, with their answers on a grid (one snapshot).
 */
export function loadLandmasses(options: InlandLoadOptions = {}): LandmassIndex {
  // The additions first: a point in one belongs to it even where 1:50m draws an island there.
  const land = concatFlatPolygons(
    flattenPolygons(loadLandAdditions(options)),
    packedPolygonSnapshot("land-50m.json", () => ({ polygons: decodeLandPolygons() })).value
  );
  return rasteredIndex("land", land, 20_000, [
    path.join(options.dataDir ?? DATA_DIR, "land-additions.json"),
    worldAtlasFile("land-50m.json"),
  ]);
}

/** A point this far off a country's coast still counts as in it (CountryRegions' default). */
const COUNTRY_SNAP_METERS = 20_000;

/** The RAIL/TRUCK router of the engine (an OverlandRouter), with `connected` and `regionFor` for inspection. */
export function loadOverlandRouter(options: InlandLoadOptions = {}): CircuityOverlandRouter {
  // Flat polygons straight from their snapshots: no nested arrays to build at start-up.
  const landmasses = loadLandmasses(options);
  const countries = packedPolygonSnapshot("countries-50m.json", countryPolygonLists).value;
  // Every estimate asks the country (and region) of its ends and of its detour cells: answered
  // from a grid built once into a snapshot, like the landmasses.
  const raster = landmassRasterSnapshot("countries", [worldAtlasFile("countries-50m.json")], () =>
    preparedRaster(new LandmassIndex(countries, { snapMeters: COUNTRY_SNAP_METERS }))
  ).value;
  const regions = new CountryRegions(
    { flat: countries, countries: countries.labels!, raster },
    COUNTRY_SNAP_METERS
  );
  return new CircuityOverlandRouter({
    landmasses,
    links: loadLandLinks(options),
    circuity: new CircuityTable(loadCircuityFactors(options)),
    regionOf: (p) => regions.regionOf(p),
    rail: options.railCorridors === false ? undefined : new RailNetwork(loadRailCorridorsFile(options)),
    roadLegs: options.roadLegs,
    networks: options.landNetworks === false ? [] : () => loadLandNetworks(options),
    countryOf: (p) => regions.countryOf(p),
    terrain:
      options.terrain === false
        ? undefined
        : terrainOf(options, (p) => landmasses.landmassOf(p) === null),
    countryDetour:
      options.terrain === false ? undefined : new CountryDetour((p) => regions.countryOf(p)),
  });
}

/**
 * A landmass index over `polygons` (built from `dataFiles`) with its answers on a grid, built
 * once into a snapshot: most look-ups are then one search in a row of the grid.
 */
function rasteredIndex(
  name: string,
  polygons: FlatPolygons,
  snapMeters: number,
  dataFiles: string[]
): LandmassIndex {
  const raster = landmassRasterSnapshot(name, dataFiles, () =>
    preparedRaster(new LandmassIndex(polygons, { snapMeters }))
  ).value;
  return new LandmassIndex(polygons, { snapMeters, raster });
}

/**
 * The index's raster with its look-up structures (boxes, unwrapped rings, latitude bands): a
 * start then takes them from the snapshot instead of building them (~100-200 ms of the overland
 * router's start, most of it Eurasia's bands for the fixed links' coastal ends).
 */
function preparedRaster(index: LandmassIndex): LandmassRaster {
  return { ...buildLandmassRaster(index), prepared: index.prepared() };
}

function polygonsOf(f: Feature<Polygon | MultiPolygon | null>): PolygonRings[] {
  const g = f.geometry;
  if (!g) return [];
  if (g.type === "Polygon") return [g.coordinates as unknown as PolygonRings];
  return g.coordinates as unknown as PolygonRings[];
}

function readWorldAtlas(name: string): unknown {
  const file = require.resolve(`world-atlas/${name}`, {
    paths: [path.resolve(__dirname, "..", "..")],
  });
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/**
 * A CSV file's rows by header name, parsed once into a snapshot: a start then checks the rows
 * without loading and warming up the CSV parser (~30 ms of the overland router's start).
 */
function readCsv(file: string): Record<string, string>[] {
  return cachedSnapshot(
    `csv-${path.basename(file, ".csv")}`,
    { dataFiles: [file], code: ["data/inland"] },
    () => ({
      rows: parse(fs.readFileSync(file, "utf8"), {
        columns: true,
        skip_empty_lines: true,
        trim: true,
      }) as Record<string, string>[],
    })
  ).value.rows;
}
