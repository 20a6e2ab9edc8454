/** data/places-unlocode-osm.csv: OpenStreetMap positions for codes no other source places. */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "../../data/csv";

export const OSM_POSITIONS_FILE = path.resolve(__dirname, "../../../data/places-unlocode-osm.csv");

export interface OsmPosition {
  lat: number;
  lng: number;
  osmObject: string;
}

export function readOsmPositions(file: string): Map<string, OsmPosition> {
  if (!fs.existsSync(file)) return new Map();
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  return new Map(
    rows.map((r) => [r.locode, { lat: Number(r.lat), lng: Number(r.lng), osmObject: r.osm_object }])
  );
}
