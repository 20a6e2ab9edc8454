/**
 * What each ROUTE.* function takes and gives, in one file that imports no implementation, so the
 * files that implement them (lane-functions.ts, lookup-functions.ts, emission-functions.ts) and the
 * one that puts them together (route-functions.ts) depend on it and not on each other.
 *
 * One convention: every function takes its arguments as one record named as its help names them
 * (functions.ts declares them in Excel's order, its JSDoc being the metadata, and hands them on as
 * the record), then Excel's invocation. No positional list has to keep an order in a second place.
 * Every argument is `unknown`: a cell, a range of cells, or null when left out.
 */
import type { InvocationLike } from "./invocation";
import type { Cell, LaneResult } from "./lane-runner";

/** The two places of a lane; a cell or a range each (one answer per row). */
export interface PlaceArguments {
  origin: unknown;
  destination: unknown;
}

export interface DistanceArguments extends PlaceArguments {
  modality?: unknown;
  vesselInfo?: unknown;
  unit?: unknown;
  avoid?: unknown;
  /** Waypoints the route must pass (issue 20). */
  via?: unknown;
}

export interface EmissionsArguments extends PlaceArguments {
  modality?: unknown;
  per?: unknown;
  containerType?: unknown;
  fuelType?: unknown;
  vesselInfo?: unknown;
  avoid?: unknown;
  /** Shipment (issue 20): boxes of containerType; the answer is then the total kg CO2e. */
  containers?: unknown;
  /** Shipment (issue 20): cargo tonnes of a part load; the answer is then the total kg CO2e. */
  weightTons?: unknown;
  /** Waypoints the route must pass (issue 20: "Suez or Cape" in two cells). */
  via?: unknown;
}

export interface PassagesArguments extends PlaceArguments {
  modality?: unknown;
  vesselInfo?: unknown;
  avoid?: unknown;
}

export interface LaneArguments extends PassagesArguments {
  containerType?: unknown;
  fuelType?: unknown;
}

export interface TerminalsArguments {
  /** The location: a UN/LOCODE (NLRTM). */
  locode: unknown;
  /** Part of a terminal name. */
  name?: unknown;
}

export interface OperatorsArguments {
  search?: unknown;
}

export interface OptionsArguments extends PlaceArguments {
  modalities?: unknown;
  maxTransfers?: unknown;
  sort?: unknown;
  top?: unknown;
  minDeparture?: unknown;
  maxDeparture?: unknown;
  header?: unknown;
}

export interface ChainArguments {
  points: unknown;
  modalities: unknown;
  containerType?: unknown;
  containers?: unknown;
  weightTons?: unknown;
  header?: unknown;
}

export interface DurationArguments extends PlaceArguments {
  modality?: unknown;
  speedKnots?: unknown;
  portHours?: unknown;
  vesselInfo?: unknown;
  avoid?: unknown;
}

export interface EtsArguments extends PlaceArguments {
  carbonPrice: unknown;
  modality?: unknown;
  containerType?: unknown;
  year?: unknown;
}

/** DISTANCE, EMISSIONS, PASSAGES, LANE, TERMINALS, OPERATORS, OPTIONS. */
export interface RouteFunctions {
  distance(args: DistanceArguments, invocation?: InvocationLike): Promise<LaneResult>;
  emissions(args: EmissionsArguments, invocation?: InvocationLike): Promise<LaneResult>;
  passages(args: PassagesArguments, invocation?: InvocationLike): Promise<LaneResult>;
  lane(args: LaneArguments, invocation?: InvocationLike): Promise<unknown[][]>;
  terminals(args: TerminalsArguments, invocation?: InvocationLike): Promise<Cell[][]>;
  operators(args: OperatorsArguments, invocation?: InvocationLike): Promise<Cell[][]>;
  options(args: OptionsArguments, invocation?: InvocationLike): Promise<unknown[][]>;
}

/** CHAIN, DURATION, ETS (issue 20). */
export interface EmissionFunctions {
  chain(args: ChainArguments, invocation?: InvocationLike): Promise<Cell[][]>;
  duration(args: DurationArguments, invocation?: InvocationLike): Promise<LaneResult>;
  ets(args: EtsArguments, invocation?: InvocationLike): Promise<LaneResult>;
}
