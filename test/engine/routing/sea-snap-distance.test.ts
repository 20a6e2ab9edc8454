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

  it("is the connector to the network otherwise, at least the nearest snap, and swaps with the direction", () => {
    const plymouth = engine.distance({
      origin: "GBPLY",
      destination: "CNSHA",
      modality: "DEEPSEA",
    });
    const back = engine.distance({ origin: "CNSHA", destination: "GBPLY", modality: "DEEPSEA" });
    const nearest = router.snap({ lat: 50.4, lng: -4.12 }, closed)!.offset;
    expect(plymouth.snapDistance!.origin).toBeGreaterThanOrEqual(Math.round(nearest) - 1);
    expect(plymouth.snapDistance!.origin).toBeGreaterThan(1_000);
    expect(back.snapDistance).toEqual({
      origin: plymouth.snapDistance!.destination,
      destination: plymouth.snapDistance!.origin,
    });
    expect(back.distance).toBe(plymouth.distance);
  });

  it("is in the /path Feature's properties", () => {
    const r = engine.distance({ origin: "GBPLY", destination: "CNSHA", modality: "DEEPSEA" });
    expect(pathFeature(r, "DEEPSEA").properties.snapDistance).toEqual(r.snapDistance);
  });
});
