import fc from "fast-check";
import { flattenPolygons, PolygonRings } from "../../../src/engine/geo/flat-polygons";
import { LandmassIndex } from "../../../src/engine/routing/overland/landmass-index";
import {
  buildLandmassRaster,
  rasterLandmass,
} from "../../../src/engine/routing/overland/landmass-raster";
import { loadCountryPolygons, loadLandmasses, loadOverlandRouter } from "../../../src/data/inland";
import { CountryRegions } from "../../../src/engine/routing/overland/regions";
import { picksArb, pickPoint, star, starShapeArb } from "../../support/star-worlds";

describe("landmass raster", () => {
  it("answers as the exact test wherever it answers (random polygons, holes, overlaps, one cut at ±180°)", () => {
    fc.assert(
      fc.property(
        fc.array(starShapeArb(24), { minLength: 1, maxLength: 6 }),
        fc.constantFrom(0, 20_000, 150_000),
        picksArb,
        (shapes, snapMeters, picks) => {
          const polygons: PolygonRings[] = shapes.map((s) => {
            const outer = star(s.lat, s.lng, s.r, s.radii);
            return s.hole ? [outer, star(s.lat, s.lng, s.r / 4, [1, 1, 1, 1])] : [outer];
          });
          // A ring cut at the antimeridian, as Natural Earth cuts Chukotka and Fiji.
          polygons.push([
            [
              [178, 10],
              [180, 10],
              [-178, 10],
              [-178, 12],
              [180, 12],
              [178, 12],
              [178, 10],
            ],
          ]);
          const flat = flattenPolygons(polygons);
          const plain = new LandmassIndex(flat, { snapMeters, cacheSize: 0 });
          const raster = buildLandmassRaster(plain, 0.5);
          const fast = new LandmassIndex(flat, { snapMeters, raster, cacheSize: 0 });
          let answered = 0;
          for (const pick of picks) {
            // Near a polygon (within twice its radius) or anywhere near the cut.
            const p = pickPoint(shapes, pick, 6);
            const known = rasterLandmass(raster, p.lat, p.lng);
            if (known !== undefined) answered++;
            expect(fast.landmassOf(p)).toBe(plain.landmassOf(p));
          }
          return answered >= 0;
        }
      ),
      { numRuns: 40, seed: 29 }
    );
  });

  it("answers as the exact test on the shipped land, and answers most points itself", () => {
    const land = loadLandmasses();
    const plain = new LandmassIndex(land.flat, { snapMeters: land.snapMeters, cacheSize: 0 });
    let seed = 7;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const { coords } = land.flat;
    let answered = 0;
    const n = 1200;
    for (let i = 0; i < n; i++) {
      // Half anywhere, half within ~30 km of a coast point (where the raster is hardest).
      const k = Math.floor(random() * (coords.length / 2));
      const p =
        i % 2
          ? { lat: random() * 170 - 85, lng: random() * 360 - 180 }
          : {
              lat: coords[2 * k + 1] + (random() - 0.5) * 0.5,
              lng: coords[2 * k] + (random() - 0.5) * 0.5,
            };
      const expected = plain.landmassOf(p);
      const known = rasterLandmass(land.raster!, p.lat, p.lng);
      if (known !== undefined) {
        answered++;
        expect({ p, answer: known }).toEqual({ p, answer: expected });
      }
      expect(land.landmassOf(p)).toBe(expected);
    }
    // Measured: about 75 % of these points (half of them on coasts) need no exact test.
    expect(answered / n).toBeGreaterThan(0.7);
  });

  it("tests long rings through latitude bands with the answers of the full loops", () => {
    const land = loadLandmasses();
    let seed = 11;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const { coords } = land.flat;
    for (const snapMeters of [0, 20_000, 150_000]) {
      const full = new LandmassIndex(land.flat, {
        snapMeters,
        cacheSize: 0,
        bandedPoints: Infinity,
      });
      const banded = new LandmassIndex(land.flat, { snapMeters, cacheSize: 0 });
      let onLand = 0;
      for (let i = 0; i < 400; i++) {
        const k = Math.floor(random() * (coords.length / 2));
        const p = {
          lat: coords[2 * k + 1] + (random() - 0.5) * 0.6,
          lng: coords[2 * k] + (random() - 0.5) * 0.6,
        };
        const expected = full.landmassOf(p);
        if (expected !== null) onLand++;
        expect({ p, answer: banded.landmassOf(p) }).toEqual({ p, answer: expected });
      }
      expect(onLand).toBeGreaterThan(100);
    }
  });

  it("gives the overland router the exact test's country everywhere (shipped countries, on borders and coasts)", () => {
    // The router's countries answer from their raster snapshot; the reference has none. South of
    // 60° S the exact containment test fails inside Natural Earth's Antarctica country ring (only
    // its 20 km coastal band answers Antarctica, the inland answers none), which breaks the grid's
    // premise that a point inside a polygon is in it; no trip needs a country there.
    const { countryOf } = loadOverlandRouter({ landNetworks: false }).parts;
    const polygons = loadCountryPolygons();
    const exact = new CountryRegions(polygons);
    const points = polygons.flatMap((c) => c.rings[0]);
    let seed = 13;
    const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    let inCountry = 0;
    for (let i = 0; i < 1500; i++) {
      // Half anywhere, half within ~30 km of a border or coast point.
      const [lng, lat] = points[Math.floor(random() * points.length)];
      const p =
        i % 2
          ? { lat: random() * 145 - 60, lng: random() * 360 - 180 }
          : { lat: lat + (random() - 0.5) * 0.5, lng: lng + (random() - 0.5) * 0.5 };
      if (p.lat < -60) continue;
      const expected = exact.countryOf(p);
      if (expected !== null) inCountry++;
      expect({ p, country: countryOf!(p) }).toEqual({ p, country: expected });
    }
    expect(inCountry).toBeGreaterThan(600);
  });
});
