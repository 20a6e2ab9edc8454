/**
 * Road legs from a road engine the deployment runs (OSRM): the engine stays pure, so the source
 * answers synchronously from what its owner fetched before the query ran (src/data/osrm.ts) and
 * says "don't know" (undefined) for anything else; the router then falls back to its own answer.
 */
import { LatLng, RouteBasis } from "../../types";

export interface RoadLeg {
  meters: number;
  /** The road's polyline when the engine gave one; else the router draws the straight line. */
  path?: LatLng[];
}

export interface RoadLegSource {
  /** What answers from this source say they are based on, e.g. "road network (OSRM)". */
  readonly basis: RouteBasis;
  /** The TRUCK leg between the two points, or undefined when the source has none for them. */
  leg(from: LatLng, to: LatLng): RoadLeg | undefined;
}
