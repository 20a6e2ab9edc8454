/**
 * A typed place made into what the service takes: codes, terminal ids and coordinates as they are,
 * names through the places extension (exact match first; a fuzzy best match is only suggested).
 * Shared by the custom functions and the task pane; each turns a PlaceProblem into its own error.
 */
import type { CallOptions, RouteApiClient } from "./api-client";
import { DetectedPlace, mayBeName, PlaceInput, readPlaceInput } from "./place-input";
import { isApiError } from "./errors";
import type { PlaceChoice, PlaceMatch } from "./types";
import { chooseByName, suggestionLabel } from "../engine/places/name-choice";

/** Answers of a service that has no places extension. */
const NO_EXTENSION = new Set([404, 405, 501]);

export interface ResolvedPlace extends DetectedPlace {
  /** What the user typed (trimmed). */
  typed: string;
  /** The matched place's name, when a name was looked up ("Rotterdam", "ECT Euromax"). */
  name?: string;
  /** The matched place's UN/LOCODE (a terminal's: its port's). */
  locode?: string;
}

export type PlaceProblemKind = "empty" | "invalid" | "unknown" | "ambiguous";

/** A place that cannot be used; `message` is short enough for a cell. */
export class PlaceProblem extends Error {
  constructor(
    readonly kind: PlaceProblemKind,
    readonly typed: string,
    message: string,
    /** The best candidate(s), e.g. "KRPUS (Busan)". */
    readonly suggestions: string[] = []
  ) {
    super(message);
    this.name = "PlaceProblem";
  }
}

/** What the resolver needs of the client. */
export type PlacesLookup = Pick<RouteApiClient, "places">;

/**
 * A place's everyday name: "Busan (New Port)" → "Busan" (the look-up names the harbour a code
 * stands for; people know the city). Terminals keep their full name.
 */
export function shortName(match: PlaceMatch): string {
  if (match.kind === "terminal") return match.name;
  return match.name.replace(/\s*\([^()]*\)\s*$/, "") || match.name;
}

/** "KRPUS (Busan)", a terminal as "ECT Euromax Terminal (NLRTM)". */
export function describeMatch(match: PlaceMatch): string {
  return suggestionLabel(match);
}

/** The place a match stands for, as the other endpoints take it. */
export function placeOfMatch(match: PlaceMatch): DetectedPlace | undefined {
  if (match.kind === "terminal" && match.terminalId)
    return { type: "TERMINAL", value: match.terminalId.toLowerCase() };
  if (match.locode) return { type: "LOCODE", value: match.locode.toUpperCase() };
  if (Number.isFinite(match.lat) && Number.isFinite(match.lng))
    return { type: "GEO", value: `${match.lat},${match.lng}` };
  return undefined;
}

/** `unknown place "KRPUX" — did you mean KRPUS (Busan)?` */
export function unknownPlace(typed: string, candidates: PlaceMatch[]): PlaceProblem {
  const best = candidates.slice(0, 1).map(describeMatch);
  return new PlaceProblem(
    "unknown",
    typed,
    `unknown place "${typed}"${best.length ? ` — did you mean ${best[0]}?` : ""}`,
    candidates.map(describeMatch)
  );
}

/**
 * The one place a name's look-up results (best first) stand for, decided as the service decides
 * (`/places`' `choice`, engine/places/name-choice.ts's chooseByName, which `lanes` runs in
 * process): an exact match, unless the name stands for several places of one country that none
 * dwarfs — then ambiguous, worded by that one function (`Portland: USPDX (Oregon) or USPWM
 * (Maine)`), never a silent pick; without an exact match, a match of the typed words clearly ahead
 * of the next place; otherwise unknown, with the best candidate as "did you mean" ("Rotterdm" →
 * NLRTM). `choice` is the service's own answer, taken when given (it ranks by figures the results
 * do not carry); without it (an older service), the same function runs here on the results.
 */
export function pickMatch(
  typed: string,
  results: PlaceMatch[],
  choice?: PlaceChoice
): ResolvedPlace {
  const usable = results.filter((r) => placeOfMatch(r));
  const decided = choice ? served(choice, usable) : localChoice(typed, usable);
  if (decided.kind !== "one")
    throw decided.kind === "ambiguous"
      ? new PlaceProblem("ambiguous", typed, decided.message, usable.map(describeMatch))
      : unknownPlace(typed, usable);
  const match = decided.match;
  return {
    ...placeOfMatch(match)!,
    typed,
    name: match.kind === "terminal" ? match.name : shortName(match),
    locode: match.locode,
  };
}

type Decision =
  { kind: "one"; match: PlaceMatch } | { kind: "ambiguous" | "unknown"; message: string };

/** The shared choice over results as the client has them (positions may be missing). */
function localChoice(typed: string, results: PlaceMatch[]): Decision {
  // One code is one place, whether listed as a port or a place (its position may be missing);
  // an exact listing of it counts (the choice reads exact matches first anyway).
  // Exact matches at the best one's code (its port, its terminals) are that place, no namesake.
  const [top, ...exact] = results.filter((r) => r.match === "exact");
  const exactFirst = [
    ...(top ? [top] : []),
    ...exact.filter((r) => !top.locode || r.locode !== top.locode),
    ...results.filter((r) => r.match !== "exact"),
  ];
  const places = new Set<string>();
  const distinct = exactFirst.filter(
    (r) => r.kind === "terminal" || !r.locode || (!places.has(r.locode) && places.add(r.locode))
  );
  const candidates = distinct.map((r) => ({ ...r, lat: r.lat ?? NaN, lng: r.lng ?? NaN }));
  const choice = chooseByName(typed, candidates);
  if (choice.kind !== "one") return { kind: choice.kind, message: choice.problem };
  return { kind: "one", match: distinct[candidates.indexOf(choice.match)] };
}

/** The service's choice, with the result it names (a terminal by id, else a place by code). */
function served(choice: PlaceChoice, results: PlaceMatch[]): Decision {
  if (choice.kind !== "one") return choice;
  const id = choice.terminalId?.toLowerCase();
  const match = id
    ? results.find((r) => r.kind === "terminal" && r.terminalId?.toLowerCase() === id)
    : results.find((r) => r.kind !== "terminal" && r.locode === choice.locode);
  return match ? { kind: "one", match } : { kind: "unknown", message: "" };
}

/** The problem of input that is not a place at all (empty or malformed). */
function inputProblem(input: PlaceInput, typed: string): PlaceProblem | undefined {
  if (input.kind === "EMPTY") return new PlaceProblem("empty", typed, "is required");
  if (input.kind === "INVALID") return new PlaceProblem("invalid", typed, input.problem);
  return undefined;
}

/**
 * The place `raw` stands for: looked up by name when it is one. Throws PlaceProblem for empty,
 * malformed, unknown or ambiguous input; the client's own errors (no key, service down) pass.
 */
export async function resolvePlace(
  lookup: PlacesLookup,
  raw: unknown,
  options: CallOptions = {}
): Promise<ResolvedPlace> {
  const typed = raw === null || raw === undefined ? "" : String(raw).trim();
  const input = readPlaceInput(raw);
  const problem = inputProblem(input, typed);
  if (problem) throw problem;
  if (input.kind === "PLACE") {
    if (!mayBeName(typed)) return { ...input.place, typed };
    // "busan", "genoa": a name as likely as a code; the look-up knows both ("krpus" is KRPUS).
    const named = await lookUpName(lookup, typed, typed, options).catch((error: unknown) => {
      if (error instanceof PlaceProblem && error.kind === "ambiguous") throw error;
      if (error instanceof PlaceProblem) return undefined;
      throw error;
    });
    return named ?? { ...input.place, typed };
  }
  return lookUpName(lookup, typed, (input as { text: string }).text, options);
}

/** The place a name stands for, through the places look-up (pickMatch); PlaceProblem when none. */
async function lookUpName(
  lookup: PlacesLookup,
  typed: string,
  text: string,
  options: CallOptions
): Promise<ResolvedPlace> {
  let answer;
  try {
    answer = await lookup.places({ query: text, limit: 5 }, options);
  } catch (error) {
    // A service without the places extension (404/405/501) cannot know names.
    if (isApiError(error) && NO_EXTENSION.has(error.status))
      throw new PlaceProblem(
        "unknown",
        typed,
        `unknown place "${typed}": this service takes codes (NLRTM) or lat,lng, not names`
      );
    throw error;
  }
  return pickMatch(typed, answer.results, answer.choice);
}

/**
 * A suggestion for a code or id the service did not know (`KRPUX`): the places look-up's best
 * match as an `unknown place … did you mean …` problem. Look-up failures give the plain problem.
 */
export async function suggestFor(
  lookup: PlacesLookup,
  typed: string,
  options: CallOptions = {}
): Promise<PlaceProblem> {
  try {
    const answer = await lookup.places({ query: typed, limit: 5 }, options);
    return unknownPlace(typed, answer.results);
  } catch {
    return unknownPlace(typed, []);
  }
}
