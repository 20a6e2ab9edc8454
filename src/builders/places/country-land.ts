/**
 * Is a point in its country? Natural Earth 1:50m admin-0 polygons (npm world-atlas, keyed by ISO
 * 3166-1 numeric code) against the UN/LOCODE's alpha-2 country. The alpha-2 → polygon key table
 * is not typed in: each alpha-2 code takes the polygon key that most GeoNames places of that
 * country lie in (overseas departments thus join France, as Natural Earth draws them).
 * Countries Natural Earth does not draw at 1:50m (small islands) are checked against their
 * GeoNames places instead.
 */
import { LatLng } from "../../engine/types";
import { LandmassIndex, PolygonRings } from "../../engine/routing/overland/landmass-index";
import { CountryRegions } from "../../engine/routing/overland/regions";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import { loadCountryPolygons } from "../../data/inland";

/** Within this distance of its country's land (coast or border), a position counts as in it. */
export const COUNTRY_MARGIN_KM = 25;
/** For countries without a polygon: this close to one of its GeoNames places. */
const PLACE_MARGIN_KM = 50;

export interface CountryPlace extends LatLng {
  country: string;
}

export class CountryLand {
  private readonly byKey = new Map<string, LandmassIndex>();
  /** alpha-2 → polygon key (ISO numeric as world-atlas writes it). */
  readonly keyOf = new Map<string, string>();
  private readonly placesOf = new Map<string, LatLng[]>();

  constructor(places: readonly CountryPlace[]) {
    const polygons = loadCountryPolygons();
    const grouped = new Map<string, PolygonRings[]>();
    for (const p of polygons) {
      const list = grouped.get(p.country);
      if (list) list.push(p.rings);
      else grouped.set(p.country, [p.rings]);
    }
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

  /** True when `p` lies in `country` (alpha-2) or within the margin of it. */
  contains(country: string, p: LatLng): boolean {
    const key = this.keyOf.get(country);
    const index = key === undefined ? undefined : this.byKey.get(key);
    if (index) return index.landmassOf(p) !== null;
    const places = this.placesOf.get(country);
    // A country GeoNames has no place of cannot be checked: taken as it is.
    if (!places?.length) return true;
    return places.some(
      (q) => fastGeodesicMeters(p.lat, p.lng, q.lat, q.lng) <= PLACE_MARGIN_KM * 1000
    );
  }
}
