/**
 * Which place a typed name stands for, from the place search's results (best first): one place,
 * or a problem short enough for a spreadsheet cell. Pure and shared: the service, `lanes` and the
 * add-in decide the same way.
 *
 * - Exact matches (name, alias or code equal after case/accent folding) at several places of one
 *   country are ambiguous — `Portland: USPDX (Oregon) or USPWM (Maine)`, ranked by population or
 *   port size — unless the first is DOMINANT_RATIO times as large as the others: a name that
 *   means one place to nearly everyone is not asked back. Namesakes in other countries are
 *   ranked, not rivals (the same rule as the add-in's pickMatch in src/client/place-lookup.ts).
 * - Matches at the same position, or within SAME_PLACE_KM in the same country, are one place
 *   (a port and its city's new code, a city listed twice).
 * - No exact match: a match of which every typed word is a whole word ("Euromax") is taken when
 *   clearly ahead of the next place; otherwise (a misspelling, a word prefix) the answer is
 *   "did you mean …?".
 */
import { fastGeodesicMeters } from "../geo/geodesy";
import { nameTokens } from "./text-fold";

/** What the choice reads of a search result (the service's PlaceMatch and the client's). */
export interface NameCandidate {
  kind: string;
  locode?: string;
  name: string;
  country?: string;
  lat: number;
  lng: number;
  match: "exact" | "fuzzy";
  score: number;
  region?: string;
  population?: number;
  /** Population or port size, whichever says more (place-entries.ts); ranks places of one name. */
  rank?: number;
}

export type NameChoice<M extends NameCandidate> =
  | { kind: "one"; match: M; candidates: M[] }
  | { kind: "ambiguous" | "unknown"; problem: string; candidates: M[] };

/** Longest problem text: it has to fit a cell. */
export const MAX_PROBLEM_LENGTH = 100;
/** A place this many times the population of every other of its name is the one meant. */
export const DOMINANT_RATIO = 20;
/** Places of one name closer than this in one country are one place. */
const SAME_PLACE_KM = 30;
/**
 * Places of one name this close are one place whatever country lists them: the list has
 * Mariehamn twice, AXMHQ under Åland and FIMHQ under Finland (whose subdivision 01 it is).
 */
const SAME_POINT_KM = 1;
/** GeoNames lists places of 1,000 inhabitants or more: a place without a figure is smaller. */
const UNKNOWN_POPULATION = 1_000;
/** How far a fuzzy match must lead the next place to be taken. */
const FUZZY_MARGIN = 0.05;

/** "USPDX (Oregon)", "GBPTL (England)", a terminal as its name. */
export function candidateLabel(m: NameCandidate): string {
  if (m.kind === "terminal") return m.name;
  // A town (data/places-towns.csv) has no code: its region tells namesakes apart.
  if (!m.locode) return m.region ? `${m.name} (${m.region})` : m.name;
  const where = m.region || m.name.replace(/\s*\([^()]*\)\s*$/, "");
  return `${m.locode} (${where})`;
}

/**
 * A misspelling's suggestion names the place, not its region: "NLRTM (Rotterdam)", a terminal
 * with its port's code. The add-in, `lanes` and /places word it alike.
 */
export function suggestionLabel(m: Pick<NameCandidate, "kind" | "name" | "locode">): string {
  const name = m.name.replace(/\s*\([^()]*\)\s*$/, "") || m.name;
  if (m.kind === "terminal") return m.locode ? `${m.name} (${m.locode})` : m.name;
  return m.locode ? `${m.locode} (${name})` : name;
}

export function chooseByName<M extends NameCandidate>(
  typed: string,
  results: readonly M[]
): NameChoice<M> {
  const shown = typed.trim().slice(0, 30);
  const exact = distinctPlaces(results.filter((r) => r.match === "exact"));
  if (exact.length) {
    const [top, ...rest] = exact;
    const size = (m: M) => Math.max(m.rank ?? 0, m.population ?? 0) || UNKNOWN_POPULATION;
    // Namesakes abroad are ranked, not rivals (Rotterdam is NLRTM, not the one near Albany);
    // within the country the name does not tell them apart.
    const rivals = rest.filter(
      (r) => countryOf(r) === countryOf(top) && size(top) < DOMINANT_RATIO * size(r)
    );
    if (!rivals.length) return { kind: "one", match: top, candidates: exact };
    const listed = [top, ...rivals];
    return { kind: "ambiguous", problem: listing(`${shown}: `, listed), candidates: listed };
  }
  const fuzzy = distinctPlaces(results);
  const best = fuzzy[0];
  if (
    best &&
    wholeWordsOf(typed, best) &&
    !(fuzzy[1] && fuzzy[1].score > best.score - FUZZY_MARGIN)
  )
    return { kind: "one", match: best, candidates: fuzzy };
  const problem = best
    ? fit(`unknown place "${shown}" — did you mean ${suggestionLabel(best)}?`)
    : fit(`unknown place "${shown}"; give a UN/LOCODE or "lat,lng"`);
  return { kind: "unknown", problem, candidates: fuzzy };
}

/**
 * True when every typed word is a whole word of the name ("Euromax" of "ECT Euromax Terminal"),
 * or the place's own code ("NLRTM Euromax").
 */
function wholeWordsOf(typed: string, m: NameCandidate): boolean {
  const words = nameTokens(typed);
  const own = new Set(nameTokens(m.name));
  if (m.locode) own.add(m.locode.toLowerCase());
  return words.length > 0 && words.every((w) => own.has(w));
}

function countryOf(m: NameCandidate): string | undefined {
  return m.country ?? m.locode?.slice(0, 2);
}

/** One result per place, in the order given. */
function distinctPlaces<M extends NameCandidate>(results: readonly M[]): M[] {
  const out: M[] = [];
  for (const r of results) {
    const same = out.some(
      (o) =>
        (!!o.locode && o.locode === r.locode && o.kind === r.kind) ||
        (o.kind !== "terminal" &&
          r.kind !== "terminal" &&
          fastGeodesicMeters(o.lat, o.lng, r.lat, r.lng) <
            (countryOf(o) === countryOf(r) ? SAME_PLACE_KM : SAME_POINT_KM) * 1000)
    );
    if (!same) out.push(r);
  }
  return out;
}

/** "Portland: USPDX (Oregon), USPWM (Maine) or GBPTL (England)", as many as fit. */
function listing(prefix: string, places: readonly NameCandidate[]): string {
  const labels = places.map(candidateLabel);
  for (let n = Math.min(labels.length, 4); n >= 2; n--) {
    const more = labels.length > n ? ", …" : "";
    const text =
      more === ""
        ? `${prefix}${labels.slice(0, n - 1).join(", ")} or ${labels[n - 1]}`
        : `${prefix}${labels.slice(0, n).join(", ")}${more}`;
    if (text.length <= MAX_PROBLEM_LENGTH) return text;
  }
  return fit(`${prefix}${labels[0]} or ${labels[1]}`);
}

function fit(text: string): string {
  return text.length <= MAX_PROBLEM_LENGTH ? text : `${text.slice(0, MAX_PROBLEM_LENGTH - 1)}…`;
}
