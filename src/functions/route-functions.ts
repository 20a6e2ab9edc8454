/**
 * What each ROUTE.* function does, with the client injected so it runs (and is tested) outside
 * Excel. functions.ts holds the thin @customfunction wrappers Excel registers; the work is in
 * lane-functions.ts (DISTANCE, EMISSIONS, PASSAGES, LANE over cells or ranges, with
 * lane-runner.ts, lane-query.ts and lane-output.ts) and lookup-functions.ts (TERMINALS,
 * OPERATORS, OPTIONS with option-rows.ts). What they take and give is in function-types.ts.
 */
import type { RouteApiClient } from "../client/api-client";
import type { RouteFunctions } from "./function-types";
import { laneFunctions } from "./lane-functions";
import { lookupFunctions } from "./lookup-functions";

export { PREVIEW_MESSAGE, isPreview } from "./invocation";
export type { InvocationLike } from "./invocation";
export type { Answer, Cell, LaneResult } from "./lane-runner";
export type * from "./function-types";
export { LANE_COLUMNS, laneEntity, laneRow, NO_PASSAGES } from "./lane-output";
export { OPTION_COLUMNS, optionRows, routingRow } from "./option-rows";

export function createRouteFunctions(getClient: () => RouteApiClient): RouteFunctions {
  return { ...laneFunctions(getClient), ...lookupFunctions(getClient) };
}
