/**
 * What a user types for a place, in a cell or in a pane field, read once for the functions and the
 * task pane: the service's own grammar (engine/places/place-grammar.ts) for codes, terminal ids and
 * "lat,lng", plus what people type beyond it:
 * - coordinates with decimal commas, lat and lng apart by ";" or a space ("51,95;4,05",
 *   "51,95 4,05"); a space also separates point decimals ("51.95 4.05");
 * - a name ("Rotterdam", "NLRTM Euromax", "ECT Euromax Terminal"), looked up through the places
 *   extension (place-lookup.ts). A 5-letter word typed as a name ("Busan", capitalised) is a name;
 *   in upper or lower case ("KRPUS", "krpus") it reads as a code, but one in lower case may be a
 *   name ("busan", "genoa"): `mayBeName` tells, and a resolver with a look-up at hand asks it
 *   first (the look-up finds codes too: "krpus" is KRPUS exactly).
 * Pure: the caller turns a problem into its own kind of error, naming its own field.
 */
import { PlaceForm, placeText, readPlace } from "../engine/places/place-grammar";

export type PlaceType = "LOCODE" | "TERMINAL" | "GEO";

export interface DetectedPlace {
  /** The value as it is sent: LOCODE upper-cased, uuid lower-cased, coordinates "lat,lng" with points. */
  value: string;
  type: PlaceType;
}

export type PlaceInput =
  | { kind: "PLACE"; place: DetectedPlace }
  /** Text to look up by name (trimmed, inner spaces collapsed). */
  | { kind: "NAME"; text: string }
  | { kind: "EMPTY" }
  /** Not a place; `problem` says why in a few words and what to write instead. */
  | { kind: "INVALID"; problem: string };

/** Longest name the places look-up takes. */
export const MAX_NAME_LENGTH = 200;

/** Short examples of every form, for messages that must fit in a cell. */
export const PLACE_EXAMPLES = "NLRTM, Rotterdam, 51.95,4.05 or a terminal id";

const NUMBER = String.raw`[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)`;
/** lat;lng with point or comma decimals, spaces allowed around the semicolon. */
const SEMICOLON_PAIR = new RegExp(String.raw`^(${NUMBER})\s*;\s*(${NUMBER})$`);
/** lat lng apart by spaces, point or comma decimals. */
const SPACE_PAIR = new RegExp(String.raw`^(${NUMBER})\s+(${NUMBER})$`);
const LOCODE_SHAPED = /^[A-Za-z]{2}[A-Za-z2-9]{3}$/;

function detected(place: PlaceForm): DetectedPlace {
  return { value: placeText(place), type: place.kind };
}

/** "Busan", "Genoa": capitalised words, which people type for names, not codes. */
function looksLikeName(text: string): boolean {
  return LOCODE_SHAPED.test(text) && /^[A-Z][a-z]/.test(text) && text !== text.toUpperCase();
}

/**
 * A 5-letter word that reads as a code but is not in capitals ("busan", "genoa", "krpus"): a
 * name as likely as a code, best looked up first (the look-up answers codes too).
 */
export function mayBeName(raw: unknown): boolean {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  return LOCODE_SHAPED.test(text) && text !== text.toUpperCase();
}

/** Coordinates written with decimal commas or a space between lat and lng, as "lat,lng" text. */
function regionalCoordinates(text: string): string | undefined {
  const m = SEMICOLON_PAIR.exec(text) ?? SPACE_PAIR.exec(text);
  if (!m) return undefined;
  return `${m[1].replace(",", ".")},${m[2].replace(",", ".")}`;
}

/** What `raw` (a cell value or a field's text) is as a place. */
export function readPlaceInput(raw: unknown): PlaceInput {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  if (text === "") return { kind: "EMPTY" };
  if (looksLikeName(text)) return { kind: "NAME", text };
  const reading = readPlace(regionalCoordinates(text) ?? text);
  switch (reading.kind) {
    case "LOCODE":
    case "TERMINAL":
    case "GEO":
      return { kind: "PLACE", place: detected(reading) };
    case "OUT_OF_RANGE":
      return {
        kind: "INVALID",
        problem: `${reading.axis} ${reading.value} is out of range (lat -90..90, lng -180..180)`,
      };
    default:
      break;
  }
  if (/\p{L}/u.test(text)) {
    if (text.length > MAX_NAME_LENGTH)
      return { kind: "INVALID", problem: `a name is at most ${MAX_NAME_LENGTH} characters` };
    return { kind: "NAME", text: text.replace(/\s+/g, " ") };
  }
  if (/\d,\d/.test(text))
    return {
      kind: "INVALID",
      problem: "with decimal commas put ; between lat and lng, e.g. 51,95;4,05",
    };
  return { kind: "INVALID", problem: `not a place: use ${PLACE_EXAMPLES}` };
}

/** The place when `raw` is a code, a terminal id or coordinates (no look-up needed), else undefined. */
export function detectPlace(raw: unknown): DetectedPlace | undefined {
  const input = readPlaceInput(raw);
  return input.kind === "PLACE" ? input.place : undefined;
}

/** A place that cannot be used, as the look-up reports it (place-lookup.ts's PlaceProblem). */
export interface PlaceProblemLike {
  kind: "empty" | "invalid" | "unknown" | "ambiguous";
  typed: string;
  message: string;
}

/**
 * The words for a place problem on every surface (a function's #VALUE!, the pane, the lanes
 * CLI's error column): `origin is required: …`, `origin "x": not a place: use …`, or the look-up's
 * own `unknown place "KRPUX" — did you mean KRPUS (Busan)?`, whose quoted text names the argument.
 */
export function placeMessage(problem: PlaceProblemLike, parameter: string): string {
  switch (problem.kind) {
    case "empty":
      return `${parameter} is required: a code, name or lat,lng, e.g. NLRTM`;
    case "invalid":
      return `${parameter} ${quotedText(problem.typed)}: ${problem.message}`;
    default:
      return problem.message;
  }
}

/** Typed text quoted, cut at 30 characters so a message still fits a cell. */
function quotedText(text: string): string {
  const s = text.trim();
  return `"${s.length > 30 ? `${s.slice(0, 29)}…` : s}"`;
}
