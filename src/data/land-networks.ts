/**
 * The road and rail networks of data/land/*.json (src/builders/land/build-land-networks.ts), each
 * parsed on the first trip that can reach it. A small index of every file (its name, modality,
 * basis, countries and the bounding box of its nodes) is kept as a snapshot; while a trip's ends
 * lie farther than the access radius from a network's box, the network answers "no node near"
 * without being parsed, so a sheet of European lanes never loads the North American networks.
 */
import * as fs from "fs";
import * as path from "path";
import { LandNetwork, LandNetworkFile, NetworkAccess } from "../engine/routing/overland/land-network";
import type { LatLng } from "../engine/types";
import { onFirstUse } from "./on-first-use";
import { cachedSnapshot } from "./snapshot/cache";

/** What the index keeps of one network file. */
export interface LandNetworkSummary {
  file: string;
  name: string;
  basis: LandNetwork["basis"];
  modality: LandNetwork["modality"];
  countries: string[];
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

/** The networks of `dir` (its *.json files, by name), each a LandNetwork parsed on first need. */
export function lazyLandNetworks(dir: string): LandNetwork[] {
  if (!fs.existsSync(dir)) return [];
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort()
    .map((f) => path.join(dir, f));
  if (!files.length) return [];
  const { networks } = cachedSnapshot(
    "land-networks",
    { dataFiles: files, code: ["data/land-networks", "data/snapshot"] },
    () => ({ networks: files.map((f) => summarise(f, readNetworkFile(f))) })
  ).value;
  return networks.map((summary, i) => lazyNetwork({ ...summary, file: files[i] }));
}

function readNetworkFile(file: string): LandNetworkFile {
  return JSON.parse(fs.readFileSync(file, "utf8")) as LandNetworkFile;
}

/** The index entry of a network file: its nodes' box, decoded as LandNetwork decodes them. */
export function summarise(file: string, json: LandNetworkFile): LandNetworkSummary {
  let minLat = Infinity,
    maxLat = -Infinity,
    minLng = Infinity,
    maxLng = -Infinity;
  let la = 0,
    ln = 0;
  for (let i = 0; i < json.lat.length; i++) {
    la += json.lat[i];
    ln += json.lng[i];
    const lat = la / json.coordinateScale;
    const lng = ln / json.coordinateScale;
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  return {
    file: path.basename(file),
    name: json.name,
    basis: json.basis,
    modality: json.modality,
    countries: json.countries,
    minLat,
    maxLat,
    minLng,
    maxLng,
  };
}

/**
 * Whether every point within `meters` (geodesic) of p lies outside the box. Conservative: a
 * degree of latitude is at least 110.5 km, so a path of length d from p stays within d / 110 km
 * degrees of p's latitude, and there a degree of longitude is at least 6,300 km × cos(latitude)
 * × π / 180; the bounds are then widened by a quarter, so the test never hides a node nearNodes
 * would find.
 */
export function beyondBox(p: LatLng, meters: number, box: LandNetworkSummary): boolean {
  const reach = (meters * 1.25) / 110_000;
  if (p.lat + reach < box.minLat || p.lat - reach > box.maxLat) return true;
  const highest = Math.abs(p.lat) + reach;
  if (highest >= 89) return false;
  const lngGap =
    p.lng >= box.minLng && p.lng <= box.maxLng
      ? 0
      : Math.min((box.minLng - p.lng + 360) % 360, (p.lng - box.maxLng + 360) % 360);
  const metersPerDegree = (6_300_000 * Math.cos((highest * Math.PI) / 180) * Math.PI) / 180;
  return lngGap * metersPerDegree > meters * 1.25;
}

/**
 * A LandNetwork that answers its index fields (and nearNodes far from its box) itself, and
 * parses the file for anything else (methods stay bound to the parsed network).
 */
function lazyNetwork(summary: LandNetworkSummary): LandNetwork {
  let real: LandNetwork | undefined;
  const network = (): LandNetwork =>
    (real ??= new LandNetwork(readNetworkFile(summary.file)));
  return onFirstUse(network, {
    known: {
      name: summary.name,
      basis: summary.basis,
      modality: summary.modality,
      countries: new Set(summary.countries),
      nearNodes: (p: LatLng, maxMeters: number, limit: number): NetworkAccess[] =>
        beyondBox(p, maxMeters, summary) ? [] : network().nearNodes(p, maxMeters, limit),
    },
    prototype: LandNetwork.prototype,
  });
}
