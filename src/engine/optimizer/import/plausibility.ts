/**
 * Refuses voyages no timetable can hold: a call that departs before it arrives, a leg that arrives
 * before (or as) it departs, a leg longer than a year, and — when distances are known — speeds
 * outside what the modality can do. The message names the voyage's row or schedule.
 */
import { VoyageDef } from "../model";

const YEAR_MS = 366 * 86_400_000;

/** Plausible average speeds (km/h over the great-circle distance) per scheduled modality. */
export const SPEED_KMH: Record<string, { min: number; max: number }> = {
  DEEPSEA: { min: 0.5, max: 60 },
  SHORTSEA: { min: 0.5, max: 60 },
  BARGE: { min: 0.2, max: 35 },
  RAIL: { min: 0.2, max: 160 },
};

export interface PlausibilityOptions {
  /** Great-circle km between two LOCODEs, when the caller can tell (else speeds are not checked). */
  distanceKm?: (from: string, to: string) => number | undefined;
}

/** The problems of one voyage, empty when it is plausible. */
export function voyageProblems(voyage: VoyageDef, options: PlausibilityOptions = {}): string[] {
  const problems: string[] = [];
  const calls = voyage.calls;
  for (const c of calls) {
    if (c.arrival && c.departure && Date.parse(c.departure) < Date.parse(c.arrival))
      problems.push(
        `at ${c.locode} the departure ${c.departure} is before the arrival ${c.arrival}`
      );
  }
  for (let i = 0; i + 1 < calls.length; i++) {
    const from = calls[i];
    const to = calls[i + 1];
    const dep = Date.parse(from.departure ?? from.arrival ?? "");
    const arr = Date.parse(to.arrival ?? to.departure ?? "");
    if (!Number.isFinite(dep) || !Number.isFinite(arr)) continue;
    const leg = `${from.locode}→${to.locode}`;
    if (arr <= dep) {
      problems.push(
        `${leg} arrives (${new Date(arr).toISOString()}) before it departs (${new Date(dep).toISOString()})`
      );
      continue;
    }
    if (arr - dep > YEAR_MS) {
      problems.push(`${leg} takes more than a year`);
      continue;
    }
    const km = options.distanceKm?.(from.locode, to.locode);
    const range = SPEED_KMH[voyage.modality];
    if (km !== undefined && range && km > 0) {
      const kmh = km / ((arr - dep) / 3_600_000);
      if (kmh < range.min || kmh > range.max)
        problems.push(
          `${leg} at ${kmh.toFixed(1)} km/h is outside ${range.min}–${range.max} km/h for ${voyage.modality}`
        );
    }
  }
  return problems;
}
