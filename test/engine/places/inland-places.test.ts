/**
 * data/inland-places.csv: every row is a well-formed place on land, inside the country its code
 * names (Natural Earth 1:50m countries), routable by code and found by name.
 */
import * as path from "path";
import { DATA_ROOT, loadPlaces, readInlandPlaces } from "../../../src/data/places";
import { loadCountryPolygons } from "../../../src/data/inland";
import { CountryRegions } from "../../../src/engine/routing/overland/regions";

// ISO 3166-1 alpha-2 → numeric (the ids of world-atlas' country polygons), for the countries here.
const NUMERIC: Record<string, string> = {
  AF: "004",
  AL: "008",
  AM: "051",
  AR: "032",
  AT: "040",
  AU: "036",
  BA: "070",
  BE: "056",
  BF: "854",
  BG: "100",
  BO: "068",
  BR: "076",
  BT: "064",
  BW: "072",
  BY: "112",
  CA: "124",
  CD: "180",
  CF: "140",
  CH: "756",
  CL: "152",
  CM: "120",
  CN: "156",
  CO: "170",
  CZ: "203",
  DE: "276",
  EC: "218",
  EG: "818",
  ES: "724",
  ET: "231",
  FR: "250",
  GB: "826",
  GE: "268",
  HR: "191",
  HU: "348",
  ID: "360",
  IN: "356",
  IQ: "368",
  IR: "364",
  IT: "380",
  JO: "400",
  KE: "404",
  KG: "417",
  KZ: "398",
  LA: "418",
  LT: "440",
  LU: "442",
  MA: "504",
  MD: "498",
  MK: "807",
  ML: "466",
  MM: "104",
  MN: "496",
  MW: "454",
  MX: "484",
  MY: "458",
  NE: "562",
  NG: "566",
  NL: "528",
  NP: "524",
  PE: "604",
  PK: "586",
  PL: "616",
  RO: "642",
  RU: "643",
  RW: "646",
  SA: "682",
  SD: "729",
  SI: "705",
  SK: "703",
  SS: "728",
  SY: "760",
  TD: "148",
  TH: "764",
  TJ: "762",
  TM: "795",
  TR: "792",
  TZ: "834",
  UA: "804",
  UG: "800",
  US: "840",
  UZ: "860",
  VE: "862",
  VN: "704",
  ZA: "710",
  ZM: "894",
  ZW: "716",
};

const rows = readInlandPlaces(path.join(DATA_ROOT, "inland-places.csv"));
const places = loadPlaces();

test("has the inland places lane sheets use, each code once", () => {
  expect(rows.length).toBeGreaterThanOrEqual(250);
  const codes = rows.map((r) => r.locode);
  expect(new Set(codes).size).toBe(codes.length);
  expect(codes).toEqual(expect.arrayContaining(["INDEL", "CNXIY", "VNHAN"]));
  for (const r of rows) {
    expect(r.source).toMatch(/^https:\/\/en\.wikipedia\.org\/wiki\/\S+ ; code checked/);
    expect(r.functions).toMatch(/^[0-9B-]{8}$/);
  }
});

test("every place lies in the country its code names (within 10 km: 1:50m borders are coarse)", () => {
  const countries = new CountryRegions(loadCountryPolygons());
  const around = (lat: number, lng: number) =>
    [
      [0, 0],
      [0.09, 0],
      [-0.09, 0],
      [0, 0.12],
      [0, -0.12],
    ].map(([dy, dx]) => countries.countryOf({ lat: lat + dy, lng: lng + dx }));
  const wrong = rows
    .map((r) => ({
      code: r.locode,
      want: NUMERIC[r.locode.slice(0, 2)],
      got: around(r.lat!, r.lng!),
    }))
    .filter((x) => x.want === undefined || !x.got.includes(x.want));
  expect(wrong).toEqual([]);
});

test("every place resolves by its code and is found first by its name", () => {
  for (const r of rows) {
    const resolved = places.resolver.resolve(r.locode, "origin");
    expect(resolved).toMatchObject({ locode: r.locode, lat: r.lat, lng: r.lng });
    const byName = places.finder.search(r.name, 20);
    expect({
      name: r.name,
      found: byName.some((m) => m.locode === r.locode && m.match === "exact"),
    }).toEqual({ name: r.name, found: true });
  }
});
