/**
 * The towns gazetteer (data/places-towns.csv: GeoNames towns of 15,000+ inhabitants that are not
 * UN/LOCODE places) as the name search's last resort. A town answers a name only when the
 * UN/LOCODE names, aliases and terminals have no exact match for it, so no coded answer changes.
 * A town has no code: it stands for its position (as "lat,lng" does, TRUCK and RAIL) and keeps its
 * name for display. Read and indexed on the first name the other places miss: most runs never do.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "./csv";
import { PlaceEntry, PlaceIndex, PlaceMatch } from "../engine/places";

export const SHIPPED_TOWNS = path.resolve(__dirname, "../../data/places-towns.csv");

export interface Town {
  name: string;
  country: string;
  region: string;
  lat: number;
  lng: number;
  population: number;
}

export function readTowns(file = SHIPPED_TOWNS): Town[] {
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  return rows.map((r) => ({
    name: r.name,
    country: r.country,
    region: r.region,
    lat: Number(r.lat),
    lng: Number(r.lng),
    population: Number(r.population) || 0,
  }));
}

/** Name search over the towns; matches carry no code (locode ""), their country and region. */
export class TownIndex {
  private readonly index: PlaceIndex;
  private readonly towns: readonly Town[];

  constructor(towns: readonly Town[]) {
    this.towns = towns;
    this.index = new PlaceIndex(
      towns.map(
        (t, i): PlaceEntry => ({
          kind: "place",
          // The entry's number, only to map matches back: a town has no UN/LOCODE.
          locode: `#${i}`,
          names: [t.name],
          lat: t.lat,
          lng: t.lng,
          modalities: ["TRUCK", "RAIL"],
          weight: 0,
          rank: t.population,
          population: t.population,
          region: t.region || undefined,
        })
      )
    );
  }

  get size(): number {
    return this.towns.length;
  }

  search(query: string, limit: number): PlaceMatch[] {
    return this.index.search(query, limit).map((m) => {
      const town = this.towns[Number(m.locode.slice(1))];
      return { ...m, locode: "", country: town.country };
    });
  }
}

/**
 * `search` with the towns as last resort: the places' own answer when it has an exact match or
 * the towns have none; else the towns' exact matches first, then the places' other results.
 */
export function withTowns(
  search: (query: string, limit: number) => PlaceMatch[],
  towns: () => TownIndex | undefined
): (query: string, limit: number) => PlaceMatch[] {
  return (query, limit) => {
    const found = search(query, limit);
    if (found.some((m) => m.match === "exact")) return found;
    const index = towns();
    if (!index) return found;
    const fromTowns = index.search(query, limit);
    const exact = fromTowns.filter((m) => m.match === "exact");
    // Only exact names: a town's near miss would change the places' own "unknown" answers.
    return exact.length ? [...exact, ...found].slice(0, limit) : found;
  };
}

/** The shipped towns, indexed once per process on first use; undefined when the file is absent. */
let shipped: TownIndex | null | undefined;
export function shippedTowns(): TownIndex | undefined {
  if (shipped === undefined)
    shipped = fs.existsSync(SHIPPED_TOWNS) ? new TownIndex(readTowns()) : null;
  return shipped ?? undefined;
}

/** True once the shipped towns are indexed (or known absent): no name search will read them. */
export function townsReady(): boolean {
  return shipped !== undefined;
}
