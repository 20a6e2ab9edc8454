/**
 * Issue 28 (towns): names of towns that are not UN/LOCODE entries resolve through the towns
 * gazetteer (data/places-towns.csv) as a last resort, to their position under their name, with
 * the same ambiguity rules; coded names answer as before.
 */
import fc from "fast-check";
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadEngine } from "../../../src/data/load-engine";
import { DATA_ROOT, loadPlaces } from "../../../src/data/places";
import { readTowns, SHIPPED_TOWNS, TownIndex, withTowns } from "../../../src/data/places-towns";
import { chooseByName, PlaceMatch, resolvePlaceName } from "../../../src/engine/places";
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";
import { foldedTokens } from "../../../src/engine/places/text-fold";

const { finder } = loadPlaces();
const towns = readTowns();
const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) / 1000;

describe("the towns a lane sheet named", () => {
  // GeoNames' positions (geonameid 1241622, 913029, 2454530, 104515, 3939459) and a city nearby.
  test.each([
    ["Kandy", "LK", 7.2906, 80.6336, "LKCMB", 100, 200],
    ["Kapiri Mposhi", "ZM", -13.97147, 28.66985, "ZMLUN", 150, 300],
    ["Koulikoro", "ML", 12.86273, -7.55985, "MLBKO", 50, 120],
    ["Mecca", "SA", 21.42664, 39.82563, "SAJED", 65, 150],
    ["Huancayo", "PE", -12.06513, -75.20486, "PELIM", 200, 450],
  ])(
    "%s (%s) resolves to its position and routes by TRUCK to a city nearby",
    (name, country, lat, lng, near, min, max) => {
      const place = resolvePlaceName(finder, name, "origin");
      expect(place).toMatchObject({ kind: "GEO", name });
      expect(km(place, { lat, lng })).toBeLessThan(25);
      expect(finder.search(name, 5)[0]).toMatchObject({ country, locode: "", match: "exact" });
      const r = loadEngine().distance({
        origin: `${place.lat},${place.lng}`,
        destination: near,
        modality: "TRUCK",
      });
      expect(r.distance / 1000).toBeGreaterThan(min);
      expect(r.distance / 1000).toBeLessThan(max);
    }
  );

  test.each(["Hasan Abdal", "Hassan Abdal", "Hassanabdal"])(
    "%s is the town (PKHSN, data/inland-places.csv), not the village GeoNames gives that name 380 km off",
    (name) => {
      const choice = chooseByName(name, finder.search(name, 5));
      expect(choice).toMatchObject({ kind: "one", match: { locode: "PKHSN" } });
      // The town's infobox position (33°49′18″N 72°40′59″E); the village is at 30.42, 72.70.
      expect(
        km(choice.kind === "one" ? choice.match : { lat: 0, lng: 0 }, {
          lat: 33.8218,
          lng: 72.6831,
        })
      ).toBeLessThan(5);
    }
  );

  test.each(["Bandar Torkaman", "Bandar-e Torkaman", "bandar e torkaman"])(
    "%s: a county seat GeoNames gives no population (geonameid 141653) is a town, ezafe or not",
    (name) => {
      const choice = chooseByName(name, finder.search(name, 5));
      expect(choice).toMatchObject({
        kind: "one",
        match: { name: "Bandar-e Torkaman", country: "IR" },
      });
      expect(
        km(choice.kind === "one" ? choice.match : { lat: 0, lng: 0 }, {
          lat: 36.90124,
          lng: 54.07195,
        })
      ).toBeLessThan(1);
    }
  );

  test("towns without a population are seats of divisions only", () => {
    const raw = parse(fs.readFileSync(SHIPPED_TOWNS), { columns: true }) as Record<
      string,
      string
    >[];
    const unknown = raw.filter((t) => Number(t.population) === 0);
    // 4,941 seats (PPLA, PPLA2, PPLC of GeoNames' cities500) at this build; every other town 15,000+.
    expect(unknown.length).toBe(4_941);
    expect(raw.filter((t) => Number(t.population) > 0 && Number(t.population) < 15_000)).toEqual(
      []
    );
  });

  test("namesake towns of one country are ambiguous, listed with their regions", () => {
    const choice = chooseByName("Lakewood", finder.search("Lakewood", 5));
    expect(choice.kind).toBe("ambiguous");
    expect(choice.kind !== "one" && choice.problem).toMatch(
      /^Lakewood: Lakewood \(Colorado\), Lakewood \(California\)/
    );
  });
});

describe("coded names answer as before", () => {
  test.each([
    ["Rotterdam", "NLRTM"],
    ["Duisburg", "DEDUI"],
    ["Antwerpen", "BEANR"],
  ])("%s is %s", (name, code) => {
    expect(resolvePlaceName(finder, name, "origin")).toMatchObject({
      kind: "LOCODE",
      locode: code,
    });
  });

  test("Portland is still USPDX or USPWM", () => {
    const choice = chooseByName("Portland", finder.search("Portland", 5));
    expect(choice.kind !== "one" && choice.problem).toBe(
      "Portland: USPDX (Oregon) or USPWM (Maine)"
    );
  });

  test("the towns are asked only when the places have no exact match", () => {
    const exact = { match: "exact", locode: "NLRTM" } as PlaceMatch;
    const fuzzy = { match: "fuzzy", locode: "BJKDC" } as PlaceMatch;
    const index = new TownIndex([
      { name: "Kandy", country: "LK", region: "", lat: 7.29, lng: 80.63, population: 1 },
    ]);
    let asked = 0;
    const townsOnce = () => (asked++, index);
    expect(withTowns(() => [exact], townsOnce)("Kandy", 5)).toEqual([exact]);
    expect(asked).toBe(0);
    const mixed = withTowns(() => [fuzzy], townsOnce)("Kandy", 5);
    expect(mixed.map((m) => [m.locode, m.match])).toEqual([
      ["", "exact"],
      ["BJKDC", "fuzzy"],
    ]);
    expect(withTowns(() => [fuzzy], townsOnce)("Kandyx", 5)).toEqual([fuzzy]);
  });
});

describe("data/places-towns.csv", () => {
  const rows = parse(fs.readFileSync(SHIPPED_TOWNS, "utf8"), { columns: true }) as Record<
    string,
    string
  >[];
  const coded = new Map<string, { lat: number; lng: number }[]>();
  const unlocode = parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode.csv"), "utf8"), {
    columns: true,
  }) as Record<string, string>[];
  for (const r of unlocode) {
    if (!r.lat) continue;
    const key = `${r.locode.slice(0, 2)}|${foldedTokens(r.name).join(" ")}`;
    coded.set(key, [...(coded.get(key) ?? []), { lat: Number(r.lat), lng: Number(r.lng) }]);
  }

  test("GeoNames towns of 15,000+ (or seats without a population) that no UN/LOCODE place of the same name within 30 km covers", () => {
    expect(rows.length).toBeGreaterThan(15_000);
    const wrong = rows.filter((r) => {
      const at = { lat: Number(r.lat), lng: Number(r.lng) };
      const twins = coded.get(`${r.country}|${foldedTokens(r.name).join(" ")}`) ?? [];
      return (
        r.source !== "GeoNames cities500" ||
        !(Number(r.population) >= 15_000 || Number(r.population) === 0) ||
        twins.some((p) => km(p, at) < 30)
      );
    });
    expect(wrong).toEqual([]);
  });

  test("property: a random town's own name resolves to it, lists it, or is a coded or larger place's", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: towns.length - 1 }), (i) => {
        const town = towns[i];
        const results = finder.search(town.name, 20);
        const choice = chooseByName(town.name, results);
        const here = (m: PlaceMatch) => m.country === town.country && km(m, town) < 30;
        if (choice.kind === "ambiguous")
          return choice.candidates.some(here) || choice.candidates[0].locode !== "";
        expect(choice.kind).toBe("one");
        if (choice.kind !== "one") return false;
        const m = choice.match;
        return here(m) || m.locode !== "" || (m.population ?? 0) >= town.population;
      }),
      { numRuns: 300, seed: 28 }
    );
  });
});
