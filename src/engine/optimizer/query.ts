/**
 * Parsing and validation of the route-search query (service-interface.md §4.4). Every error names
 * the parameter and the allowed values. Array parameters accept repeated keys and comma lists.
 */
import { incorrectValues } from "../errors";
import {
  parsePlaceInput,
  PLACE_FORMS,
  LOCODE_PATTERN,
  normaliseLocode,
} from "../places/parse-place";
import { MODALITIES, Modality, PlaceKind } from "../types";
import { RawQuery } from "./types";

export const PLACE_TYPES: readonly PlaceKind[] = ["LOCODE", "TERMINAL", "GEO"];
export const SORT_KEYS = ["LEAD_TIME", "EMISSIONS", "TRANSFERS", "DEPARTURE", "ARRIVAL"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const DEFAULT_SORT: SortKey = "LEAD_TIME";

export interface PlaceQuery {
  value: string;
  type: PlaceKind;
}

export interface QueryDefaults {
  /** Minutes since the epoch that stand for "now". */
  now: number;
  departureWindowDays: number;
  searchHorizonDays: number;
  maxFirstMileTruckingKm: number;
  maxLastMileTruckingKm: number;
}

export interface ParsedQuery {
  origin: PlaceQuery;
  destination: PlaceQuery;
  modalities: Set<Modality>;
  /** Minutes since the epoch, inclusive. */
  minDeparture: number;
  maxDeparture: number;
  maxArrival: number;
  maxTransfers: number;
  allRequiredOperators: string[];
  anyRequiredOperators: string[];
  excludedOperators: string[];
  anyRequiredLocodes: string[];
  allRequiredLocodes: string[];
  excludedLocodes: string[];
  maxFirstMileTruckingKm: number;
  maxLastMileTruckingKm: number;
  sort: SortKey;
  directSeaOnly: boolean;
  /** kg CO2e per TEU; Infinity when not given. */
  maxEmission: number;
  /** Minutes; the search horizon when not given. */
  maxLeadMinutes: number;
}

const DAY = 1440;
/**
 * Most values each list parameter takes. "All required" lists add a requirement bit each, and the
 * search keeps labels per subset of them: few, so a query cannot multiply the search.
 */
export const LIST_LIMITS = {
  modalities: 5,
  allRequiredOperators: 6,
  anyRequiredOperators: 20,
  excludedOperators: 50,
  anyRequiredLocodes: 20,
  allRequiredLocodes: 6,
  excludedLocodes: 50,
} as const;

export function parseQuery(raw: RawQuery, d: QueryDefaults): ParsedQuery {
  const origin = parsePlace(raw, "origin", "originType");
  const destination = parsePlace(raw, "destination", "destinationType");
  const modalities = parseModalities(list(raw, "modalities"));

  const minDepartureGiven = parseDate(scalar(raw, "minDeparture"), "minDeparture", "start");
  const minDeparture = minDepartureGiven ?? d.now;
  const maxDeparture =
    parseDate(scalar(raw, "maxDeparture"), "maxDeparture", "end") ??
    minDeparture + d.departureWindowDays * DAY;
  if (maxDeparture < minDeparture) {
    throw incorrectValues(
      "maxDeparture",
      `maxDeparture must not be before minDeparture (${new Date(minDeparture * 60000).toISOString()}).`
    );
  }
  const maxArrival = parseDate(scalar(raw, "maxArrival"), "maxArrival", "end") ?? Infinity;
  if (maxArrival < minDeparture) {
    throw incorrectValues(
      "maxArrival",
      `maxArrival must not be before minDeparture (${new Date(minDeparture * 60000).toISOString()}).`
    );
  }
  const leadText = scalar(raw, "maxLeadTime");
  const maxLeadMinutes =
    leadText === undefined ? d.searchHorizonDays * DAY : parseDuration(leadText, "maxLeadTime");

  const q: ParsedQuery = {
    origin,
    destination,
    modalities,
    minDeparture,
    maxDeparture,
    maxArrival,
    maxTransfers: parseInteger(scalar(raw, "maxTransfers"), "maxTransfers", 0, 1000) ?? Infinity,
    allRequiredOperators: operatorList(raw, "allRequiredOperators"),
    anyRequiredOperators: operatorList(raw, "anyRequiredOperators"),
    excludedOperators: operatorList(raw, "excludedOperators"),
    anyRequiredLocodes: locodeList(raw, "anyRequiredLocodes"),
    allRequiredLocodes: locodeList(raw, "allRequiredLocodes"),
    excludedLocodes: locodeList(raw, "excludedLocodes"),
    maxFirstMileTruckingKm:
      parseInteger(scalar(raw, "maxFirstMileTruckingKm"), "maxFirstMileTruckingKm", 0, 5000) ??
      d.maxFirstMileTruckingKm,
    maxLastMileTruckingKm:
      parseInteger(scalar(raw, "maxLastMileTruckingKm"), "maxLastMileTruckingKm", 0, 5000) ??
      d.maxLastMileTruckingKm,
    sort: parseSort(scalar(raw, "sort")),
    directSeaOnly: parseBoolean(scalar(raw, "directSeaOnly"), "directSeaOnly") ?? false,
    maxEmission: parseNonNegative(scalar(raw, "maxEmission"), "maxEmission") ?? Infinity,
    maxLeadMinutes,
  };
  for (const [p, max] of Object.entries(LIST_LIMITS)) {
    const n =
      p === "modalities"
        ? q.modalities.size
        : q[p as Exclude<keyof typeof LIST_LIMITS, "modalities">].length;
    if (n > max) throw incorrectValues(p, `${p} accepts at most ${max} values (got ${n}).`);
  }
  return q;
}

/** The single value of a scalar parameter; blank counts as absent. */
function scalar(raw: RawQuery, name: string): string | undefined {
  const v = raw[name];
  if (v === undefined) return undefined;
  if (Array.isArray(v)) {
    const vals = [...new Set(v.map((x) => x.trim()).filter((x) => x !== ""))];
    if (vals.length > 1)
      throw incorrectValues(
        name,
        `${name} must be given once; got ${vals.map((x) => `"${x}"`).join(", ")}.`
      );
    return vals[0];
  }
  const t = v.trim();
  return t === "" ? undefined : t;
}

/** Items of an array parameter: repeated keys and comma-separated lists, blanks dropped. */
function list(raw: RawQuery, name: string): string[] {
  const v = raw[name];
  if (v === undefined) return [];
  const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(","));
  return parts.map((x) => x.trim()).filter((x) => x !== "");
}

function parsePlace(raw: RawQuery, name: string, typeName: string): PlaceQuery {
  const value = scalar(raw, name);
  if (value === undefined) throw incorrectValues(name, `${name} is required; ${PLACE_FORMS}.`);
  const typeText = scalar(raw, typeName);
  if (typeText === undefined)
    throw incorrectValues(
      typeName,
      `${typeName} is required; allowed values: ${PLACE_TYPES.join(", ")}.`
    );
  const type = typeText.toUpperCase() as PlaceKind;
  if (!PLACE_TYPES.includes(type)) {
    throw incorrectValues(
      typeName,
      `${typeName} "${typeText}" is not allowed; allowed values: ${PLACE_TYPES.join(", ")}.`
    );
  }
  const input = parsePlaceInput(value, name);
  if (input.kind !== type) {
    throw incorrectValues(
      name,
      `${name} "${value}" is a ${input.kind} but ${typeName} is ${type}; ${PLACE_FORMS}.`
    );
  }
  return { value: input.kind === "LOCODE" ? input.locode : value, type };
}

function parseModalities(items: string[]): Set<Modality> {
  if (!items.length) return new Set(MODALITIES);
  const out = new Set<Modality>();
  for (const it of items) {
    const m = it.toUpperCase();
    if (!(MODALITIES as readonly string[]).includes(m)) {
      throw incorrectValues(
        "modalities",
        `modalities "${it}" is not allowed; allowed values: ${MODALITIES.join(", ")}.`
      );
    }
    out.add(m as Modality);
  }
  return out;
}

function operatorList(raw: RawQuery, name: string): string[] {
  return [...new Set(list(raw, name).map((x) => x.toUpperCase()))];
}

function locodeList(raw: RawQuery, name: string): string[] {
  const out = new Set<string>();
  for (const it of list(raw, name)) {
    const l = normaliseLocode(it);
    if (!l || !LOCODE_PATTERN.test(l)) {
      throw incorrectValues(
        name,
        `${name} "${it}" is not a UN/LOCODE: 2-letter country code + 3 letters/digits 2-9, e.g. NLRTM.`
      );
    }
    out.add(l);
  }
  return [...out];
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * A date (`YYYY-MM-DD`, UTC) or a date-time with offset. A bare date used as an upper bound
 * (`end`) includes its whole day.
 */
export function parseDate(
  text: string | undefined,
  name: string,
  bound: "start" | "end"
): number | undefined {
  if (text === undefined) return undefined;
  const allowed = `${name} must be a date YYYY-MM-DD (UTC) or a date-time such as 2026-01-31T12:00:00Z.`;
  const m = DATE_ONLY.exec(text);
  if (m) {
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    const check = new Date(ms);
    if (check.getUTCMonth() !== Number(m[2]) - 1 || check.getUTCDate() !== Number(m[3])) {
      throw incorrectValues(name, `${name} "${text}" is not a calendar date; ${allowed}`);
    }
    const start = Math.floor(ms / 60000);
    return bound === "start" ? start : start + DAY - 1;
  }
  if (DATE_TIME.test(text)) {
    const ms = Date.parse(text);
    if (Number.isFinite(ms))
      return bound === "start" ? Math.ceil(ms / 60000) : Math.floor(ms / 60000);
  }
  throw incorrectValues(name, `${name} "${text}" is not valid; ${allowed}`);
}

const DURATION =
  /^P(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;

/** ISO 8601 duration in weeks, days, hours, minutes, seconds (e.g. P21D, PT36H, P1W2DT6H) → minutes. */
export function parseDuration(text: string, name: string): number {
  const allowed = `${name} must be an ISO 8601 duration with weeks, days, hours, minutes or seconds, e.g. P21D, PT36H or P2DT12H (years and months are not allowed: their length varies).`;
  const m = DURATION.exec(text);
  if (!m || text.toUpperCase() === "P" || text.toUpperCase().endsWith("T"))
    throw incorrectValues(name, `${name} "${text}" is not valid; ${allowed}`);
  const [w, d, h, min, s] = m.slice(1).map((x) => (x ? Number(x) : 0));
  const minutes = w * 7 * DAY + d * DAY + h * 60 + min + s / 60;
  if (!(minutes > 0))
    throw incorrectValues(name, `${name} "${text}" must be longer than zero; ${allowed}`);
  return Math.floor(minutes);
}

function parseInteger(
  text: string | undefined,
  name: string,
  min: number,
  max: number
): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[+]?\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    throw incorrectValues(name, `${name} "${text}" must be a whole number from ${min} to ${max}.`);
  }
  return Number(text);
}

function parseNonNegative(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^[+]?(\d+(\.\d*)?|\.\d+)$/.test(text) || !Number.isFinite(n)) {
    throw incorrectValues(
      name,
      `${name} "${text}" must be a non-negative number of kilograms CO2e.`
    );
  }
  return n;
}

function parseBoolean(text: string | undefined, name: string): boolean | undefined {
  if (text === undefined) return undefined;
  const t = text.toLowerCase();
  if (t === "true") return true;
  if (t === "false") return false;
  throw incorrectValues(name, `${name} "${text}" is not allowed; allowed values: true, false.`);
}

function parseSort(text: string | undefined): SortKey {
  if (text === undefined) return DEFAULT_SORT;
  const key = text.toUpperCase().replace(/[\s-]+/g, "_");
  const compact = key.replace(/_/g, "");
  const found = SORT_KEYS.find((k) => k === key || k.replace(/_/g, "") === compact);
  if (!found)
    throw incorrectValues(
      "sort",
      `sort "${text}" is not allowed; allowed values: ${SORT_KEYS.join(", ")} (case-insensitive).`
    );
  return found;
}
