/**
 * What each ROUTE.* function does, with the client injected so it runs (and is tested) outside
 * Excel. functions.ts holds the thin @customfunction wrappers Excel registers; the work is in
 * lane-functions.ts (DISTANCE, EMISSIONS, PASSAGES, LANE over cells or ranges, with
 * lane-runner.ts, lane-query.ts and lane-output.ts) and lookup-functions.ts (TERMINALS,
 * OPERATORS, OPTIONS with option-rows.ts).
 */
import type { RouteApiClient } from "../client/api-client";
import type { InvocationLike } from "./invocation";
import type { Cell, LaneResult } from "./lane-runner";
import { laneFunctions } from "./lane-functions";
import { lookupFunctions } from "./lookup-functions";

export { PREVIEW_MESSAGE, isPreview } from "./invocation";
export type { InvocationLike } from "./invocation";
export type { Answer, Cell, LaneResult } from "./lane-runner";
export { LANE_COLUMNS, laneEntity, laneRow, NO_PASSAGES } from "./lane-output";
export { OPTION_COLUMNS, optionRows, routingRow } from "./option-rows";

/**
 * ROUTE.EMISSIONS' arguments by name. functions.ts declares them in Excel's order (its JSDoc is the
 * metadata) and hands them on as this one record, so no second positional list has to keep their
 * order (the invocation comes last in Excel, after the shipment's containers and weightTons).
 */
export interface EmissionsArguments {
  origin: unknown;
  destination: unknown;
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

export interface RouteFunctions {
  distance(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    unit?: unknown,
    avoid?: unknown,
    via?: unknown,
    invocation?: InvocationLike
  ): Promise<LaneResult>;
  emissions(args: EmissionsArguments, invocation?: InvocationLike): Promise<LaneResult>;
  passages(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    avoid?: unknown,
    invocation?: InvocationLike
  ): Promise<LaneResult>;
  lane(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    avoid?: unknown,
    containerType?: unknown,
    fuelType?: unknown,
    invocation?: InvocationLike
  ): Promise<unknown[][]>;
  terminals(locode: unknown, name?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  operators(search?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  options(
    origin: unknown,
    destination: unknown,
    modalities?: unknown,
    maxTransfers?: unknown,
    sort?: unknown,
    top?: unknown,
    minDeparture?: unknown,
    maxDeparture?: unknown,
    header?: unknown,
    invocation?: InvocationLike
  ): Promise<unknown[][]>;
}

export function createRouteFunctions(getClient: () => RouteApiClient): RouteFunctions {
  return { ...laneFunctions(getClient), ...lookupFunctions(getClient) };
}
