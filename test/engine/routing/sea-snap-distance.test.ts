/** snapDistance: how far each end of a sea route was moved onto the network (engine and /path). */
import { loadEngine } from "../../../src/data/load-engine";
import { loadSeaRouter } from "../../../src/data/sea";
import { DEFAULT_CLOSED } from "../../../src/engine/routing/vessels";
import { pathFeature } from "../../../src/service/path-geojson";

const engine = loadEngine();
const router = loadSeaRouter();
const closed = new Set(DEFAULT_CLOSED);

describe("snapDistance", () => {
  it("is 0 at both ends of a route that runs straight across open water", () => {
    // Mid-Atlantic to mid-Atlantic: the great circle is the route.
    const r = engine.distance({
      origin: "40,-40",
      destination: "30,-30",
      modality: "DEEPSEA",
    });
    expect(r.snapDistance).toEqual({ origin: 0, destination: 0 });
  });

  it("counts the move of a LOCODE inside land to its port's water, and swaps with the direction", () => {
    // Plymouth's LOCODE (50.40N 4.12W, the town) lies inside 1:50m land, 4 km from the Sound.
    const plymouth = engine.distance({
      origin: "GBPLY",
      destination: "CNSHA",
      modality: "DEEPSEA",
    });
    const back = engine.distance({ origin: "CNSHA", destination: "GBPLY", modality: "DEEPSEA" });
    expect(plymouth.snapDistance!.origin).toBeGreaterThan(3_000);
    expect(plymouth.snapDistance!.origin).toBeLessThan(40_000);
    expect(back.snapDistance).toEqual({
      origin: plymouth.snapDistance!.destination,
      destination: plymouth.snapDistance!.origin,
    });
    expect(back.distance).toBe(plymouth.distance);
  });

  it("route-sheets data resolve's figure: to water, then to the nearest network line", () => {
    const onLand = { lat: 50.4, lng: -4.12 };
    const water = router.snapDistance(onLand, closed)!;
    const moved = router.snapDistance({ lat: 50.3, lng: -4.3 }, closed)!;
    expect(water).toBeGreaterThan(3_000);
    expect(water).toBeLessThan(40_000);
    // A point at sea is not moved to water first: only to its nearest line.
    expect(moved).toBeCloseTo(router.snap({ lat: 50.3, lng: -4.3 }, closed)!.offset, 6);
  });

  it("is in the /path Feature's properties", () => {
    const r = engine.distance({ origin: "GBPLY", destination: "CNSHA", modality: "DEEPSEA" });
    expect(pathFeature(r, "DEEPSEA").properties.snapDistance).toEqual(r.snapDistance);
  });
});
