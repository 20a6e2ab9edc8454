/**
 * A LOCODE against its port's published position: for every port position of the published
 * tables (test/fixtures/sea-distances.csv and shortsea-distances.csv, NGA Pub. 151 and others;
 * used here for the positions only), the nearest port of the place data within 15 km; each pair of
 * the tables whose two ends have one is routed by the LOCODEs' coordinates and by the published
 * positions. Prints how many differ by more than 15 % and the worst.
 *
 * `node dist/bench/locode-position.js`
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "csv-parse/sync";
import { geodesicMeters } from "../engine/geo/geodesy";
import type { LatLng, Passage } from "../engine/types";

export interface PortPoint extends LatLng {
  locode: string;
}

export interface TablePair {
  key: string;
  from: LatLng;
  to: LatLng;
  avoid: Passage[];
}

const FIXTURES = path.resolve(__dirname, "..", "..", "test", "fixtures");

/** The pairs of both published tables, with their positions and the passages each avoids. */
export function tablePairs(): TablePair[] {
  const read = (file: string): Array<Record<string, string>> =>
    parse(fs.readFileSync(path.join(FIXTURES, file), "utf8"), {
      columns: true,
      skip_empty_lines: true,
    }) as Array<Record<string, string>>;
  const pairs: TablePair[] = [];
  for (const r of read("sea-distances.csv"))
    pairs.push({
      key: `${r.origin_locode}-${r.destination_locode} ${r.via}`,
      from: { lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
      to: { lat: Number(r.destination_lat), lng: Number(r.destination_lng) },
      avoid: r.avoid ? (r.avoid.split("+") as Passage[]) : [],
    });
  for (const r of read("shortsea-distances.csv"))
    pairs.push({
      key: `${r.origin} - ${r.destination}`,
      from: { lat: Number(r.origin_lat), lng: Number(r.origin_lng) },
      to: { lat: Number(r.destination_lat), lng: Number(r.destination_lng) },
      avoid: [],
    });
  return pairs;
}

/** The nearest port within `maxM` of p, or undefined. */
export function nearestPort(p: LatLng, ports: PortPoint[], maxM = 15_000): PortPoint | undefined {
  let best: PortPoint | undefined;
  let bestM = maxM;
  for (const q of ports) {
    if (Math.abs(q.lat - p.lat) > 0.2) continue;
    const m = geodesicMeters(p.lat, p.lng, q.lat, q.lng);
    if (m < bestM) {
      bestM = m;
      best = q;
    }
  }
  return best;
}

export interface LocodeComparison {
  key: string;
  from: PortPoint;
  to: PortPoint;
  byPosition: number;
  byLocode: number;
  /** byLocode ÷ byPosition − 1. */
  off: number;
}

export function compareByLocode(
  pairs: TablePair[],
  ports: PortPoint[],
  route: (from: LatLng, to: LatLng, avoid: Passage[]) => number | null
): LocodeComparison[] {
  const out: LocodeComparison[] = [];
  for (const pair of pairs) {
    const from = nearestPort(pair.from, ports);
    const to = nearestPort(pair.to, ports);
    if (!from || !to || from.locode === to.locode) continue;
    const byPosition = route(pair.from, pair.to, pair.avoid);
    const byLocode = route(from, to, pair.avoid);
    if (byPosition === null || byLocode === null) continue;
    out.push({ key: pair.key, from, to, byPosition, byLocode, off: byLocode / byPosition - 1 });
  }
  return out;
}

/* istanbul ignore next -- the command-line run */
if (require.main === module) {
  const { loadSeaRouter } = require("../data/sea") as typeof import("../data/sea");
  const { loadPlaces } = require("../data/places") as typeof import("../data/places");
  const { DEFAULT_CLOSED } =
    require("../engine/routing/vessels") as typeof import("../engine/routing/vessels");
  const router = loadSeaRouter();
  const ports: PortPoint[] = loadPlaces()
    .ports.all()
    .filter((p) => p.lat !== undefined && p.lng !== undefined)
    .map((p) => ({ locode: p.locode, lat: p.lat!, lng: p.lng! }));
  const results = compareByLocode(tablePairs(), ports, (a, b, avoid) => {
    const r = router.route(a, b, { closed: new Set([...DEFAULT_CLOSED, ...avoid]) });
    return r ? r.meters : null;
  });
  const over = results.filter((r) => Math.abs(r.off) > 0.15).sort((x, y) => y.off - x.off);
  console.log(
    `${results.length} table pairs with a LOCODE within 15 km at both ends; ${over.length} more than 15 % off by LOCODE`
  );
  for (const r of over)
    console.log(
      `  ${r.key} (${r.from.locode}-${r.to.locode}): ${(r.byLocode / 1852).toFixed(0)} nm by LOCODE, ${(r.byPosition / 1852).toFixed(0)} nm by position (${r.off > 0 ? "+" : ""}${(100 * r.off).toFixed(0)} %)`
    );
}
