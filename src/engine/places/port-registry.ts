/**
 * Ports and other UN/LOCODE locations, from layers of decreasing precedence. The loader passes
 * them as: curated overlay (data/ports-overlay.csv) > imported UN/LOCODE list > sea-ports package.
 * The overlay wins because it is checked by hand; UN/LOCODE coordinates are only to the minute,
 * but still beat sea-ports' city-centre points.
 */
import { Port } from "../types";

export interface PortRecord {
  locode: string;
  name: string;
  /** Absent when the layer knows the code but not where it is. */
  lat?: number;
  lng?: number;
  source: string;
  /** Overlay only: `seaport`, `inland` and/or `rail`, `;`-separated. */
  kind?: string;
  /** UN/LOCODE function classifier when the layer knows it, e.g. `-23-----`. */
  functions?: string;
  /** Other names the place is known by (searchable). */
  aliases?: string[];
  /** UN/LOCODE subdivision code (ISO 3166-2 without the country), e.g. `OR`. */
  subdivision?: string;
  /** The subdivision's name, e.g. `Oregon`. */
  region?: string;
  /**
   * What the position rests on when the layer says (the shipped UN/LOCODE list): `UN/LOCODE`,
   * `GeoNames`, `parent CODE` or `parent GeoNames NAME`.
   */
  basis?: string;
  /** Inhabitants (GeoNames), ranks places of the same name. */
  population?: number;
}

/** What every layer together says of a code besides its position. */
export interface PlaceDetails {
  functions?: string;
  subdivision?: string;
  region?: string;
  population?: number;
  /** How the position was found, in words ("UN/LOCODE", "parent place CNSGH (Shanghai)"). */
  position?: string;
}

/** Records by LOCODE; a Map<string, PortRecord> is one. */
export interface PortSource {
  get(locode: string): PortRecord | undefined;
  values(): Iterable<PortRecord>;
}

export interface PortLayer {
  /** Short label used in messages, e.g. "UN/LOCODE list". */
  label: string;
  /** The records, or a function building them on first use (for the large UN/LOCODE import). */
  records: PortSource | (() => PortSource);
}

/** Result of looking up a code: `port` when routable, `known` when any layer has the code. */
export interface PortLookup {
  port?: Port;
  known?: PortRecord & { layer: string };
  details?: PlaceDetails;
}

/** Codes whose look-up is remembered. */
const REMEMBERED_CODES = 10_000;

export class PortRegistry {
  private readonly layers: { label: string; get: () => PortSource }[];
  private readonly looked = new Map<string, PortLookup>();

  /** `layers` highest precedence first. */
  constructor(layers: PortLayer[]) {
    this.layers = layers.map((layer) => ({ label: layer.label, get: memo(layer.records) }));
  }

  /** The routable port of `locode` (upper-case, no separator), or undefined. */
  get(locode: string): Port | undefined {
    return this.lookup(locode).port;
  }

  /** True when any layer knows `locode`, with or without coordinates. */
  has(locode: string): boolean {
    return this.lookup(locode).known !== undefined;
  }

  /** The result of a code, once worked out (layers never change; a lane sheet repeats codes). */
  lookup(locode: string): PortLookup {
    let found = this.looked.get(locode);
    if (!found) {
      if (this.looked.size >= REMEMBERED_CODES) this.looked.clear();
      // Frozen: every caller of the code shares these objects.
      found = this.lookupInLayers(locode);
      if (found.port) Object.freeze(found.port);
      if (found.known) Object.freeze(found.known);
      this.looked.set(locode, Object.freeze(found));
    }
    return found;
  }

  private lookupInLayers(locode: string): PortLookup {
    let known: PortLookup["known"];
    let port: Port | undefined;
    const details: PlaceDetails = {};
    for (const layer of this.layers) {
      const r = layer.get().get(locode);
      if (!r) continue;
      details.functions ??= r.functions;
      details.subdivision ??= r.subdivision || undefined;
      details.region ??= r.region || undefined;
      if (r.population) details.population = Math.max(details.population ?? 0, r.population);
      if (!port && r.lat !== undefined && r.lng !== undefined) {
        port = toPort(r);
        known = { ...r, layer: layer.label };
        const words = positionWords(r);
        if (words) details.position = words;
      }
      known ??= { ...r, layer: layer.label };
    }
    for (const k of Object.keys(details) as (keyof PlaceDetails)[])
      if (details[k] === undefined) delete details[k];
    return port ? { port, known, details } : { known, details };
  }

  /**
   * Every routable record, each code once with its highest-precedence coordinates, with the
   * records of the same code from lower layers (their names are aliases worth searching).
   */
  *routableRecords(): IterableIterator<{
    record: PortRecord;
    layer: string;
    others: PortRecord[];
  }> {
    const seen = new Map<string, { record: PortRecord; layer: string; others: PortRecord[] }>();
    for (const layer of this.layers) {
      for (const r of layer.get().values()) {
        const found = seen.get(r.locode);
        if (found) found.others.push(r);
        else if (r.lat !== undefined && r.lng !== undefined)
          seen.set(r.locode, { record: r, layer: layer.label, others: [] });
      }
    }
    yield* seen.values();
  }

  /** Every routable port, each code once with its highest-precedence coordinates, sorted by LOCODE. */
  all(): Port[] {
    const out = new Map<string, Port>();
    for (const layer of this.layers) {
      for (const r of layer.get().values()) {
        if (!out.has(r.locode) && r.lat !== undefined && r.lng !== undefined)
          out.set(r.locode, toPort(r));
      }
    }
    return [...out.values()].sort((a, b) =>
      a.locode < b.locode ? -1 : a.locode > b.locode ? 1 : 0
    );
  }
}

/**
 * How a position was found when it is not the place's own (UN/LOCODE's or a curated one):
 * "GeoNames", "parent place CNSGH", "same place as CNSHA"; undefined otherwise.
 */
function positionWords(r: PortRecord): string | undefined {
  if (!r.basis || r.basis === "UN/LOCODE") return undefined;
  const parent = /^parent (?:GeoNames )?(.*)$/.exec(r.basis);
  if (!parent) return r.basis;
  return r.basis.startsWith("parent GeoNames")
    ? `parent place ${parent[1]} (GeoNames)`
    : `parent place ${parent[1]}`;
}

function toPort(r: PortRecord): Port {
  return {
    locode: r.locode,
    name: r.name,
    country: r.locode.slice(0, 2),
    lat: r.lat!,
    lng: r.lng!,
    source: r.source,
  };
}

function memo(value: PortSource | (() => PortSource)): () => PortSource {
  if (typeof value !== "function") return () => value;
  let cached: PortSource | undefined;
  return () => (cached ??= value());
}
