/**
 * Builds data/land/*.json, the road and rail networks TRUCK and RAIL route on, from the open
 * scgraph project's geographs (MIT; a GeoGraph file: `nodes` [[lat, lng]], `graph` one
 * {neighbour: km} map per node, the km along the line's own geometry):
 *   us_freeway.graphjson          USA freeway system (USDOT / Esri USA Freeway System, public data)
 *   north_america_rail.graphjson  North American Rail Network, Class I freight lines (USDOT BTS
 *                                 NTAD, public domain)
 * The output keeps every junction and line length, as integers delta-encoded (LandNetworkFile).
 *
 * Run:  npm run build:node && node dist/builders/land/build-land-networks.js <geographs dir>
 */
import * as fs from "fs";
import * as path from "path";
import type { LandNetworkFile } from "../../engine/routing/overland/land-network";

interface GeoGraphFile {
  nodes: Array<[number, number]>;
  graph: Array<Record<string, number>>;
  geograph_units?: string;
}

export const LAND_NETWORKS: ReadonlyArray<
  Omit<LandNetworkFile, "lat" | "lng" | "edges" | "coordinateScale" | "lengthScale"> & {
    input: string;
    output: string;
  }
> = [
  {
    input: "us_freeway.graphjson",
    output: "us-freeway.json",
    name: "US freeways",
    basis: "road network (US freeways)",
    modality: "TRUCK",
    countries: ["840"],
    source:
      "scgraph geograph us_freeway (github.com/connor-makowski/scgraph, MIT), from the USA Freeway System data set (USDOT / Esri, hub.arcgis.com/datasets/esri::usa-freeway-system-over-1500k)",
    licence: "public data; scgraph packaging MIT",
  },
  {
    input: "north_america_rail.graphjson",
    output: "north-america-rail.json",
    name: "North American Class I rail",
    basis: "rail network (North American Class I)",
    modality: "RAIL",
    countries: ["124", "484", "840"],
    source:
      "scgraph geograph north_america_rail (github.com/connor-makowski/scgraph, MIT), from the North American Rail Network Lines, Class I freight railroads (USDOT BTS NTAD, geodata.bts.gov)",
    licence: "public domain (US government work); scgraph packaging MIT",
  },
];

const COORDINATE_SCALE = 1000;
/** Lengths to 10 m. */
const LENGTH_SCALE = 0.1;

export function compactGeoGraph(
  g: GeoGraphFile,
  meta: Omit<LandNetworkFile, "lat" | "lng" | "edges" | "coordinateScale" | "lengthScale">
): LandNetworkFile {
  if ((g.geograph_units ?? "km") !== "km") throw new Error(`units ${g.geograph_units}, not km`);
  const lat: number[] = [];
  const lng: number[] = [];
  let pa = 0;
  let pn = 0;
  for (const [a, b] of g.nodes) {
    const ia = Math.round(a * COORDINATE_SCALE);
    const ib = Math.round(b * COORDINATE_SCALE);
    lat.push(ia - pa);
    lng.push(ib - pn);
    pa = ia;
    pn = ib;
  }
  // Each undirected line once (a < b), the shorter length when the two directions differ.
  const lines = new Map<string, [number, number, number]>();
  g.graph.forEach((neighbours, a) => {
    for (const [k, km] of Object.entries(neighbours)) {
      const b = Number(k);
      if (b === a) continue;
      const [x, y] = a < b ? [a, b] : [b, a];
      const id = `${x}:${y}`;
      const known = lines.get(id);
      if (!known || km < known[2]) lines.set(id, [x, y, km]);
    }
  });
  const sorted = [...lines.values()].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const edges: number[] = [];
  let prevA = 0;
  for (const [a, b, km] of sorted) {
    edges.push(a - prevA, b - a, Math.max(1, Math.round(km * 1000 * LENGTH_SCALE)));
    prevA = a;
  }
  return {
    ...meta,
    coordinateScale: COORDINATE_SCALE,
    lengthScale: LENGTH_SCALE,
    lat,
    lng,
    edges,
  };
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: build-land-networks <directory of scgraph geographs>");
  const out = path.resolve(__dirname, "..", "..", "..", "data", "land");
  fs.mkdirSync(out, { recursive: true });
  for (const { input, output, ...meta } of LAND_NETWORKS) {
    const g = JSON.parse(fs.readFileSync(path.join(dir, input), "utf8")) as GeoGraphFile;
    const file = compactGeoGraph(g, meta);
    fs.writeFileSync(path.join(out, output), JSON.stringify(file) + "\n");
    console.log(`${output}: ${file.lat.length} nodes, ${file.edges.length / 3} lines`);
  }
}
