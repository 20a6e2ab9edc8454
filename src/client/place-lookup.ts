/**
 * A typed place made into what the service takes: codes, terminal ids and coordinates as they are,
 * names through the places extension (exact match first; a fuzzy best match is only suggested).
 * Shared by the custom functions and the task pane; each turns a PlaceProblem into its own error.
 */
import type { CallOptions, RouteApiClient } from "./api-client";
import { DetectedPlace, mayBeName, PlaceInput, readPlaceInput } from "./place-input";
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

/** Most characters of a problem's message: it must fit a cell. */
const MESSAGE_LIMIT = 100;

/**
 * `ambiguous place "Portland": USPDX (Portland, OR) or USPWM (Portland, ME)`: every candidate that
 * fits in a cell's message, in the look-up's order (its ranking).
 */
export function ambiguousPlace(typed: string, candidates: PlaceMatch[]): PlaceProblem {
  const described = candidates.map(describeCandidate);
  const head = `ambiguous place "${typed}": `;
  let shown = described.length;
  const text = (n: number) =>
    n === described.length
      ? `${described.slice(0, n - 1).join(", ")} or ${described[n - 1]}`
      : `${described.slice(0, n).join(", ")} or another`;
  while (shown > 2 && (head + text(shown)).length > MESSAGE_LIMIT) shown--;
  return new PlaceProblem("ambiguous", typed, head + text(shown), described);
}

/** A candidate told apart from its namesakes: "USPDX (Portland, OR)" when the subdivision is known. */
function describeCandidate(match: PlaceMatch): string {
  if (match.kind === "terminal" || !match.subdivision) return describeMatch(match);
  return `${match.locode} (${shortName(match)}, ${match.subdivision})`;
}

/** Lowest score of a fuzzy match taken without asking (prefix, word or misspelling of one place). */
export const FUZZY_ACCEPT_SCORE = 0.5;
/** How far a fuzzy match must lead the next one elsewhere to be taken without asking. */
export const FUZZY_MARGIN = 0.05;
/** Namesakes closer than this are one place under two codes (CNSHA and CNSGH, Shanghai). */
export const SAME_PLACE_KM = 100;

function countryOf(match: PlaceMatch): string | undefined {
  return match.country ?? match.locode?.slice(0, 2).toUpperCase();
}

/** Great-circle distance in km; Infinity when either position is unknown. */
function kmBetween(a: PlaceMatch, b: PlaceMatch): number {
  if (![a.lat, a.lng, b.lat, b.lng].every((v) => Number.isFinite(v))) return Infinity;
  const rad = Math.PI / 180;
  const dLat = (b.lat! - a.lat!) * rad;
  const dLng = (b.lng! - a.lng!) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat! * rad) * Math.cos(b.lat! * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * The exact matches that stand for other places of the same country as the best one
 * ("Portland": USPWM in Maine beside USPDX in Oregon). Namesakes in other countries are not
 * rivals: the look-up ranks them (port size, population), and "Rotterdam" is NLRTM, not USRAJ
 * near Albany. A terminal of the best match's port, or a second code for the same spot, is
 * the same place.
 */
function namesakes(best: PlaceMatch, exact: PlaceMatch[]): PlaceMatch[] {
  const seen = new Set([best.locode]);
  const out: PlaceMatch[] = [];
  for (const other of exact) {
    if (other === best || seen.has(other.locode) || other.kind === "terminal") continue;
    if (countryOf(other) !== countryOf(best) || kmBetween(best, other) < SAME_PLACE_KM) continue;
    seen.add(other.locode);
    out.push(other);
  }
  return out;
}

/**
 * The one place a name's look-up results stand for. The results come best first. An exact match
 * (a code, name or alias equal to what was typed) is taken, unless the name stands for several
 * places of one country (the country does not tell them apart): then it is ambiguous and the
 * error lists them, never a silent pick. Without an exact match, the best fuzzy match is taken
 * when it is good and clearly ahead of any other place ("Euromax", "NLRTM Euromax"); otherwise
 * the name is unknown, with the best candidate as "did you mean" ("Rotterdm" → NLRTM).
 */
export function pickMatch(typed: string, results: PlaceMatch[]): ResolvedPlace {
  const usable = results.filter((r) => placeOfMatch(r));
  const resolved = (m: PlaceMatch): ResolvedPlace => ({
    ...placeOfMatch(m)!,
    typed,
    name: m.kind === "terminal" ? m.name : shortName(m),
    locode: m.locode,
  });
  const exact = usable.filter((r) => r.match === "exact");
  if (exact.length) {
    const others = namesakes(exact[0], exact);
    if (others.length) throw ambiguousPlace(typed, [exact[0], ...others]);
    return resolved(exact[0]);
  }
  const best = usable[0];
  if (!best || best.score < FUZZY_ACCEPT_SCORE) throw unknownPlace(typed, usable);
  const where = placeOfMatch(best)!.value;
  const rival = usable.find(
    (r) => placeOfMatch(r)!.value !== where && r.score > best.score - FUZZY_MARGIN
  );
  if (!rival) return resolved(best);
  // Near two places at once: a misspelling, whose likeliest reading is suggested.
  throw unknownPlace(typed, usable);
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
