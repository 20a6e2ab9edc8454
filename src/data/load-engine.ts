/**
 * Builds a RouteEngine from the shipped data files (data/, node_modules data packages) and whatever a
 * data directory adds through the importers (UN/LOCODE, terminals, vessels).
 *
 * Start-up cost: the sea network comes from its snapshot (src/data/snapshot); the barge and
 * RAIL/TRUCK routers (and their modules) are loaded on their first use, so a run that never asks
 * for them never pays.
 */
import { RouteEngine } from "../engine/route-engine";
import type { RoadLegSource } from "../engine/routing/overland/road-legs";
import { loadEmissions } from "./emissions";
import type * as Inland from "./inland";
import { loadPlaces } from "./places";
import { loadSeaRouter, loadVesselResolver } from "./sea";
import { onFirstUse } from "./on-first-use";
import { loadWaypoints } from "./waypoints";

export { onFirstUse };

export interface LoadOptions {
  /** Data directory holding imported data sets; built-in data only when absent. */
  dataDir?: string;
  /** TRUCK legs from a road engine (`--road-engine osrm=URL`, src/data/osrm.ts). */
  roadLegs?: RoadLegSource;
}

/**
 * The inland loaders, loaded with the router that first needs them: their modules (barge network,
 * overland router, landmass indexes, terrain, networks) are ~15 % of a warm start's module loading,
 * and a sea-only sheet never needs them.
 */
function inland(): typeof Inland {
  return require("./inland") as typeof Inland;
}

export function loadEngine(options: LoadOptions = {}): RouteEngine {
  const { resolver, terminals, finder } = loadPlaces({ dataDir: options.dataDir });
  return new RouteEngine({
    places: resolver,
    terminals,
    sea: loadSeaRouter(),
    barge: onFirstUse(() => inland().loadBargeRouter()),
    overland: onFirstUse(() => inland().loadOverlandRouter({ roadLegs: options.roadLegs })),
    vessels: loadVesselResolver({ dataDir: options.dataDir }),
    emissions: loadEmissions(),
    finder,
    waypoints: loadWaypoints(),
  });
}
