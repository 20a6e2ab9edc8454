#!/usr/bin/env node
/**
 * Builds the engine's snapshots (the sea network with its hierarchies and land, the places, the
 * vessels, the land polygons of the overland and barge routers) into the project's cache folder
 * (node_modules/.cache/route-sheets/, see src/data/snapshot/cache.ts), right after `tsc`, so the
 * first run after `npm install` / `npm run build` starts as fast as the later ones.
 *
 * Builds them by asking the compiled engine (dist/) one question per modality: whatever a first
 * query would build and write, this builds and writes. A snapshot already up to date is only read.
 */
const path = require("node:path");

const DIST = path.resolve(__dirname, "..", "dist");
const t0 = Date.now();
const { loadEngine } = require(path.join(DIST, "data", "load-engine.js"));
const engine = loadEngine();
// The place index reads the shipped UN/LOCODE list from its own snapshot: written here too.
engine.preparePlaces();
for (const modality of ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"]) {
  try {
    engine.distance({ origin: "NLRTM", destination: "DEHAM", modality });
  } catch (e) {
    // A lane a modality cannot route still loaded (and wrote) its router's snapshot; anything
    // else is a real failure of the build.
    if (!(e && e.name === "RouteSheetsError" && e.kind === "no-route")) throw e;
  }
}
// The fine sea regions' 1:10m water grids (one snapshot each), read on a region's first use.
require(path.join(DIST, "data", "sea.js"))
  .loadFineSeaRegions()
  ?.prepare();
console.log(`engine snapshots ready in ${Date.now() - t0} ms`);
