/**
 * The sea router's straight-leg tests as the speed work left them (issue 29.1): the three tests of
 * a straight leg (deep raster land, exact 1:50m land, passage areas) are pure, so the order
 * StraightLegs.isClear runs them in changes no answer; the exact crossing test that stops at the
 * first ring edge agrees with the full measure of land on the leg; the router's snap is the
 * snapper's nearest candidate measured exactly. Random legs (seeded) round the world's coasts,
 * no reference table.
 */
import {
  loadCoastIndex,
  loadSeaRouter,
  loadSnapLand,
  readPassageAreas,
} from "../../../src/data/sea";
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";
import { closedPassageMask } from "../../../src/engine/routing/sea/chain-route";
import { crossesDeepLand } from "../../../src/engine/routing/sea/land-mask";
import { PassageLegs } from "../../../src/engine/routing/sea/passage-legs";
import { SeaSnapper } from "../../../src/engine/routing/sea/sea-snap";
import { StraightLegs } from "../../../src/engine/routing/sea/straight-legs";
import {
  CONNECTOR_SKIP_FROM_KM,
  CONNECTOR_SKIP_TO_KM,
  PORT_SHORE_M,
  QUICK_MIN_M,
  QUICK_STEP_KM,
  STRAIGHT_STEP_KM,
} from "../../../src/engine/routing/sea/tuning";
import { LatLng, Passage } from "../../../src/engine/types";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const land = loadSnapLand().mask;
const coast = loadCoastIndex();
const areas = readPassageAreas();

/** Legs from a random point within ~1,000 km of one of the passages (busy coasts) to another near it. */
function coastalLegs(count: number, seed: number): Array<[LatLng, LatLng]> {
  const r = rng(seed);
  const legs: Array<[LatLng, LatLng]> = [];
  while (legs.length < count) {
    const area = areas[Math.floor(r() * areas.length)];
    const [lng0, lat0] = area.polygon[0];
    const near = (spread: number): LatLng => ({
      lat: Math.max(-80, Math.min(80, lat0 + (r() - 0.5) * spread)),
      lng: lng0 + (r() - 0.5) * spread,
    });
    // Half the legs across the passage's own waters, half across its wider coasts.
    const spread = legs.length % 2 ? 4 : 16;
    legs.push([near(spread), near(spread)]);
  }
  return legs;
}

describe("straight-leg tests", () => {
  it("isClear is the conjunction of its three pure tests, whatever their order", () => {
    // Every passage closed: legs through an open-water strait (Dover, Gibraltar) are refused by
    // its area alone.
    const closed: Passage[] = areas.map((a) => a.name);
    const straight = new StraightLegs(land, coast, areas);
    straight.refusedMask = closedPassageMask(closed);
    const passages = new PassageLegs(areas);
    let clear = 0;
    let refused = 0;
    let byAreaAlone = 0;
    for (const [a, b] of coastalLegs(600, 20261202)) {
      for (const [fromQuery, toQuery] of [
        [true, false],
        [false, false],
      ]) {
        const skipA = fromQuery ? CONNECTOR_SKIP_FROM_KM : CONNECTOR_SKIP_TO_KM;
        const skipB = toQuery ? CONNECTOR_SKIP_FROM_KM : CONNECTOR_SKIP_TO_KM;
        const deep = crossesDeepLand(land, a, b, skipA, skipB, QUICK_STEP_KM);
        const entered = passages.entered(
          a,
          b,
          skipA,
          skipB,
          STRAIGHT_STEP_KM,
          straight.refusedMask
        );
        const exact = coast.crossesLand(
          a,
          b,
          fromQuery ? PORT_SHORE_M : 0,
          toQuery ? PORT_SHORE_M : 0
        );
        // The quick raster refusal runs on long legs only.
        const long = fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) > QUICK_MIN_M;
        const expected = !(long && deep) && !exact && entered === 0;
        const got = straight.isClear(a, b, fromQuery, toQuery);
        expect(got).toBe(expected);
        if (!(long && deep) && !exact && entered !== 0) byAreaAlone++;
        if (got) clear++;
        else refused++;
      }
    }
    // Both answers occur often enough for the property to mean something.
    expect(clear).toBeGreaterThan(50);
    expect(refused).toBeGreaterThan(50);
    expect(byAreaAlone).toBeGreaterThan(10);
  });

  it("the crossing test that stops at the first ring edge agrees with the full land measure", () => {
    let crossing = 0;
    for (const [a, b] of coastalLegs(800, 7)) {
      const stops = coast.crossesLand(a, b, PORT_SHORE_M, 0);
      expect(stops).toBe(coast.landMeters(a, b, PORT_SHORE_M, 0) > 0);
      if (stops) crossing++;
    }
    expect(crossing).toBeGreaterThan(100);
    expect(crossing).toBeLessThan(790);
  });

  it("the router's snap is the snapper's nearest candidate, measured exactly", () => {
    const router = loadSeaRouter() as unknown as {
      graph: ConstructorParameters<typeof SeaSnapper>[0];
      snap(p: LatLng): { edge: number; offset: number } | null;
    };
    const snapper = new SeaSnapper(router.graph, land, coast, areas);
    for (const [a] of coastalLegs(60, 99)) {
      const s = router.snap(a);
      const first = snapper.candidates(a, 0)[0];
      if (!s || !first) {
        expect(s).toBe(first ?? null);
        continue;
      }
      const exact = snapper.exact(a, first);
      expect(s.edge).toBe(exact.edge);
      expect(s.offset).toBe(exact.offset);
    }
  });
});
