/** Route optimizer engine: schedule model, timetable expansion, multi-criteria search, records. */
import { ResolvedPlace } from "../types";
import { Geography, ScheduleData, ScheduleParameters } from "./model";
import { ScheduleOptimizer } from "./optimizer";
import { buildNetwork } from "./timetable";

export * from "./model";
export * from "./types";
export { ScheduleOptimizer } from "./optimizer";
export type { OptimizerOptions } from "./optimizer";
export { buildNetwork, operatorId, OPTIMIZER_NAMESPACE } from "./timetable";
export type { Network } from "./network";
export { parseQuery, SORT_KEYS, DEFAULT_SORT, PLACE_TYPES } from "./query";
export type { ParsedQuery, SortKey } from "./query";
export { engineGeography } from "./engine-geography";

export interface CreateOptimizerInput {
  data: ScheduleData;
  parameters: ScheduleParameters;
  geography: Geography;
  resolvePlace(value: string, parameter: string): ResolvedPlace;
  /** Anchors the timetable (first weeks of departures) and the default departure window. */
  now: Date;
  /** Clock for default departure windows; fixed at `now` when absent. */
  clock?: () => Date;
  /** With a clock: rebuild the timetable when the clock is this many days past the last build. */
  refreshDays?: number;
}

export function createOptimizer(input: CreateOptimizerInput): ScheduleOptimizer {
  const network = buildNetwork(input.data, input.parameters, input.geography, { now: input.now });
  const now = input.now;
  const clock = input.clock ?? (() => now);
  return new ScheduleOptimizer({
    network,
    geography: input.geography,
    resolvePlace: input.resolvePlace,
    parameters: input.parameters,
    now: clock,
    rebuild: input.clock
      ? (at: Date) => buildNetwork(input.data, input.parameters, input.geography, { now: at })
      : undefined,
    refreshDays: input.refreshDays,
  });
}
