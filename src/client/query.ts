/** Query strings and cache keys: one canonical spelling per question, so repeats are recognised. */
import type { Query } from "./types";

/**
 * Drops empty values, sorts keys, and repeats a key for each array item. The same text as
 * URLSearchParams writes (form encoding: space as +), built by hand: it keys every call, 5,000
 * for a column, and URLSearchParams cost more than the rest of a cached call.
 */
export function canonicalQuery(query: Query): string {
  const parts: string[] = [];
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      for (const item of value)
        if (item !== "") parts.push(`${formEncode(key)}=${formEncode(item)}`);
    } else {
      parts.push(`${formEncode(key)}=${formEncode(String(value))}`);
    }
  }
  return parts.join("&");
}

/** application/x-www-form-urlencoded, as URLSearchParams encodes: letters, digits and *-._ kept. */
function formEncode(text: string): string {
  if (/^[A-Za-z0-9*\-._]*$/.test(text)) return text;
  // A lone surrogate (not valid UTF-16 text): URLSearchParams writes it as U+FFFD.
  if (/[\uD800-\uDFFF]/.test(text)) return new URLSearchParams([["", text]]).toString().slice(1);
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** The query without empty values, as a JSON object (for batch items). */
export function compactQuery(query: Query): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    out[key] = value;
  }
  return out;
}

export function joinUrl(baseUrl: string, path: string, query?: string): string {
  return baseUrl.replace(/\/+$/, "") + path + (query ? `?${query}` : "");
}
