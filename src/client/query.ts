/** Query strings and cache keys: one canonical spelling per question, so repeats are recognised. */
import type { Query } from "./types";

/** Drops empty values, sorts keys, and repeats a key for each array item. */
export function canonicalQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const key of Object.keys(query).sort()) {
    const value = query[key];
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== "") params.append(key, item);
    } else {
      params.append(key, String(value));
    }
  }
  return params.toString();
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
