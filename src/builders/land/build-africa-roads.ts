/**
 * Builds data/land/africa-roads.json, the Trans-African road network TRUCK routes on, from the
 * CSV export of S. Krantz's network (github.com/SebKrantz/OptimalAfricanRoads,
 * data/transport_network/csv/: graph_nodes.csv and graph_orig.csv, GPL-3; the same network ships
 * as `africa_network` in the R package flownet). Its nodes are African cities of 100,000 people
 * or more, ports and junctions; its lines are the existing roads between them (the "proposed"
 * links of graph_add.csv are left out), each with its length as OSRM measured it on
 * OpenStreetMap (ODbL). Only the node positions and the road lengths are kept.
 *
 * Run:  npm run build:node && node dist/builders/land/build-africa-roads.js <csv dir>
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "../../data/csv";
import { compactGeoGraph } from "./build-land-networks";
import type { LandNetworkFile } from "../../engine/routing/overland/land-network";

/** ISO 3166-1 alpha-3 to numeric (the codes the country grid answers) for the network's countries. */
export const AFRICAN_ISO_NUMERIC: Readonly<Record<string, string>> = {
  AGO: "024",
  BDI: "108",
  BEN: "204",
  BFA: "854",
  BWA: "072",
  CAF: "140",
  CIV: "384",
  CMR: "120",
  COD: "180",
  COG: "178",
  DJI: "262",
  DZA: "012",
  EGY: "818",
  ERI: "232",
  ESH: "732",
  ETH: "231",
  GAB: "266",
  GHA: "288",
  GIN: "324",
  GMB: "270",
  GNB: "624",
  GNQ: "226",
  KEN: "404",
  LBR: "430",
  LBY: "434",
  LSO: "426",
  MAR: "504",
  MLI: "466",
  MOZ: "508",
  MRT: "478",
  MWI: "454",
  NAM: "516",
  NER: "562",
  NGA: "566",
  RWA: "646",
  SDN: "729",
  SEN: "686",
  SLE: "694",
  SOM: "706",
  SSD: "728",
  SWZ: "748",
  TCD: "148",
  TGO: "768",
  TUN: "788",
  TZA: "834",
  UGA: "800",
  ZAF: "710",
  ZMB: "894",
  ZWE: "716",
};

export const AFRICA_ROADS_META: Omit<
  LandNetworkFile,
  "lat" | "lng" | "edges" | "coordinateScale" | "lengthScale"
> = {
  name: "Trans-African roads",
  basis: "road network (OSRM)",
  modality: "TRUCK",
  countries: [],
  source:
    "S. Krantz, Optimal Investments in Africa's Road Network (World Bank Policy Research Working Paper 10893, 2024): github.com/SebKrantz/OptimalAfricanRoads data/transport_network/csv/graph_nodes.csv and graph_orig.csv (existing roads only), also shipped as africa_network in the R package flownet; road lengths by OSRM on OpenStreetMap",
  licence:
    "GPL-3 (the repository and flownet); road lengths derived from OpenStreetMap data, © OpenStreetMap contributors, ODbL 1.0",
};

/** The network's two CSV files as one LandNetworkFile (node ids are 1-based row numbers). */
export function africaRoadsFromCsv(nodesCsv: string, edgesCsv: string): LandNetworkFile {
  const nodes = parse(nodesCsv, { columns: true }) as Array<Record<string, string>>;
  const edges = parse(edgesCsv, { columns: true }) as Array<Record<string, string>>;
  const countries = new Set<string>();
  const graph: Array<Record<string, number>> = nodes.map(() => ({}));
  for (const n of nodes) {
    const code = AFRICAN_ISO_NUMERIC[n.iso3c];
    if (!code) throw new Error(`no ISO numeric code for ${n.iso3c}`);
    countries.add(code);
  }
  for (const e of edges) {
    const a = Number(e.from) - 1;
    const b = Number(e.to) - 1;
    const km = Number(e.distance) / 1000;
    if (!graph[a] || !graph[b] || !(km > 0)) throw new Error(`bad line ${e.from}-${e.to}`);
    graph[a][String(b)] = km;
  }
  return compactGeoGraph(
    { nodes: nodes.map((n) => [Number(n.lat), Number(n.lon)]), graph, geograph_units: "km" },
    { ...AFRICA_ROADS_META, countries: [...countries].sort() }
  );
}

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir)
    throw new Error("usage: build-africa-roads <directory with graph_nodes.csv, graph_orig.csv>");
  const file = africaRoadsFromCsv(
    fs.readFileSync(path.join(dir, "graph_nodes.csv"), "utf8"),
    fs.readFileSync(path.join(dir, "graph_orig.csv"), "utf8")
  );
  const out = path.resolve(
    __dirname,
    "..",
    "..",
    "..",
    "data",
    "land-validation",
    "africa-roads.json"
  );
  fs.writeFileSync(out, JSON.stringify(file) + "\n");
  console.log(`africa-roads.json: ${file.lat.length} nodes, ${file.edges.length / 3} lines`);
}
