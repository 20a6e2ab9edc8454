/**
 * Place look-up as a user types: every name the engine knows (ports, terminals, inland places,
 * an imported UN/LOCODE list) searched by code or name, exact first, then fuzzy (word prefixes,
 * misspelt words, mistyped LOCODEs). Pure: the entries arrive ready-made; the index is built once
 * and each look-up touches only the words it needs, so it stays fast with 100,000 places.
 */
import { Modality } from "../types";
import { normaliseLocode } from "./place-grammar";
import { nameTokens } from "./text-fold";

export type PlaceKind = "port" | "terminal" | "place";

/** One searchable thing; `names` are the name and its aliases, the first shown. */
export interface PlaceEntry {
  kind: PlaceKind;
  locode: string;
  names: string[];
  lat: number;
  lng: number;
  modalities: Modality[];
  /** Terminals only: the id the other endpoints accept. */
  terminalId?: string;
  /** Ranks equally good matches: a curated port before a bare list entry (higher first). */
  weight: number;
  /**
   * Ranks places of the same name, higher first: the population (GeoNames), plus a city-sized
   * amount for curated ports and ports with terminals (port size). Defaults to 0.
   */
  rank?: number;
  population?: number;
  /** UN/LOCODE subdivision code and name ("OR", "Oregon"). */
  subdivision?: string;
  region?: string;
}

export interface PlaceMatch {
  kind: PlaceKind;
  /** The UN/LOCODE (a terminal's: its port's); "" for a town that has none (GeoNames only). */
  locode: string;
  name: string;
  country: string;
  lat: number;
  lng: number;
  modalities: Modality[];
  terminalId?: string;
  match: "exact" | "fuzzy";
  /** 0..1, 1 only for exact matches. */
  score: number;
  /** UN/LOCODE subdivision code and its name, where known ("OR", "Oregon"). */
  subdivision?: string;
  region?: string;
  /** Inhabitants (GeoNames), where known: ranks places of the same name. */
  population?: number;
  /** Population or port size, whichever says more: what ranks places of one name. */
  rank?: number;
}

/** Longest query read, in characters (the service refuses longer ones). */
export const MAX_PLACE_QUERY = 200;
/** Words of a query that count: more would only cost time. */
const MAX_WORDS = 6;
/** Index words a prefix may expand to (a one-letter prefix would otherwise reach thousands). */
const MAX_PREFIX_EXPANSION = 100;
/** Entries one query word may bring in before the others narrow them. */
const MAX_CANDIDATES = 3_000;
/** Characters a LOCODE code may use (UN/LOCODE manual: letters and digits 2-9). */
const CODE_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ23456789";

/** Per-word match strengths, out of 1. */
const WORD_EXACT = 1;
const WORD_PREFIX = 0.8;
const WORD_ONE_EDIT = 0.6;
const WORD_TWO_EDITS = 0.4;

export class PlaceIndex {
  private readonly entries: readonly PlaceEntry[];
  /** Folded full name → entries (exact name matches). */
  private readonly byName = new Map<string, number[]>();
  /** LOCODE → port/place entry. */
  private readonly byCode = new Map<string, number>();
  /** LOCODE → its terminals. */
  private readonly terminalsOf = new Map<string, number[]>();
  /** Folded word → entries having it in a name. */
  private readonly byWord = new Map<string, number[]>();
  /** The distinct words, sorted (prefix look-up by binary search). */
  private readonly words: string[];
  /** Words by first letter and length, with their letter sets (misspelt-word look-up). */
  private readonly wordBuckets = new Map<string, { words: string[]; letters: Int32Array }>();
  /** Each entry's distinct folded words (checking the other words of a query). */
  private readonly entryWords: string[][] = [];
  /** Fewest words of each entry's names (coverage of a match). */
  private readonly wordCount: number[] = [];
  /** Folded first name of each entry (the last tie-break). */
  private readonly sortKey: string[] = [];

  constructor(entries: readonly PlaceEntry[]) {
    this.entries = entries;
    for (let i = 0; i < entries.length; i++) {
      const e = entries[i];
      if (e.kind === "terminal") push(this.terminalsOf, e.locode, i);
      else if (!this.byCode.has(e.locode)) this.byCode.set(e.locode, i);
      let fewest = Infinity;
      const own: string[] = [];
      let first = "";
      for (const name of e.names) {
        const tokens = nameTokens(name);
        if (tokens.length === 0) continue;
        const key = tokens.join(" ");
        if (!first) first = key;
        push(this.byName, key, i);
        fewest = Math.min(fewest, tokens.length);
        for (const t of tokens) {
          if (own.includes(t)) continue;
          own.push(t);
          push(this.byWord, t, i);
        }
      }
      this.entryWords.push(own);
      this.wordCount.push(Number.isFinite(fewest) ? fewest : 1);
      this.sortKey.push(first);
    }
    this.words = [...this.byWord.keys()].sort();
    const buckets = new Map<string, string[]>();
    for (const w of this.words) {
      const key = bucketKey(w[0], w.length);
      const list = buckets.get(key);
      if (list) list.push(w);
      else buckets.set(key, [w]);
    }
    for (const [key, words] of buckets)
      this.wordBuckets.set(key, { words, letters: Int32Array.from(words, letterSet) });
  }

  get size(): number {
    return this.entries.length;
  }

  /** The best `limit` matches of `query`, best first; [] when nothing matches. */
  search(query: string, limit = 5): PlaceMatch[] {
    const text = query.trim().slice(0, MAX_PLACE_QUERY);
    const scores = new Map<number, { score: number; exact: boolean }>();
    const offer = (i: number, score: number, exact: boolean) => {
      const old = scores.get(i);
      if (!old || score > old.score) scores.set(i, { score, exact });
    };

    const code = normaliseLocode(text);
    if (code) this.byCodeMatches(code, text, offer);
    // A code typed is that code first, before a place whose name is spelt the same.
    const codeHit = code === undefined ? undefined : this.byCode.get(code);
    const tokens = nameTokens(text);
    const folded = tokens.join(" ");
    for (const i of this.byName.get(folded) ?? []) offer(i, 1, true);
    // "NLRTM Euromax": a code followed by a terminal's name.
    const lead = tokens.length > 1 ? normaliseLocode(tokens[0]) : undefined;
    if (lead && this.terminalsOf.has(lead)) this.terminalMatches(lead, tokens.slice(1), offer);
    const words = tokens.slice(0, MAX_WORDS);
    if (words.length) {
      this.wordMatches(words, false, offer);
      // Misspellings are looked for only when whole words and prefixes found too little.
      if (scores.size < limit) this.wordMatches(words, true, offer);
    }

    const ranked = [...scores].sort(
      (a, b) =>
        b[1].score - a[1].score ||
        Number(b[0] === codeHit) - Number(a[0] === codeHit) ||
        (this.entries[b[0]].rank ?? 0) - (this.entries[a[0]].rank ?? 0) ||
        this.entries[b[0]].weight - this.entries[a[0]].weight ||
        compare(this.sortKey[a[0]], this.sortKey[b[0]])
    );
    return ranked.slice(0, Math.max(0, limit)).map(([i, s]) => this.toMatch(i, s));
  }

  private byCodeMatches(
    code: string,
    typed: string,
    offer: (i: number, score: number, exact: boolean) => void
  ): void {
    const hit = this.byCode.get(code);
    // "Paris" is shaped like a code too: a code typed in mixed case is more likely a name.
    const mixedCase = /[a-z]/.test(typed) && /[A-Z]/.test(typed);
    if (hit !== undefined) {
      offer(hit, mixedCase ? 0.99 : 1, true);
      return;
    }
    if (mixedCase) return;
    // A mistyped code: the known codes one change away (a character replaced, two swapped).
    for (const c of this.codesOneEditFrom(code)) offer(this.byCode.get(c)!, 0.8, false);
  }

  private codesOneEditFrom(code: string): string[] {
    const found: string[] = [];
    for (let p = 0; p < 5; p++) {
      const alphabet = p < 2 ? CODE_CHARS.slice(0, 26) : CODE_CHARS;
      for (const ch of alphabet) {
        if (ch === code[p]) continue;
        const c = code.slice(0, p) + ch + code.slice(p + 1);
        if (this.byCode.has(c)) found.push(c);
      }
      if (p < 4 && code[p] !== code[p + 1]) {
        const c = code.slice(0, p) + code[p + 1] + code[p] + code.slice(p + 2);
        if (this.byCode.has(c)) found.push(c);
      }
    }
    return found;
  }

  private terminalMatches(
    locode: string,
    words: string[],
    offer: (i: number, score: number, exact: boolean) => void
  ): void {
    const wanted = words.join(" ");
    for (const i of this.terminalsOf.get(locode) ?? []) {
      const names = this.entries[i].names.map((n) => nameTokens(n));
      if (names.some((n) => n.join(" ") === wanted)) {
        offer(i, 1, true);
        continue;
      }
      const strength = Math.max(...names.map((n) => wordsStrength(words, n)));
      if (strength > 0) offer(i, 0.95 * strength, false);
    }
  }

  /**
   * Entries having every query word (exactly, as a prefix, or, with `misspelt`, one or two
   * letters off), scored below 1. The word with the fewest entries drives; the other words are
   * checked against each of its entries' own words.
   */
  private wordMatches(
    tokens: string[],
    misspelt: boolean,
    offer: (i: number, score: number, exact: boolean) => void
  ): void {
    const like = tokens.map((t) => this.wordsLike(t, misspelt));
    let driver = -1;
    let fewest = Infinity;
    like.forEach((words, k) => {
      let n = 0;
      for (const w of words.keys()) n += this.byWord.get(w)?.length ?? 0;
      if (n < fewest) [driver, fewest] = [k, n];
    });
    if (driver < 0 || fewest === 0) return;
    const strengthOf = new Map<number, number>();
    for (const [word, strength] of like[driver]) {
      for (const i of this.byWord.get(word) ?? []) {
        if ((strengthOf.get(i) ?? 0) < strength) strengthOf.set(i, strength);
        if (strengthOf.size >= MAX_CANDIDATES) break;
      }
      if (strengthOf.size >= MAX_CANDIDATES) break;
    }
    for (const [i, first] of strengthOf) {
      let sum = first;
      for (let k = 0; k < tokens.length && sum > 0; k++) {
        if (k === driver) continue;
        let best = 0;
        for (const w of this.entryWords[i]) best = Math.max(best, like[k].get(w) ?? 0);
        sum = best > 0 ? sum + best : 0;
      }
      if (sum === 0) continue;
      const strength = sum / tokens.length;
      // A query naming the whole of a short name beats one word of a long name.
      const coverage = Math.min(1, tokens.length / this.wordCount[i]);
      offer(i, round3(0.9 * strength * (0.6 + 0.4 * coverage)), false);
    }
  }

  /** Index words matching query word `t`, with their strength. */
  private wordsLike(t: string, misspelt: boolean): Map<string, number> {
    const out = new Map<string, number>();
    if (this.byWord.has(t)) out.set(t, WORD_EXACT);
    let at = lowerBound(this.words, t);
    for (let n = 0; at < this.words.length && n < MAX_PREFIX_EXPANSION; at++, n++) {
      const w = this.words[at];
      if (!w.startsWith(t)) break;
      if (w !== t) out.set(w, WORD_PREFIX);
    }
    // Misspellings: only for words long enough that one change still says something.
    if (misspelt && t.length >= 4) {
      const edits = t.length >= 8 ? 2 : 1;
      const letters = letterSet(t);
      for (let len = t.length - edits; len <= t.length + edits; len++) {
        const bucket = this.wordBuckets.get(bucketKey(t[0], len));
        if (!bucket) continue;
        for (let j = 0; j < bucket.words.length; j++) {
          // Each edit changes at most two letters of the set: a cheap filter before the distance.
          if (bitCount(bucket.letters[j] ^ letters) > 2 * edits) continue;
          const w = bucket.words[j];
          if (out.has(w)) continue;
          const d = editDistance(t, w, edits);
          if (d <= edits) out.set(w, d === 1 ? WORD_ONE_EDIT : WORD_TWO_EDITS);
        }
      }
    }
    return out;
  }

  private toMatch(i: number, s: { score: number; exact: boolean }): PlaceMatch {
    const e = this.entries[i];
    const m: PlaceMatch = {
      kind: e.kind,
      locode: e.locode,
      name: e.names[0],
      country: e.locode.slice(0, 2),
      lat: e.lat,
      lng: e.lng,
      modalities: [...e.modalities],
      match: s.exact ? "exact" : "fuzzy",
      score: s.exact ? s.score : Math.min(s.score, 0.95),
    };
    if (e.terminalId) m.terminalId = e.terminalId;
    if (e.subdivision) m.subdivision = e.subdivision;
    if (e.region) m.region = e.region;
    if (e.population) m.population = e.population;
    if (e.rank) m.rank = e.rank;
    return m;
  }
}

/** Strength (0..1) of query words against one name's words: every word must match. */
function wordsStrength(query: string[], name: string[]): number {
  if (query.length === 0) return 0;
  let sum = 0;
  for (const q of query) {
    let best = 0;
    for (const n of name) {
      if (n === q) best = WORD_EXACT;
      else if (n.startsWith(q)) best = Math.max(best, WORD_PREFIX);
      else if (q.length >= 4 && editDistance(q, n, 1) <= 1) best = Math.max(best, WORD_ONE_EDIT);
    }
    if (best === 0) return 0;
    sum += best;
  }
  return sum / query.length;
}

/** Levenshtein distance with adjacent swaps, or `max + 1` as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prevPrev: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d = Math.min(d, prevPrev[j - 2] + 1);
      row.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    prevPrev = prev;
    prev = row;
  }
  return prev[b.length];
}

/** The set of letters a-z and digits in a word, as bits (for a cheap misspelling filter). */
function letterSet(word: string): number {
  let bits = 0;
  for (let k = 0; k < word.length; k++) {
    const c = word.charCodeAt(k);
    if (c >= 97 && c <= 122) bits |= 1 << (c - 97);
    else if (c >= 48 && c <= 57) bits |= 1 << 26;
    else bits |= 1 << 27;
  }
  return bits;
}

function bitCount(x: number): number {
  let n = 0;
  for (let v = x >>> 0; v; v &= v - 1) n++;
  return n;
}

function bucketKey(first: string, length: number): string {
  return `${first}${length}`;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const list = map.get(key);
  if (list) {
    if (list[list.length - 1] !== value) list.push(value);
  } else map.set(key, [value]);
}

function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
