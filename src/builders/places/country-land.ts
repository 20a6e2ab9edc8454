/**
 * Is a point in its country? Natural Earth 1:50m admin-0 polygons (npm world-atlas, keyed by ISO
 * 3166-1 numeric code) against the UN/LOCODE's alpha-2 country. The alpha-2 → polygon key table
 * is not typed in: each alpha-2 code takes the polygon key that most GeoNames places of that
 * country lie in (overseas departments thus join France, as Natural Earth draws them).
 * A point 1:50m leaves out is tried on the same country's 1:10m polygons, which draw the small
 * islands 1:50m lacks (Lipari, Helgoland, Aitutaki); a country neither scale draws is checked
 * against its GeoNames places instead.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { feature } from "topojson-client";
import type { Topology, GeometryCollection } from "topojson-specification";
import type { Feature, MultiPolygon, Polygon } from "geojson";
import { LatLng } from "../../engine/types";
import { LandmassIndex, PolygonRings } from "../../engine/routing/overland/landmass-index";
import { CountryRegions } from "../../engine/routing/overland/regions";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import { loadCountryPolygons } from "../../data/inland";

/** Within this distance of its country's land (coast or border), a position counts as in it. */
export const COUNTRY_MARGIN_KM = 25;
/** For countries without a polygon: this close to one of its GeoNames places. */
const PLACE_MARGIN_KM = 50;
/**
 * Land the list gives to a country that Natural Earth 1:50m draws apart: a country's own polygon
 * key (`country`, learnt from GeoNames places as keyOf), a polygon key of its own (`key`), or the
 * one polygon of a key that holds a point (`key` + `at`). The list's own country stands:
 * - Åland (AX) is FI-01, and the list's FI codes of subdivision 01 (Mariehamn, Långnäs, Eckerö, …)
 *   lie on the land Natural Earth draws as Åland's;
 * - Crimea's codes are listed under UA (Sevastopol, Kerch, Yalta, Feodosiya, …), on the polygon
 *   1:50m puts in Russia's (the one holding Simferopol);
 * - Somaliland's (Berbera, Hargeisa) under SO, on the polygon 1:50m names Somaliland.
 */
interface TerritoryPart {
  country?: string;
  key?: string;
  at?: LatLng;
}
const TERRITORIES_OF: Readonly<Record<string, readonly TerritoryPart[]>> = {
  FI: [{ country: "AX" }],
  UA: [{ key: "643", at: { lat: 44.95, lng: 34.1 } }],
  SO: [{ key: "SOMALILAND" }],
};

export interface CountryPlace extends LatLng {
  country: string;
}

export class CountryLand {
  private readonly byKey = new Map<string, LandmassIndex>();
  private readonly ringsByKey: Map<string, PolygonRings[]>;
  /** TERRITORIES_OF's polygons picked by key (and point), built on first use. */
  private readonly parts = new Map<string, LandmassIndex | undefined>();
  /** alpha-2 → polygon key (ISO numeric as world-atlas writes it). */
  readonly keyOf = new Map<string, string>();
  private readonly placesOf = new Map<string, LatLng[]>();
  /** 1:10m polygons by key, read on the first point 1:50m leaves out. */
  private fine?: Map<string, PolygonRings[]>;
  private readonly fineIndex = new Map<string, LandmassIndex>();
  /** alpha-2 → 1:10m key, for countries 1:50m does not draw. */
  private fineKeyOf?: Map<string, string>;

  constructor(places: readonly CountryPlace[]) {
    const polygons = loadCountryPolygons();
    const grouped = new Map<string, PolygonRings[]>();
    for (const p of polygons) {
      const list = grouped.get(p.country);
      if (list) list.push(p.rings);
      else grouped.set(p.country, [p.rings]);
    }
    this.ringsByKey = grouped;
    for (const [key, rings] of grouped)
      this.byKey.set(key, new LandmassIndex(rings, { snapMeters: COUNTRY_MARGIN_KM * 1000 }));
    const regions = new CountryRegions(polygons, 0);
    const votes = new Map<string, Map<string, number>>();
    for (const place of places) {
      let list = this.placesOf.get(place.country);
      if (!list) this.placesOf.set(place.country, (list = []));
      list.push(place);
      const key = regions.countryOf(place);
      if (key === null) continue;
      let v = votes.get(place.country);
      if (!v) votes.set(place.country, (v = new Map()));
      v.set(key, (v.get(key) ?? 0) + 1);
    }
    for (const [alpha2, v] of votes) {
      const total = this.placesOf.get(alpha2)!.length;
      const [key, n] = [...v].sort((a, b) => b[1] - a[1])[0];
      // Most of a country's places must agree, else its polygon is someone else's (a tiny
      // territory whose few places lie on a neighbour's coastline polygon).
      if (n >= 0.5 * total) this.keyOf.set(alpha2, key);
    }
  }

  /**
   * True when `p` lies in `country` (alpha-2) or within the margin of it (1:50m, else 1:10m), or
   * in a territory listed under it (TERRITORIES_OF).
   */
  contains(country: string, p: LatLng): boolean {
    return (
      this.containsOwn(country, p) ||
      (TERRITORIES_OF[country] ?? []).some((part) =>
        part.country !== undefined
          ? this.containsOwn(part.country, p)
          : this.partLand(part)?.landmassOf(p) != null
      )
    );
  }

  /** A territory's polygons (with the margin), or undefined when 1:50m has no such polygon. */
  private partLand(part: TerritoryPart): LandmassIndex | undefined {
    const id = `${part.key}|${part.at?.lat},${part.at?.lng}`;
    if (this.parts.has(id)) return this.parts.get(id);
    let rings = this.ringsByKey.get(part.key ?? "");
    if (rings && part.at) {
      const i = new LandmassIndex(rings, { snapMeters: 0 }).landmassOf(part.at);
      rings = i === null ? undefined : [rings[i]];
    }
    const index = rings && new LandmassIndex(rings, { snapMeters: COUNTRY_MARGIN_KM * 1000 });
    this.parts.set(id, index);
    return index;
  }

  private containsOwn(country: string, p: LatLng): boolean {
    const key = this.keyOf.get(country);
    const index = key === undefined ? undefined : this.byKey.get(key);
    if (index?.landmassOf(p) != null) return true;
    const fineKey = key ?? this.fineKeys().get(country);
    if (fineKey !== undefined) return this.fineLand(fineKey)?.landmassOf(p) != null;
    const places = this.placesOf.get(country);
    // A country GeoNames has no place of cannot be checked: taken as it is.
    if (!places?.length) return true;
    return places.some(
      (q) => fastGeodesicMeters(p.lat, p.lng, q.lat, q.lng) <= PLACE_MARGIN_KM * 1000
    );
  }

  /** The country's 1:10m land (within the margin), or undefined when 1:10m has no such key. */
  private fineLand(key: string): LandmassIndex | undefined {
    let index = this.fineIndex.get(key);
    if (!index) {
      const rings = this.finePolygons().get(key);
      if (!rings) return undefined;
      index = new LandmassIndex(rings, { snapMeters: COUNTRY_MARGIN_KM * 1000 });
      this.fineIndex.set(key, index);
    }
    return index;
  }

  private finePolygons(): Map<string, PolygonRings[]> {
    if (this.fine) return this.fine;
    const file = require.resolve("world-atlas/countries-10m.json", {
      paths: [path.resolve(__dirname, "..", "..", "..")],
    });
    const topo = JSON.parse(fs.readFileSync(file, "utf8")) as Topology<{
      countries: GeometryCollection<{ name: string }>;
    }>;
    const fc = feature(topo, topo.objects.countries);
    this.fine = new Map();
    for (const f of fc.features as Feature<Polygon | MultiPolygon | null, { name: string }>[]) {
      const g = f.geometry;
      if (!g) continue;
      const key = f.id !== undefined ? String(f.id) : (f.properties?.name ?? "").toUpperCase();
      const list = this.fine.get(key) ?? [];
      if (g.type === "Polygon") list.push(g.coordinates as unknown as PolygonRings);
      else for (const poly of g.coordinates) list.push(poly as unknown as PolygonRings);
      this.fine.set(key, list);
    }
    return this.fine;
  }

  /**
   * For the countries 1:50m does not draw: the 1:10m key (of those 1:50m lacks) that most of the
   * country's GeoNames places lie in, learnt like keyOf.
   */
  private fineKeys(): Map<string, string> {
    if (this.fineKeyOf) return this.fineKeyOf;
    this.fineKeyOf = new Map();
    const fine = this.finePolygons();
    const candidates = [...fine.keys()].filter((k) => !this.byKey.has(k));
    for (const [alpha2, places] of this.placesOf) {
      if (this.keyOf.has(alpha2)) continue;
      let best: [string, number] | undefined;
      for (const key of candidates) {
        const index = this.fineLand(key)!;
        const n = places.filter((q) => index.landmassOf(q) !== null).length;
        if (n > (best?.[1] ?? 0)) best = [key, n];
      }
      if (best && best[1] >= 0.5 * places.length) this.fineKeyOf.set(alpha2, best[0]);
    }
    return this.fineKeyOf;
  }
}
