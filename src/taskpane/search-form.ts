/**
 * The route-search form as data: what the user typed → the query of
 * `GET /route-optimizer/api/external`, with the mistakes found before asking the service. Field
 * names are the API's parameter names, so a problem detail naming a parameter maps to its field.
 * Pure (no DOM), so it is unit-tested directly.
 */
import { canonicalQuery } from "../client/query";
import type { RouteOptionsParams } from "../client/types";
import { ROUTE_SEARCH_PARAMETERS } from "../engine/optimizer/types";
import { detectPlace, DetectedPlace } from "../functions/place-type";

export const MODALITY_CHOICES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"] as const;

/** The optimizer's sort keys (src/engine/optimizer/query.ts SORT_KEYS) with labels for the pane. */
export const SORT_CHOICES = [
  { value: "LEAD_TIME", label: "Shortest lead time" },
  { value: "EMISSIONS", label: "Lowest CO2e" },
  { value: "TRANSFERS", label: "Fewest transfers" },
  { value: "DEPARTURE", label: "Earliest departure" },
  { value: "ARRIVAL", label: "Earliest arrival" },
] as const;

/** Every query parameter of the endpoint, in the order the form shows them. */
export const SEARCH_PARAMETERS = ROUTE_SEARCH_PARAMETERS;
export type SearchParameter = (typeof SEARCH_PARAMETERS)[number];

/** The form's values as the inputs hold them (text, checked boxes, selected options). */
export interface SearchFormValues {
  origin: string;
  destination: string;
  /** Checked modalities; none checked = all modalities. */
  modalities: string[];
  /** `YYYY-MM-DD` (what `<input type=date>` gives) or empty. */
  minDeparture: string;
  maxDeparture: string;
  maxArrival: string;
  maxTransfers: string;
  /** Operator SCACs or ids. */
  allRequiredOperators: string[];
  anyRequiredOperators: string[];
  excludedOperators: string[];
  /** LOCODEs separated by commas or spaces. */
  anyRequiredLocodes: string;
  allRequiredLocodes: string;
  excludedLocodes: string;
  maxFirstMileTruckingKm: string;
  maxLastMileTruckingKm: string;
  sort: string;
  directSeaOnly: boolean;
  /** kg CO2e. */
  maxEmission: string;
  /** Days (e.g. `21`, `2.5`) or an ISO 8601 duration (`P21D`, `PT36H`). */
  maxLeadTime: string;
}

export function emptySearchForm(): SearchFormValues {
  return {
    origin: "",
    destination: "",
    modalities: [],
    minDeparture: "",
    maxDeparture: "",
    maxArrival: "",
    maxTransfers: "",
    allRequiredOperators: [],
    anyRequiredOperators: [],
    excludedOperators: [],
    anyRequiredLocodes: "",
    allRequiredLocodes: "",
    excludedLocodes: "",
    maxFirstMileTruckingKm: "",
    maxLastMileTruckingKm: "",
    sort: "LEAD_TIME",
    directSeaOnly: false,
    maxEmission: "",
    maxLeadTime: "",
  };
}

export interface FieldError {
  /** The API parameter (= form field) at fault. */
  field: SearchParameter;
  message: string;
}

export interface BuiltSearch {
  /** Undefined when there are errors. */
  params?: RouteOptionsParams;
  /** The query string the client will send (sorted keys, arrays as repeated keys). */
  queryString: string;
  errors: FieldError[];
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WHOLE = /^\+?\d+$/;
const DECIMAL = /^\+?(\d+(\.\d*)?|\.\d+)$/;
const ISO_DURATION =
  /^P(?:\d+(?:\.\d+)?W)?(?:\d+(?:\.\d+)?D)?(?:T(?:\d+(?:\.\d+)?H)?(?:\d+(?:\.\d+)?M)?(?:\d+(?:\.\d+)?S)?)?$/i;

export const PLACE_HINT =
  'use a UN/LOCODE (e.g. NLRTM), a terminal id (uuid, pick one from the suggestions) or "lat,lng" (e.g. 51.95,4.14)';

/** What the place text is, as the pane shows it next to the field ("LOCODE", "TERMINAL", "GEO"), or undefined. */
export function placeTypeOf(text: string): DetectedPlace | undefined {
  return detectPlace(text);
}

/** Items of a LOCODE list typed with commas, semicolons or spaces, upper-cased, de-duplicated. */
export function splitLocodes(text: string): string[] {
  const items = text
    .split(/[\s,;]+/)
    .map((x) => x.trim().toUpperCase())
    .filter((x) => x !== "");
  return [...new Set(items)];
}

/** Validates the form and builds the query; every message names the field and what it accepts. */
export function buildSearchQuery(values: SearchFormValues): BuiltSearch {
  const errors: FieldError[] = [];
  const fail = (field: SearchParameter, message: string) => errors.push({ field, message });
  const params: RouteOptionsParams = {
    origin: "",
    originType: "LOCODE",
    destination: "",
    destinationType: "LOCODE",
  };

  for (const [field, typeField] of [
    ["origin", "originType"],
    ["destination", "destinationType"],
  ] as const) {
    const text = values[field].trim();
    const place = detectPlace(text);
    if (!text) fail(field, `${field} is required: ${PLACE_HINT}.`);
    else if (!place) fail(field, `${field} "${text}" is not a place: ${PLACE_HINT}.`);
    else {
      params[field] = place.value;
      params[typeField] = place.type;
    }
  }

  const modalities = values.modalities.map((m) => m.toUpperCase());
  const unknownModality = modalities.find(
    (m) => !(MODALITY_CHOICES as readonly string[]).includes(m)
  );
  if (unknownModality)
    fail(
      "modalities",
      `modalities "${unknownModality}" is not allowed; allowed values: ${MODALITY_CHOICES.join(", ")}.`
    );
  // All boxes ticked means the same as none: leave the parameter out.
  if (modalities.length && modalities.length < MODALITY_CHOICES.length)
    params.modalities = modalities;

  const dates: Partial<Record<"minDeparture" | "maxDeparture" | "maxArrival", number>> = {};
  for (const field of ["minDeparture", "maxDeparture", "maxArrival"] as const) {
    const text = values[field].trim();
    if (!text) continue;
    const day = parseDay(text);
    if (day === undefined)
      fail(field, `${field} "${text}" is not a date: use YYYY-MM-DD (UTC), e.g. 2026-03-01.`);
    else {
      dates[field] = day;
      params[field] = text;
    }
  }
  if (
    dates.minDeparture !== undefined &&
    dates.maxDeparture !== undefined &&
    dates.maxDeparture < dates.minDeparture
  ) {
    fail("maxDeparture", "maxDeparture must not be before minDeparture.");
  }
  if (
    dates.minDeparture !== undefined &&
    dates.maxArrival !== undefined &&
    dates.maxArrival < dates.minDeparture
  ) {
    fail("maxArrival", "maxArrival must not be before minDeparture.");
  }

  const whole = (
    field: "maxTransfers" | "maxFirstMileTruckingKm" | "maxLastMileTruckingKm",
    max: number,
    unit: string
  ) => {
    const text = values[field].trim();
    if (!text) return;
    if (!WHOLE.test(text) || Number(text) > max)
      fail(field, `${field} "${text}" must be a whole number from 0 to ${max}${unit}.`);
    else params[field] = Number(text);
  };
  whole("maxTransfers", 1000, "");
  whole("maxFirstMileTruckingKm", 5000, " km");
  whole("maxLastMileTruckingKm", 5000, " km");

  for (const field of [
    "allRequiredOperators",
    "anyRequiredOperators",
    "excludedOperators",
  ] as const) {
    const items = [...new Set(values[field].map((x) => x.trim()).filter((x) => x !== ""))];
    if (items.length) params[field] = items;
  }
  const required = new Set(values.allRequiredOperators);
  const clash = values.excludedOperators.find((op) => required.has(op));
  if (clash)
    fail(
      "excludedOperators",
      `excludedOperators: "${clash}" is also in allRequiredOperators; a route cannot both need and avoid it.`
    );

  for (const field of ["anyRequiredLocodes", "allRequiredLocodes", "excludedLocodes"] as const) {
    const items = splitLocodes(values[field]);
    const bad = items.find((x) => !LOCODE.test(x));
    if (bad)
      fail(
        field,
        `${field} "${bad}" is not a UN/LOCODE: 2-letter country code + 3 letters/digits 2-9, e.g. NLRTM; separate several with commas.`
      );
    else if (items.length) params[field] = items;
  }

  const sort = values.sort.trim().toUpperCase();
  if (sort) {
    if (!SORT_CHOICES.some((s) => s.value === sort)) {
      fail(
        "sort",
        `sort "${values.sort}" is not allowed; allowed values: ${SORT_CHOICES.map((s) => s.value).join(", ")}.`
      );
    } else params.sort = sort;
  }

  if (values.directSeaOnly) params.directSeaOnly = true;

  const emission = values.maxEmission.trim();
  if (emission) {
    if (!DECIMAL.test(emission))
      fail(
        "maxEmission",
        `maxEmission "${emission}" must be a non-negative number of kilograms CO2e.`
      );
    else params.maxEmission = Math.floor(Number(emission)); // the interface types it as int64
  }

  const lead = values.maxLeadTime.trim();
  if (lead) {
    const duration = leadTimeDuration(lead);
    if (!duration)
      fail(
        "maxLeadTime",
        `maxLeadTime "${lead}" must be a number of days greater than 0 (e.g. 21) or an ISO 8601 duration (e.g. P21D, PT36H).`
      );
    else params.maxLeadTime = duration;
  }

  const queryString = canonicalQuery(params);
  return errors.length ? { queryString, errors } : { params, queryString, errors };
}

/** Days → `P{n}D` (hours when fractional: 2.5 → `P2DT12H`); ISO durations pass through upper-cased. */
export function leadTimeDuration(text: string): string | undefined {
  const t = text.trim();
  if (DECIMAL.test(t)) {
    const days = Number(t);
    if (!(days > 0)) return undefined;
    const whole = Math.floor(days);
    const hours = Math.round((days - whole) * 24);
    if (hours === 0) return `P${whole}D`;
    if (hours === 24) return `P${whole + 1}D`;
    return whole ? `P${whole}DT${hours}H` : `PT${hours}H`;
  }
  const upper = t.toUpperCase();
  if (!ISO_DURATION.test(upper) || upper === "P" || upper.endsWith("T")) return undefined;
  if (!/[1-9]/.test(upper)) return undefined; // P0D is no limit at all
  return upper;
}

/** Day number (days since the epoch, UTC) of a `YYYY-MM-DD` calendar date, else undefined. */
export function parseDay(text: string): number | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const d = new Date(ms);
  if (
    d.getUTCFullYear() !== Number(m[1]) ||
    d.getUTCMonth() !== Number(m[2]) - 1 ||
    d.getUTCDate() !== Number(m[3])
  ) {
    return undefined;
  }
  return ms / 86_400_000;
}

/**
 * The form field a service problem is about: the parameter its detail names first (the service
 * starts its details with the parameter, e.g. `maxDeparture must not be before minDeparture`).
 * Schema errors say `querystring/maxTransfers must be integer`; both are recognised.
 */
export function fieldOfDetail(detail: string): SearchParameter | undefined {
  let best: { field: SearchParameter; at: number } | undefined;
  for (const field of SEARCH_PARAMETERS) {
    const m = new RegExp(`(^|[^A-Za-z0-9_])${field}(?![A-Za-z0-9_])`).exec(detail);
    if (!m) continue;
    const at = m.index + m[1].length;
    if (!best || at < best.at) best = { field, at };
  }
  return best?.field;
}
