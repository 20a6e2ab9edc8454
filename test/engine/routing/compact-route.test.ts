/**
 * Cached sea routes keep their path as one typed array and give the same LatLng list on reading,
 * in JSON and in spreads too.
 */
import { compactRoute } from "../../../src/engine/routing/sea/compact-route";
import { loadSeaRouter } from "../../../src/data/sea";
import { Passage } from "../../../src/engine/types";

describe("compact route", () => {
  const route = {
    meters: 1234.5,
    path: [
      { lat: 51.9, lng: 4.1 },
      { lat: 52.5, lng: 3.2 },
      { lat: 53.5, lng: 190.25 },
    ],
    passages: ["DOVER" as Passage],
  };

  it("reads back the same path, once made", () => {
    const c = compactRoute(route);
    expect(c.meters).toBe(1234.5);
    expect(c.passages).toEqual(["DOVER"]);
    expect(c.path).toEqual(route.path);
    expect(c.path).toBe(c.path); // made once
    expect(JSON.parse(JSON.stringify(c))).toEqual(route);
    expect({ ...c }).toEqual(route);
  });

  it("is what the sea router caches: a repeated query gives the same path", () => {
    const router = loadSeaRouter();
    const closed = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);
    const a = router.route({ lat: 51.95, lng: 4.05 }, { lat: 1.26, lng: 103.84 }, { closed })!;
    const b = router.route({ lat: 51.95, lng: 4.05 }, { lat: 1.26, lng: 103.84 }, { closed })!;
    expect(b).toBe(a);
    expect(a.path.length).toBeGreaterThan(20);
    expect(a.path[0]).toEqual({ lat: 51.95, lng: 4.05 });
    expect(a.path[a.path.length - 1]).toEqual({ lat: 1.26, lng: 103.84 });
    expect(a.passages).toContain("SUEZ");
  });
});
