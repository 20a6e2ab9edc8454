/**
 * The one grammar of `avoid` and `via` (issue 29 item 5), read the same by the service (the
 * engine's parseAvoid and parseVia), the add-in's functions (bundled by webpack) and `lanes`.
 * Pure: no I/O, no errors thrown; each caller words a problem as its own kind of error.
 *
 * - A passage is named in any case, with spaces, hyphens or underscores between its words, with or
 *   without "Strait of", "Canal" and the like: "Bab el Mandeb", "bab-el-mandeb", "BAB_EL_MANDEB",
 *   "Suez Canal", "Strait of Hormuz", "Bosphorus" all read as the same passage.
 * - `avoid` lists passages apart by "," ";" "|" or a line break; a list apart by spaces alone
 *   ("suez panama") is read word by word when the whole is not one passage.
 * - `via` lists waypoints or places apart by ";" or "|" (commas too, unless the whole is one
 *   "lat,lng"); each piece is a waypoint name (normalised as passages are) or a place.
 */
import { PASSAGES, Passage } from "./types";

/** Common names of passages that are not their canonical spelling. */
const PASSAGE_ALIASES: Readonly<Record<string, Passage>> = {
  BOSPHORUS: "BOSPORUS",
  ISTANBUL_STRAIT: "BOSPORUS",
  BAB_AL_MANDAB: "BAB_EL_MANDEB",
  BAB_EL_MANDAB: "BAB_EL_MANDEB",
  BAB_AL_MANDEB: "BAB_EL_MANDEB",
  NORTHWEST_PASSAGE: "NORTHWEST",
  NORTHERN_SEA_ROUTE: "NORTHEAST",
  NORTHEAST_PASSAGE: "NORTHEAST",
};

/** Words around a passage's name that do not change which passage it is. */
const FRAME_WORDS =
  /^(?:THE_)?(?:STRAITS?_OF_(?:THE_)?)?(.+?)(?:_(?:CANAL|STRAITS?|CHANNEL|PASSAGE))?$/;

/** "Bab el-Mandeb" → "BAB_EL_MANDEB": upper case, words joined by "_" (waypoint keys too). */
export function passageKey(text: string): string {
  return text
    .trim()
    .toUpperCase()
    .replace(/[\s_-]+/g, "_")
    .replace(/^_|_$/g, "");
}

/** The passage `text` names, or undefined. */
export function passageOf(text: string): Passage | undefined {
  const key = passageKey(text);
  const direct = PASSAGE_ALIASES[key] ?? key;
  if ((PASSAGES as readonly string[]).includes(direct)) return direct as Passage;
  const framed = FRAME_WORDS.exec(key)?.[1] ?? key;
  const bare = PASSAGE_ALIASES[framed] ?? framed;
  return (PASSAGES as readonly string[]).includes(bare) ? (bare as Passage) : undefined;
}

export type AvoidReading =
  | { kind: "PASSAGES"; passages: Passage[] }
  /** `item` is the first piece (as typed) that names no passage. */
  | { kind: "UNKNOWN"; item: string };

/** The passages an `avoid` value lists, each once, in the order given; [] when blank. */
export function readAvoid(raw: unknown): AvoidReading {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  const passages: Passage[] = [];
  for (const item of text.split(/[,;|\r\n]+/)) {
    const typed = item.trim();
    if (!typed) continue;
    const one = passageOf(typed);
    const words = one ? [one] : typed.split(/\s+/).map(passageOf);
    if (words.some((w) => w === undefined)) return { kind: "UNKNOWN", item: typed };
    for (const p of words as Passage[]) if (!passages.includes(p)) passages.push(p);
  }
  return { kind: "PASSAGES", passages };
}

/** One spelling per set of passages ("PANAMA,SUEZ"), so equal questions share a cache entry. */
export function avoidText(passages: readonly Passage[]): string | undefined {
  return passages.length ? [...passages].sort().join(",") : undefined;
}

/** The allowed passage names, for messages. */
export const PASSAGE_NAMES = PASSAGES.join(", ");

/** The message for an `avoid` piece that is no passage. */
export function avoidProblem(item: string): string {
  return `avoid "${item.slice(0, 40)}" is not a passage; allowed values: ${PASSAGE_NAMES}.`;
}

/** A single "lat,lng" with point decimals, which keeps its comma inside a via list. */
const LAT_LNG = /^\s*[+-]?\d+(?:\.\d+)?\s*,\s*[+-]?\d+(?:\.\d+)?\s*$/;

/** The pieces of a `via` value, trimmed, blanks dropped; [] when blank. */
export function splitVia(raw: unknown): string[] {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  if (!text) return [];
  const pieces = /[;|]/.test(text)
    ? text.split(/[;|]/)
    : LAT_LNG.test(text)
      ? [text]
      : text.split(",");
  return pieces.map((p) => p.trim()).filter((p) => p !== "");
}
