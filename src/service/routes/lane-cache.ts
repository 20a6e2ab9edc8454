/**
 * /distance answers by lane as the client spelled it. The engine caches routes by resolved
 * position, but still resolves both places, parses the modality, vessel, avoid and via lists and
 * builds its key on every call: a lane sheet repeats the same few lanes thousands of times, so the
 * service remembers the engine's answer for the query strings themselves. The engine's answer for
 * the same strings never changes (its data is loaded once); errors are not remembered (they are
 * thrown again, as before).
 */
import { DistanceQuery } from "../../engine/route-engine";
import { DistanceResult } from "../../engine/types";

/** The parts of a distance answer /distance uses. */
export type LaneDistance = Pick<DistanceResult, "distance" | "passages">;

/** At most this many lanes; the whole cache is dropped when full (as the engine's own is). */
export const LANE_CACHE_ENTRIES = 10_000;
/** Longer query strings are not remembered (a few hundred lanes of them would hold megabytes). */
export const LANE_KEY_MAX = 512;

/** The query fields the engine's distance depends on, in the key's order. */
const FIELDS = ["origin", "destination", "modality", "vesselInfo", "avoid", "via"] as const;

/**
 * At most `entries` values by text key, all dropped when full (as the engine's own cache is); a key
 * longer than LANE_KEY_MAX is never kept.
 */
class BoundedMap<V> {
  readonly #values = new Map<string, V>();

  constructor(private readonly entries: number) {}

  get(key: string): V | undefined {
    return this.#values.get(key);
  }

  set(key: string, value: V): void {
    if (key.length > LANE_KEY_MAX) return;
    if (this.#values.size >= this.entries) this.#values.clear();
    this.#values.set(key, value);
  }

  get size(): number {
    return this.#values.size;
  }
}

export class LaneCache {
  readonly #lanes: BoundedMap<LaneDistance>;

  constructor(entries = LANE_CACHE_ENTRIES) {
    this.#lanes = new BoundedMap(entries);
  }

  /** The engine's distance for `query`, remembered when its key is short enough. */
  distance(query: DistanceQuery, compute: (query: DistanceQuery) => LaneDistance): LaneDistance {
    const key = laneKey(query);
    if (key === undefined) return compute(query);
    const hit = this.#lanes.get(key);
    if (hit) return hit;
    const { distance, passages } = compute(query);
    const lane = { distance, passages };
    this.#lanes.set(key, lane);
    return lane;
  }

  get size(): number {
    return this.#lanes.size;
  }
}

/**
 * Each field as "=value" or "-" (absent), joined by NUL; undefined (not remembered) when a field
 * is not a string or holds a NUL itself (the key would be ambiguous), or the key is too long to
 * keep.
 */
function laneKey(query: DistanceQuery): string | undefined {
  let key = "";
  for (const name of FIELDS) {
    const v = query[name];
    if (v === undefined) key += "-\u0000";
    else if (typeof v !== "string" || v.includes("\u0000")) return undefined;
    else key += "=" + v + "\u0000";
  }
  return key.length > LANE_KEY_MAX ? undefined : key;
}

/**
 * Whole /distance bodies by the URL's query string as sent, for the calls that ask for nothing
 * extra (no `include`): their body is `{ distance }` of the lane the query names, so the same
 * query text always gets the same body (the query is parsed, normalised and validated the same way
 * every time). A hit skips the lane key, the include list and a new body object; the bodies are
 * frozen, as they are shared by every answer of their query. Bound and dropped like the lanes.
 */
export class PlainBodies {
  readonly #bodies: BoundedMap<Readonly<{ distance: number }>>;

  constructor(entries = LANE_CACHE_ENTRIES) {
    this.#bodies = new BoundedMap(entries);
  }

  get(queryText: string): Readonly<{ distance: number }> | undefined {
    return this.#bodies.get(queryText);
  }

  /** The body of `distance` remembered under `queryText` (when short enough), and returned. */
  remember(queryText: string, distance: number): Readonly<{ distance: number }> {
    const body = Object.freeze({ distance });
    this.#bodies.set(queryText, body);
    return body;
  }

  get size(): number {
    return this.#bodies.size;
  }
}

/** The query string of a request URL as sent ("" without one). */
export function queryTextOf(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? "" : url.slice(q + 1);
}
