/**
 * A typed place made into what the service takes: codes, terminal ids and coordinates as they are,
 * names through the places extension (exact match first; a fuzzy best match is only suggested).
 * Shared by the custom functions and the task pane; each turns a PlaceProblem into its own error.
 */
import type { CallOptions, RouteApiClient } from "./api-client";
import { DetectedPlace, PlaceInput, readPlaceInput } from "./place-input";
import { isApiError } from "./errors";
import type { PlaceMatch } from "./types";

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
  if (match.kind === "terminal") return `${match.name}${match.locode ? ` (${match.locode})` : ""}`;
  return match.locode ? `${match.locode} (${shortName(match)})` : shortName(match);
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

/** Lowest score of a fuzzy match taken without asking (prefix, word or misspelling of one place). */
export const FUZZY_ACCEPT_SCORE = 0.5;
/** How far a fuzzy match must lead the next one elsewhere to be taken without asking. */
export const FUZZY_MARGIN = 0.05;

/**
 * The one place a name's look-up results stand for. The results come best first: the first exact
 * match wins (a code, name or alias equal to what was typed). Without one, the best fuzzy match
 * is taken when it is good and clearly ahead of any other place ("Euromax", "NLRTM Euromax");
 * otherwise the name is ambiguous (near matches at several places) or unknown, with the best
 * candidate as the suggestion.
 */
export function pickMatch(typed: string, results: PlaceMatch[]): ResolvedPlace {
  const usable = results.filter((r) => placeOfMatch(r));
  const resolved = (m: PlaceMatch): ResolvedPlace => ({
    ...placeOfMatch(m)!,
    typed,
    name: m.kind === "terminal" ? m.name : shortName(m),
    locode: m.locode,
  });
  const exact = usable.find((r) => r.match === "exact");
  if (exact) return resolved(exact);
  const best = usable[0];
  if (!best || best.score < FUZZY_ACCEPT_SCORE) throw unknownPlace(typed, usable);
  const where = placeOfMatch(best)!.value;
  const rival = usable.find(
    (r) => placeOfMatch(r)!.value !== where && r.score > best.score - FUZZY_MARGIN
  );
  if (!rival) return resolved(best);
  throw new PlaceProblem(
    "ambiguous",
    typed,
    `ambiguous place "${typed}" — did you mean ${describeMatch(best)}?`,
    [describeMatch(best), describeMatch(rival)]
  );
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
  if (input.kind === "PLACE") return { ...input.place, typed };
  const text = (input as { text: string }).text;
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
  return pickMatch(typed, answer.results);
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
