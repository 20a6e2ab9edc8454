/**
 * The optimizer over the real schedule data (the sample network, or a multiple of it as the
 * benchmark generates), on the engine's geography, at a fixed date: one set-up for the tests that
 * compare the search or its bounds with a reference on real data.
 */
import fs from "node:fs";
import { loadEngine } from "../../../src/data/load-engine";
import { PARAMETERS_FILE, scheduleData } from "../../../src/data/optimizer";
import { scaledSchedule } from "../../../src/bench/scaled-schedule";
import {
  createOptimizer,
  engineGeography,
  ScheduleParameters,
} from "../../../src/engine/optimizer";

/** A Monday: the timetable starts in the week of this date. */
export const TEST_NOW = new Date("2026-11-23T00:00:00Z");

export function realNetworkOptimizer(options: { scale?: number; now?: Date } = {}) {
  const engine = loadEngine({});
  const parameters = JSON.parse(fs.readFileSync(PARAMETERS_FILE, "utf8")) as ScheduleParameters;
  const data = scheduleData();
  return createOptimizer({
    data: options.scale && options.scale > 1 ? scaledSchedule(data, options.scale) : data,
    parameters,
    geography: engineGeography(engine),
    resolvePlace: (v, p) => engine.parts.places.resolve(v, p),
    now: options.now ?? TEST_NOW,
  });
}
