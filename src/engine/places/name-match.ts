/**
 * Ranks names against what a user is typing: case-, accent- and word-order-insensitive, with
 * partial words. Every query word must match a word of the name; an exact word beats a word
 * prefix, which beats a substring (3+ letters). Roman numerals match digits ("ii" = "2").
 */
import { nameTokens } from "./text-fold";

// A Map: names are user input, and a plain object would answer "constructor" with a function.
const ROMAN = new Map<string, string>([
  ["i", "1"],
  ["ii", "2"],
  ["iii", "3"],
  ["iv", "4"],
  ["v", "5"],
  ["vi", "6"],
  ["vii", "7"],
  ["viii", "8"],
  ["ix", "9"],
  ["x", "10"],
  ["xi", "11"],
  ["xii", "12"],
]);

const EXACT = 3;
const PREFIX = 2;
const SUBSTRING = 1;

/** A name prepared once for repeated matching. */
export interface PreparedName {
  tokens: string[][];
  compact: string;
  length: number;
}

export function prepareName(name: string): PreparedName {
  const tokens = nameTokens(name);
  return {
    tokens: tokens.map(alternatives),
    compact: tokens.join(""),
    length: tokens.join(" ").length,
  };
}

/** A query prepared once, matched against many names. */
export interface PreparedQuery {
  tokens: string[][];
  compact: string;
}

/** Query words that count: repeating or piling up words must not make a search cost more. */
export const MAX_QUERY_TOKENS = 8;

export function prepareQuery(query: string): PreparedQuery {
  const tokens = [...new Set(nameTokens(query))].slice(0, MAX_QUERY_TOKENS);
  return { tokens: tokens.map(alternatives), compact: tokens.join("") };
}

/** 0 when `name` does not match; higher is better. */
export function matchScore(query: PreparedQuery, name: PreparedName): number {
  if (query.tokens.length === 0) return 0;
  let total = 0;
  for (const q of query.tokens) {
    let best = 0;
    for (const n of name.tokens) {
      best = Math.max(best, tokenTier(q, n));
      if (best === EXACT) break;
    }
    if (best === 0) return wholeNameFallback(query, name);
    total += best;
  }
  return total;
}

/** "euromaxterminal" or "ectdelta": words typed without spaces still find the name. */
function wholeNameFallback(query: PreparedQuery, name: PreparedName): number {
  return query.compact.length >= 3 && name.compact.includes(query.compact) ? SUBSTRING : 0;
}

function tokenTier(query: string[], name: string[]): number {
  let best = 0;
  for (const q of query) {
    for (const n of name) {
      if (n === q) return EXACT;
      if (n.startsWith(q)) best = Math.max(best, PREFIX);
      else if (q.length >= 3 && n.includes(q)) best = Math.max(best, SUBSTRING);
    }
  }
  return best;
}

function alternatives(token: string): string[] {
  const digit = ROMAN.get(token);
  return digit ? [token, digit] : [token];
}

/**
 * Items whose name matches `query`, best first: higher score, then shorter name, then by name.
 * `name` extracts the prepared name of an item.
 */
export function rankByName<T>(
  items: readonly T[],
  query: string,
  prepared: (item: T) => PreparedName,
  label: (item: T) => string
): T[] {
  const q = prepareQuery(query);
  const scored: { item: T; score: number; length: number; label: string }[] = [];
  for (const item of items) {
    const p = prepared(item);
    const score = matchScore(q, p);
    if (score > 0) scored.push({ item, score, length: p.length, label: label(item) });
  }
  scored.sort((a, b) => b.score - a.score || a.length - b.length || compareText(a.label, b.label));
  return scored.map((s) => s.item);
}

/** One collator for every comparison: `localeCompare` with options builds a new one per call. */
let collator: Intl.Collator | undefined;

/** Accent-insensitive, case-insensitive ordering for listings. */
export function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator("en", { sensitivity: "base", numeric: true });
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
