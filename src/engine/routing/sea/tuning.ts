/**
 * The sea router's tuning, each number with its reason: snapping a query point onto the network,
 * the route cache and the remembered ports, straight legs and where they are checked, the
 * straightening of a route's ends and the smoothing of its corners. sea-router.ts and
 * straight-legs.ts read them from here; nothing else in the router is a tuned number.
 */
import { Passage } from "../../types";
import type { PullOptions } from "./string-pull";
import type { TightenOptions } from "./tighten";

// Snapping a query point onto the network (sea-router.ts).

/**
 * Snap candidates: edges within this factor of the nearest edge's distance, plus the slack (a
 * port's nearest line may be a dead-end approach; the lane next to it must stay a choice), at
 * most CANDIDATE_BAND_M beyond the nearest (an inland or polar point looks no farther), at most
 * MAX_CANDIDATES of them (each costs a connector check and a seed of the search).
 */
export const CANDIDATE_FACTOR = 1.5;
export const CANDIDATE_SLACK_M = 25_000;
export const CANDIDATE_BAND_M = 200_000;
export const MAX_CANDIDATES = 8;
/**
 * A dead-end network edge longer than LONG_SPOKE_M is a port drawn as one long spoke (Colombo
 * from the west): its port also looks SPOKE_RADIUS_M round for the lanes passing nearby.
 */
export const LONG_SPOKE_M = 300_000;
export const SPOKE_RADIUS_M = 150_000;

/** The route cache's budget: about 22,000 routes without paths (RESULT_BYTES), fewer with paths read. */
export const SEA_CACHE_BYTES = 24 * 2 ** 20;

/** Query points remembered (per closed-passage set): snap candidates, ports, upward space (≈ 3 KB). */
export const REMEMBERED_ENDS = 10_000;

// Straight legs and connectors (sea-router.ts).

/**
 * Straight legs (with a land raster, see straight-legs.ts): the whole route when the straight line
 * between the two points is clear and not longer than this.
 */
export const DIRECT_MAX_M = 20_000_000;

/** Connector checks: the step of the raster samples. */
export const CONNECTOR_STEP_KM = 2;
/** Passages dug through land: a connector to a port on one is inland water, not checked exactly. */
export const CANALS: ReadonlyArray<Passage> = ["SUEZ", "PANAMA", "KIEL", "CORINTH"];
/** Raster land samples of a connector up to which the exact rings may still find it clear. */
export const THIN_LAND_SAMPLES = 2;
/** A snap closer than this to an edge's end is that end. */
export const AT_VERTEX_M = 0.001;
/** A query point inside land moves to water no farther than this (else it stays, see search). */
export const WATER_MOVE_MAX_M = 12_000;
/**
 * ...to the water on its side facing the other end: of the nearest water in each of `sectors`
 * directions, those within `reach` times the nearest plus `slackM` (a port that 1:50m draws in the
 * middle of its island, Road Town or Charlestown, is as near the water on either side).
 */
export const WATER_SIDES = { sectors: 8, reach: 2, slackM: 2_000 };
/** Routes shorter than this (great circle) and longer than WATER_DETOUR times it also try water. */
export const WATER_DETOUR_MAX_M = 1_500_000;
export const WATER_DETOUR = 1.2;

// Straightening the ends and smoothing the corners (straight-legs.ts).

/** Longest end-straightening leg, and the route points tried for it at each end. */
export const PULL_MAX_M = 400_000;
export const PULL_POINTS = 10;
/** Smoothing of the whole path (string-pull.ts), in up to PULL_PASSES passes. */
export const PULL_OPTIONS: PullOptions = {
  window: 8,
  maxLegM: 3_000_000,
  minSaveM: 500,
  minSaveShare: 0.002,
  maxTests: 24,
};
export const PULL_PASSES = 3;
/**
 * Corners pulled in round headlands after smoothing (tighten.ts), for a route whose two ends see
 * each other across open water but for this many metres at each end (a port's own shore).
 */
export const TIGHTEN_SHORE_M = 5_000;
/** ...but at most this share of the way at each end (two ports 20 km apart across a headland). */
export const TIGHTEN_SHORE_SHARE = 0.1;
/** ...and that is longer than that straight line by more than this share (else nothing to pull). */
export const TIGHTEN_MIN_DETOUR = 0.002;
/** How corners are pulled in: the offing keeps a corner about a kilometre off the cape it rounds. */
export const TIGHTEN_OPTIONS: TightenOptions = {
  passes: 3,
  bisections: 7,
  minSaveM: 300,
  offingM: 1_000,
  maxTests: 200,
};
export const INNER_LEGS_FROM = 20_000;
/** Step of the clearance samples. */
export const STRAIGHT_STEP_KM = 2;
/** Raster samples (deep land only) that refuse a straight leg before the exact test. */
export const QUICK_STEP_KM = 25;
export const QUICK_MIN_M = 300_000;
/** Raster checks: a port's own shore and the last stretch before the lane are not checked. */
export const CONNECTOR_SKIP_FROM_KM = 3;
export const CONNECTOR_SKIP_TO_KM = 1;
/**
 * A first leg over land up to this long is a port's own way out (quays, a basin, a channel that
 * 1:50m fills in); a longer one comes from a point inland, whose route is left as it is.
 */
export const HARBOUR_LEG_MAX_M = 10_000;
/** Exact check: the first metres of a leg at a query point (a port on its quay) are not counted. */
export const PORT_SHORE_M = 1_000;
