/**
 * The optimizer over the real schedule data (the sample network, or a multiple of it as the
 * benchmark generates), on the engine's geography, at a fixed date: one set-up for the tests that
 * compare the search or its bounds with a reference on real data.
 */
import fc from "fast-check";
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

/** A mask over `size` entries (stops, trips, services): everything, or each entry set with a chance. */
export const maskArb = (size: number): fc.Arbitrary<Uint8Array> =>
  fc.oneof(
    fc.constant(new Uint8Array(size).fill(1)),
    fc
      .tuple(fc.double({ min: 0.3, max: 1, noNaN: true }), fc.integer({ min: 1, max: 2 ** 30 }))
      .map(([p, seed]) => {
        let x = seed;
        const m = new Uint8Array(size);
        for (let i = 0; i < size; i++) {
          x = (x * 1103515245 + 12345) % 2147483648;
          m[i] = x / 2147483648 < p ? 1 : 0;
        }
        return m;
      })
  );

/**
 * The destination's last mile as the scans take it, per stop and transfer class: one to four stops
 * from which the destination is reached by truck (minutes, grams) or at once; Infinity elsewhere.
 */
export const egressArb = (stopCount: number, classes: number) =>
  fc
    .uniqueArray(
      fc.record({
        stop: fc.nat(stopCount - 1),
        truck: fc.boolean(),
        minutes: fc.integer({ min: 0, max: 3000 }),
        grams: fc.integer({ min: 0, max: 500_000 }),
      }),
      { minLength: 1, maxLength: 4, selector: (e) => e.stop }
    )
    .map((egress) => {
      const egressMinutes = new Float64Array(stopCount * classes).fill(Infinity);
      const egressGrams = new Float64Array(stopCount * classes).fill(Infinity);
      for (const e of egress)
        for (let c = 0; c < classes; c++) {
          egressMinutes[e.stop * classes + c] = e.truck ? e.minutes : 0;
          egressGrams[e.stop * classes + c] = e.truck ? e.grams : 0;
        }
      return { egressMinutes, egressGrams };
    });

/** A per-class table: mostly the network's own (what a search passes), sometimes other values. */
export const mostlyArb = (usual: Float64Array, max: number, classes: number) =>
  fc.oneof(
    { arbitrary: fc.constant(usual), weight: 3 },
    {
      arbitrary: fc
        .array(fc.integer({ min: 0, max }), { minLength: classes, maxLength: classes })
        .map((a) => Float64Array.from(a)),
      weight: 1,
    }
  );
