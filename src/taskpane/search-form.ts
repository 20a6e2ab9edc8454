/**
 * The route-search form as data: what the user typed → the query of
 * `GET /route-optimizer/api/external`, with the mistakes found before asking the service. Field
 * names are the API's parameter names, so a problem detail naming a parameter maps to its field.
 * Pure (no DOM), so it is unit-tested directly.
 */
import { canonicalQuery } from "../client/query";
import type { RouteOptionsParams } from "../client/types";
import { ROUTE_SEARCH_PARAMETERS } from "../engine/optimizer/types";
import { MODALITIES as MODALITY_CHOICES } from "../engine/types";
import { DetectedPlace, detectPlace, readPlaceInput } from "../client/place-input";
import { cellSized } from "../client/cell-message";
import type { ApiError } from "../client/errors";
import {
  PlaceProblem,
  PlacesLookup,
  resolvePlace,
  ResolvedPlace,
  suggestFor,
} from "../client/place-lookup";

export { MODALITY_CHOICES };

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
  /** Place fields holding a name to look up (buildSearchQuery leaves them as typed; resolveSearch resolves them). */
  names?: Partial<Record<"origin" | "destination", string>>;
  /** Place fields as resolved (resolveSearch), for the badges next to the fields. */
  places?: Partial<Record<"origin" | "destination", ResolvedPlace>>;
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
  'use a UN/LOCODE (e.g. NLRTM), a place or terminal name (Rotterdam, NLRTM Euromax), "lat,lng" ' +
  "(51.95,4.14, or 51,95;4,14 with decimal commas) or a terminal id (pick one from the suggestions)";

/** The labels the pane shows on its fields: messages name a field as the user sees it. */
export const FIELD_LABELS: Partial<Record<SearchParameter, string>> = {
  origin: "From",
  destination: "To",
  originType: "From",
  destinationType: "To",
  modalities: "Modalities",
  minDeparture: "Depart from",
  maxDeparture: "Depart by",
  maxArrival: "Arrive by",
  maxTransfers: "Max transfers",
  sort: "Sort by",
  maxLeadTime: "Max lead time",
  maxEmission: "Max CO2e",
  maxFirstMileTruckingKm: "First-mile truck",
  maxLastMileTruckingKm: "Last-mile truck",
  allRequiredLocodes: "Must call at all of",
  anyRequiredLocodes: "Must call at one of",
  excludedLocodes: "Avoid",
  allRequiredOperators: "Operators (must be on route)",
  anyRequiredOperators: "Operators (one of these)",
  excludedOperators: "Operators (exclude)",
};

/** A field's label, or the parameter's name where the pane has none. */
export function labelOf(field: SearchParameter): string {
  return FIELD_LABELS[field] ?? field;
}

/** What the place text is, as the pane shows it next to the field ("LOCODE", "TERMINAL", "GEO"), or undefined (names: see resolveSearch). */
export function placeTypeOf(text: string): DetectedPlace | undefined {
  return detectPlace(text);
}

/** What a name resolved to, for the badge next to its field: "NLRTM · Rotterdam", "TERMINAL · ECT Euromax (NLRTM)". */
export function resolvedLabel(place: ResolvedPlace): string {
  if (!place.name) return place.type;
  if (place.type === "TERMINAL")
    return `TERMINAL · ${place.name}${place.locode ? ` (${place.locode})` : ""}`;
  return `${place.type === "LOCODE" ? place.value : place.type} · ${place.name}`;
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
  const names: Partial<Record<"origin" | "destination", string>> = {};
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
    const input = readPlaceInput(text);
    const label = labelOf(field);
    if (input.kind === "EMPTY") fail(field, `${label} is required: ${PLACE_HINT}.`);
    else if (input.kind === "INVALID")
      fail(field, `${label} "${text}": ${input.problem}; ${PLACE_HINT}.`);
    else if (input.kind === "PLACE") {
      params[field] = input.place.value;
      params[typeField] = input.place.type;
    } else {
      // A name: resolveSearch looks it up; until then the text stands in.
      params[field] = input.text;
      names[field] = input.text;
    }
  }

  const modalities = values.modalities.map((m) => m.toUpperCase());
  const unknownModality = modalities.find(
    (m) => !(MODALITY_CHOICES as readonly string[]).includes(m)
  );
  if (unknownModality)
    fail(
      "modalities",
      `${labelOf("modalities")} "${unknownModality}" is not allowed; allowed values: ${MODALITY_CHOICES.join(", ")}.`
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
      fail(
        field,
        `${labelOf(field)} "${text}" is not a date: use YYYY-MM-DD (UTC), e.g. 2026-03-01.`
      );
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
    fail(
      "maxDeparture",
      `${labelOf("maxDeparture")} must not be before ${labelOf("minDeparture")}.`
    );
  }
  if (
    dates.minDeparture !== undefined &&
    dates.maxArrival !== undefined &&
    dates.maxArrival < dates.minDeparture
  ) {
    fail("maxArrival", `${labelOf("maxArrival")} must not be before ${labelOf("minDeparture")}.`);
  }

  const whole = (
    field: "maxTransfers" | "maxFirstMileTruckingKm" | "maxLastMileTruckingKm",
    max: number,
    unit: string
  ) => {
    const text = values[field].trim();
    if (!text) return;
    if (!WHOLE.test(text) || Number(text) > max)
      fail(field, `${labelOf(field)} "${text}" must be a whole number from 0 to ${max}${unit}.`);
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
      `${labelOf("excludedOperators")}: "${clash}" is also in ${labelOf("allRequiredOperators")}; a route cannot both need and avoid it.`
    );

  for (const field of ["anyRequiredLocodes", "allRequiredLocodes", "excludedLocodes"] as const) {
    const items = splitLocodes(values[field]);
    const bad = items.find((x) => !LOCODE.test(x));
    if (bad)
      fail(
        field,
        `${labelOf(field)} "${bad}" is not a UN/LOCODE: 2-letter country code + 3 letters/digits 2-9, e.g. NLRTM; separate several with commas.`
      );
    else if (items.length) params[field] = items;
  }

  const sort = values.sort.trim().toUpperCase();
  if (sort) {
    if (!SORT_CHOICES.some((s) => s.value === sort)) {
      fail(
        "sort",
        `${labelOf("sort")} "${values.sort}" is not allowed; allowed values: ${SORT_CHOICES.map((s) => s.value).join(", ")}.`
      );
    } else params.sort = sort;
  }

  if (values.directSeaOnly) params.directSeaOnly = true;

  const emission = values.maxEmission.trim();
  if (emission) {
    if (!DECIMAL.test(emission))
      fail(
        "maxEmission",
        `${labelOf("maxEmission")} "${emission}" must be a non-negative number of kilograms CO2e.`
      );
    else params.maxEmission = Math.floor(Number(emission)); // the interface types it as int64
  }

  const lead = values.maxLeadTime.trim();
  if (lead) {
    const duration = leadTimeDuration(lead);
    if (!duration)
      fail(
        "maxLeadTime",
        `${labelOf("maxLeadTime")} "${lead}" must be a number of days greater than 0 (e.g. 21) or an ISO 8601 duration (e.g. P21D, PT36H).`
      );
    else params.maxLeadTime = duration;
  }

  const queryString = canonicalQuery(params);
  return errors.length ? { queryString, errors, names } : { params, queryString, errors, names };
}

/**
 * buildSearchQuery with the names looked up (places extension, cached by the client): each name
 * becomes its code, terminal or coordinates, and `places` says what it resolved to. An unknown or
 * ambiguous name is an error on its field with the best suggestion ("did you mean KRPUS (Busan)?").
 * Failures of the look-up itself (no key, service down) reject, as a search would.
 */
export async function resolveSearch(
  values: SearchFormValues,
  lookup: PlacesLookup
): Promise<BuiltSearch> {
  const built = buildSearchQuery(values);
  const places: BuiltSearch["places"] = {};
  const errors = [...built.errors];
  const params = built.params ? { ...built.params } : undefined;
  for (const field of ["origin", "destination"] as const) {
    const text = values[field];
    if (errors.some((e) => e.field === field) || readPlaceInput(text).kind === "EMPTY") continue;
    try {
      const place = await resolvePlace(lookup, text);
      places[field] = place;
      if (params) {
        params[field] = place.value;
        params[field === "origin" ? "originType" : "destinationType"] = place.type;
      }
    } catch (error) {
      if (!(error instanceof PlaceProblem)) throw error;
      errors.push({ field, message: `${labelOf(field)}: ${error.message}` });
    }
  }
  const queryString = canonicalQuery(params ?? {});
  return errors.length
    ? { queryString, errors, names: built.names, places }
    : { params, queryString, errors, names: built.names, places };
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

/** `origin KRPUX is not a known UN/LOCODE; allowed forms: …` (the service's 404 for a place). */
const UNKNOWN_PLACE =
  /^(origin|destination) "?([^\s";]+)"? is not a known (UN\/LOCODE|terminal id)/;

/** Most characters of a service message shown next to a field. */
const FIELD_MESSAGE_LIMIT = 160;

/**
 * The service's detail in the pane's words: parameters named as the fields are labelled
 * ("maxTransfers" → "Max transfers"), the list of every allowed form cut to short examples.
 */
export function wordedDetail(detail: string): string {
  let text = detail.replace(/^(querystring\/|query parameter )/, "");
  for (const field of SEARCH_PARAMETERS) {
    const label = FIELD_LABELS[field];
    if (label)
      text = text.replace(
        new RegExp(`(^|[^A-Za-z0-9_/])${field}(?![A-Za-z0-9_])`, "g"),
        `$1${label}`
      );
  }
  return cellSized(text, FIELD_MESSAGE_LIMIT);
}

/**
 * A refusal of the service as an error on the field it is about, in words: a place it does not
 * know gets the look-up's "did you mean" (`From: unknown place "BUSAN" — did you mean KRPUS
 * (Busan)?`), other details name the field as labelled. Undefined when no field is named.
 */
export async function serviceFieldError(
  error: ApiError,
  lookup: PlacesLookup
): Promise<FieldError | undefined> {
  const field = fieldOfDetail(error.detail);
  if (!field) return undefined;
  const unknown = error.status === 404 ? UNKNOWN_PLACE.exec(error.detail) : null;
  if (unknown) {
    const problem = await suggestFor(lookup, unknown[2]);
    return { field, message: `${labelOf(field)}: ${problem.message}` };
  }
  return { field, message: wordedDetail(error.detail) };
}
