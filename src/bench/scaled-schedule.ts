/**
 * A generated schedule ten (or `factor`) times the sample for the optimizer benchmark and the
 * search-equivalence test: every service repeated with shifted departure days and hours and its own
 * code, so trips and connections grow tenfold on the same ports.
 */
import { ScheduleData } from "../engine/optimizer";

/** `factor` copies of every service, spread over the week, each with its own service code. */
export function scaledSchedule(data: ScheduleData, factor: number): ScheduleData {
  const services = data.services.flatMap((s) =>
    Array.from({ length: factor }, (_, k) => ({
      ...s,
      code: k === 0 ? s.code : `${s.code}-X${k}`,
      aliases: undefined,
      vessels: k === 0 ? s.vessels : undefined,
      firstDeparture: {
        weekday: ((s.firstDeparture.weekday - 1 + k) % 7) + 1,
        hour: (s.firstDeparture.hour + 5 * k) % 24,
      },
    }))
  );
  return { ...data, services };
}
