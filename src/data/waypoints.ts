/** Reads data/waypoints.json: named sea waypoints for via= (passages, capes). */
import fs from "node:fs";
import path from "node:path";
import type { Waypoints } from "../engine/voyage/via";

export const WAYPOINTS_FILE = path.resolve(__dirname, "../../data/waypoints.json");

export function loadWaypoints(file: string = WAYPOINTS_FILE): Waypoints {
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as {
    waypoints: Record<string, { lat: number; lng: number }>;
  };
  const out: Record<string, { lat: number; lng: number }> = {};
  for (const [name, w] of Object.entries(raw.waypoints)) out[name] = { lat: w.lat, lng: w.lng };
  return out;
}
