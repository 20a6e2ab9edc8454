/**
 * Flat polygons: the nested form survives the round trip, concatenation keeps every polygon, and
 * the landmass index answers the same for nested and flat input on Natural Earth land.
 */
import {
  concatFlatPolygons,
  flattenPolygons,
  polygonCount,
  PolygonRings,
  ringContainsFlat,
  unflattenPolygons,
} from "../../../src/engine/geo/flat-polygons";
import { LandmassIndex } from "../../../src/engine/routing/overland/landmass-index";
import { loadLandPolygons } from "../../../src/data/inland";

const square = (x: number, y: number, size: number): Array<[number, number]> => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const withHole: PolygonRings = [square(0, 0, 10), square(4, 4, 2)];
const island: PolygonRings = [square(20, 20, 1)];

describe("flat polygons", () => {
  it("round-trips the nested form", () => {
    const flat = flattenPolygons([withHole, island]);
    expect(polygonCount(flat)).toBe(2);
    expect(Array.from(flat.ringStart)).toEqual([0, 5, 10, 15]);
    expect(Array.from(flat.polygonStart)).toEqual([0, 2, 3]);
    expect(unflattenPolygons(flat)).toEqual([withHole, island]);
  });

  it("concatenates two lists, offsets shifted", () => {
    const both = concatFlatPolygons(flattenPolygons([withHole]), flattenPolygons([island]));
    expect(both).toEqual(flattenPolygons([withHole, island]));
    expect(concatFlatPolygons(flattenPolygons([island]), flattenPolygons([]))).toEqual(
      flattenPolygons([island])
    );
  });

  it("tests points against a ring", () => {
    const { coords, ringStart } = flattenPolygons([withHole]);
    expect(ringContainsFlat(coords, ringStart[0], ringStart[1], 1, 1)).toBe(true);
    expect(ringContainsFlat(coords, ringStart[0], ringStart[1], 11, 1)).toBe(false);
    expect(ringContainsFlat(coords, ringStart[1], ringStart[2], 5, 5)).toBe(true);
  });

  it("gives the landmass index the same answers as the nested polygons", () => {
    const land = loadLandPolygons();
    const nested = new LandmassIndex(land, { snapMeters: 20_000 });
    const flat = new LandmassIndex(flattenPolygons(land), { snapMeters: 20_000 });
    expect(flat.size).toBe(land.length);
    const points = [
      { lat: 51.95, lng: 4.05 }, // Maasvlakte, just off the 1:50m coast
      { lat: 48.86, lng: 2.35 }, // Paris
      { lat: 40.7, lng: -74.0 }, // New York harbour
      { lat: -33.9, lng: 18.4 }, // Cape Town
      { lat: 0, lng: -30 }, // mid-Atlantic
      { lat: 1.26, lng: 103.8 }, // Singapore
    ];
    const answers = points.map((p) => flat.landmassOf(p));
    expect(answers).toEqual(points.map((p) => nested.landmassOf(p)));
    expect(answers[4]).toBeNull();
    expect(answers[1]).toBe(answers[0]); // Rotterdam's coast and Paris: one landmass
  });
});
