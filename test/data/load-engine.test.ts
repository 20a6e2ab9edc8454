/** loadEngine: the barge and RAIL/TRUCK routers stand in until first used, then answer as built. */
import { loadBargeRouter, loadOverlandRouter } from "../../src/data/inland";
import { loadEngine, onFirstUse } from "../../src/data/load-engine";
import { loadPlaces } from "../../src/data/places";

describe("onFirstUse", () => {
  it("builds once, at the first member access, with methods bound to the built object", () => {
    let builds = 0;
    class Counter {
      n = 2;
      twice(): number {
        return this.n * 2;
      }
    }
    const lazy = onFirstUse(() => {
      builds++;
      return new Counter();
    });
    expect(builds).toBe(0);
    const twice = lazy.twice;
    expect(builds).toBe(1);
    expect(twice()).toBe(4);
    expect(lazy.n).toBe(2);
    expect("twice" in lazy).toBe(true);
    expect(lazy).toBeInstanceOf(Counter);
    expect(builds).toBe(1);
  });
});

describe("the loaded engine", () => {
  const engine = loadEngine();
  const { resolver } = loadPlaces();
  const at = (locode: string) => resolver.resolve(locode, "origin");
  // The stand-ins answer what the routers built directly answer.
  const lanes: Array<[string, string, "BARGE" | "RAIL" | "TRUCK"]> = [
    ["NLRTM", "DEDUI", "BARGE"],
    ["NLRTM", "CHBSL", "BARGE"],
    ["DEHAM", "ITMIL", "RAIL"],
    ["NLRTM", "ATVIE", "TRUCK"],
    ["GBFXT", "NLRTM", "TRUCK"],
  ];
  const barge = loadBargeRouter();
  const overland = loadOverlandRouter();
  it.each(lanes)("%s → %s by %s: as the router built directly", (origin, destination, modality) => {
    const direct =
      modality === "BARGE"
        ? barge.route(at(origin), at(destination))
        : overland.route(at(origin), at(destination), modality);
    expect(direct).not.toBeNull();
    expect(engine.distance({ origin, destination, modality }).distance).toBe(
      Math.round(direct!.meters)
    );
  });
});
