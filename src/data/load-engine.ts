/**
 * Builds a RouteEngine from the shipped data files (data/, node_modules data packages) and whatever a
 * data directory adds through the importers (UN/LOCODE, terminals, vessels).
 */
import { RouteEngine } from "../engine/route-engine";
import { loadEmissions } from "./emissions";
import { loadBargeRouter, loadOverlandRouter } from "./inland";
import { loadPlaces } from "./places";
import { loadSeaRouter, loadVesselResolver } from "./sea";

export interface LoadOptions {
  /** Data directory holding imported data sets; built-in data only when absent. */
  dataDir?: string;
}

export function loadEngine(options: LoadOptions = {}): RouteEngine {
  const { resolver, terminals } = loadPlaces({ dataDir: options.dataDir });
  return new RouteEngine({
    places: resolver,
    terminals,
    sea: loadSeaRouter(),
    barge: loadBargeRouter(),
    overland: loadOverlandRouter(),
    vessels: loadVesselResolver({ dataDir: options.dataDir }),
    emissions: loadEmissions(),
  });
}
