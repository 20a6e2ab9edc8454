/**
 * Circuity region of a point, from the country it lies in (Natural Earth admin-0 polygons, keyed by
 * ISO 3166-1 numeric code). The grouping is a definition of this project, not a published fact.
 */
import { LatLng } from "../../types";
import { CircuityRegion } from "./circuity";
import type { FlatPolygons } from "../../geo/flat-polygons";
import { LandmassIndex, PolygonRings } from "./landmass-index";
import type { LandmassRaster } from "./landmass-raster";

const EUROPE = [
  "008",
  "020",
  "040",
  "056",
  "070",
  "100",
  "112",
  "191",
  "196",
  "203",
  "208",
  "233",
  "234",
  "246",
  "248",
  "250",
  "276",
  "300",
  "336",
  "348",
  "352",
  "372",
  "380",
  "428",
  "438",
  "440",
  "442",
  "470",
  "492",
  "498",
  "499",
  "528",
  "578",
  "616",
  "620",
  "642",
  "643",
  "674",
  "688",
  "703",
  "705",
  "724",
  "752",
  "756",
  "804",
  "807",
  "826",
  "831",
  "832",
  "833",
  "KOSOVO",
];
const NORTH_AMERICA = ["124", "484", "840"];
const CHINA = ["156", "344", "446"];
const ASIA_OTHER = [
  "004",
  "031",
  "048",
  "050",
  "051",
  "064",
  "096",
  "104",
  "116",
  "144",
  "158",
  "268",
  "275",
  "356",
  "360",
  "364",
  "368",
  "376",
  "392",
  "398",
  "400",
  "408",
  "410",
  "414",
  "417",
  "418",
  "422",
  "458",
  "462",
  "496",
  "512",
  "524",
  "586",
  "608",
  "626",
  "634",
  "682",
  "702",
  "704",
  "760",
  "762",
  "764",
  "784",
  "792",
  "795",
  "860",
  "887",
];

const REGION_OF_COUNTRY = new Map<string, CircuityRegion>([
  ...EUROPE.map((c) => [c, "EUROPE"] as const),
  ...NORTH_AMERICA.map((c) => [c, "NORTH_AMERICA"] as const),
  ...CHINA.map((c) => [c, "CHINA"] as const),
  ...ASIA_OTHER.map((c) => [c, "ASIA_OTHER"] as const),
]);

export interface CountryPolygon {
  /** ISO 3166-1 numeric code, or an upper-case name for polygons without one (e.g. KOSOVO). */
  country: string;
  rings: PolygonRings;
}

export class CountryRegions {
  private readonly index: LandmassIndex;
  private readonly owners: readonly string[];

  /**
   * Country polygons nested, or flat with one country per polygon (as a snapshot holds them), with
   * the index's answers on a grid (landmass-raster.ts, built from the same polygons and snap
   * radius): most look-ups are then one search in a row instead of point-in-polygon tests.
   */
  constructor(
    polygons:
      | ReadonlyArray<CountryPolygon>
      | { flat: FlatPolygons; countries: readonly string[]; raster?: LandmassRaster },
    snapMeters = 20_000
  ) {
    if (Array.isArray(polygons)) {
      const list = polygons as ReadonlyArray<CountryPolygon>;
      this.index = new LandmassIndex(
        list.map((p) => p.rings),
        { snapMeters }
      );
      this.owners = list.map((p) => p.country);
    } else {
      const { flat, countries, raster } = polygons as {
        flat: FlatPolygons;
        countries: readonly string[];
        raster?: LandmassRaster;
      };
      this.index = new LandmassIndex(flat, { snapMeters, raster });
      this.owners = countries;
    }
  }

  countryOf(p: LatLng): string | null {
    const i = this.index.landmassOf(p);
    return i === null ? null : this.owners[i];
  }

  regionOf(p: LatLng): CircuityRegion {
    const country = this.countryOf(p);
    return (country && REGION_OF_COUNTRY.get(country)) || "DEFAULT";
  }
}
