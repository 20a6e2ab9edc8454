/**
 * Driving-time rules a truck's transit time follows (issue 30 item 3): the breaks and rests the law
 * of the region requires between driving spells, added to the time at the wheel. A planner's
 * single-driver answer: the extended 10-hour days the EU allows twice a week, split rests and
 * double-manned crews are not assumed. RAIL and BARGE name their assumptions the same way.
 */
import type { LatLng, Modality } from "../types";

export interface DrivingRules {
  /** Short id: "EU", "US". */
  id: string;
  /** The rules by name, with the regulation. */
  name: string;
  /** Longest driving spell before a break (h). */
  maxSpellHours: number;
  breakHours: number;
  /** Driving a day (h). */
  dailyDrivingHours: number;
  /** Daily rest, or off-duty time, between driving days (h). */
  dailyRestHours: number;
  /** Driving before the weekly rest or restart is due (h), and its length (h). */
  weeklyDrivingHours: number;
  weeklyRestHours: number;
  /** Driving days before the weekly rest is due. */
  daysBeforeWeeklyRest: number;
}

/**
 * EU Regulation (EC) No 561/2006, articles 6–8 (the same limits in the AETR agreement for the rest
 * of Europe): 9 h driving a day, a 45-minute break after 4.5 h, an 11-hour daily rest, a 45-hour
 * weekly rest after six daily driving periods (at most 56 h driving a week).
 */
export const EU_RULES: DrivingRules = {
  id: "EU",
  name: "EU driving-time rules (Regulation (EC) 561/2006, AETR): 9 h driving a day, 45 min break after 4.5 h, 11 h daily rest, 45 h weekly rest after 6 driving days",
  maxSpellHours: 4.5,
  breakHours: 0.75,
  dailyDrivingHours: 9,
  dailyRestHours: 11,
  weeklyDrivingHours: 56,
  weeklyRestHours: 45,
  daysBeforeWeeklyRest: 6,
};

/**
 * US FMCSA hours of service for property carriers, 49 CFR 395.3: 11 h driving after 10 h off
 * duty, a 30-minute break after 8 h of driving, at most 70 h in 8 days, then a 34-hour restart.
 */
export const US_RULES: DrivingRules = {
  id: "US",
  name: "US hours of service (FMCSA, 49 CFR 395.3): 11 h driving after 10 h off duty, 30 min break after 8 h, 70 h in 8 days then a 34 h restart",
  maxSpellHours: 8,
  breakHours: 0.5,
  dailyDrivingHours: 11,
  dailyRestHours: 10,
  weeklyDrivingHours: 70,
  weeklyRestHours: 34,
  daysBeforeWeeklyRest: 8,
};

/** Rough boxes of where the rule sets apply: the contiguous US; Europe with Turkey (AETR). */
const REGIONS: Array<{
  rules: DrivingRules;
  south: number;
  north: number;
  west: number;
  east: number;
}> = [
  { rules: US_RULES, south: 24.5, north: 49.4, west: -125, east: -66.9 },
  { rules: EU_RULES, south: 34.5, north: 71.5, west: -25, east: 45 },
];

function regionOf(p: LatLng): DrivingRules | undefined {
  return REGIONS.find(
    (r) => p.lat >= r.south && p.lat <= r.north && p.lng >= r.west && p.lng <= r.east
  )?.rules;
}

/** What a truck's time follows: the rules of the region it runs in. */
export interface AppliedDrivingRules extends DrivingRules {
  /** True when the lane lies outside the regions above and the EU limits stand in for local ones. */
  assumed: boolean;
}

/**
 * The rules for a truck between `lane`'s ends: US hours of service when it starts in the contiguous
 * US, EU/AETR rules in Europe; elsewhere (or without the ends) the EU limits as an assumption.
 */
export function drivingRulesFor(lane?: { from: LatLng; to: LatLng }): AppliedDrivingRules {
  const rules = lane ? (regionOf(lane.from) ?? regionOf(lane.to)) : undefined;
  return rules ? { ...rules, assumed: false } : { ...EU_RULES, assumed: true };
}

/**
 * Breaks and rests (h) a single driver takes to drive `drivingHours`: a break within each day's
 * driving after every full spell, a daily rest between driving days, a weekly rest (or restart)
 * when the week's driving or days run out. None after the last spell: the truck has arrived.
 */
export function restHours(drivingHours: number, rules: DrivingRules): number {
  let left = drivingHours;
  let rest = 0;
  let days = 0;
  let week = 0;
  // A hair under a spell or day (float noise) is not another one.
  const EPS = 1e-9;
  while (left > EPS) {
    const today = Math.min(left, rules.dailyDrivingHours, rules.weeklyDrivingHours - week);
    rest += Math.max(0, Math.ceil(today / rules.maxSpellHours - EPS) - 1) * rules.breakHours;
    left -= today;
    week += today;
    days += 1;
    if (left <= EPS) break;
    if (days >= rules.daysBeforeWeeklyRest || week >= rules.weeklyDrivingHours - EPS) {
      rest += rules.weeklyRestHours;
      days = 0;
      week = 0;
    } else rest += rules.dailyRestHours;
  }
  return rest;
}

/** The rules a transit time names, per modality. */
export interface TimeRules {
  /** "EU", "US", "EU (assumed)", or the modality's assumption ("average speed"). */
  id: string;
  description: string;
}

const AVERAGE_ONLY: Record<Exclude<Modality, "TRUCK">, string> = {
  DEEPSEA: "Continuous sailing at the service speed; port time only as portHours gives it.",
  SHORTSEA: "Continuous sailing at the service speed; port time only as portHours gives it.",
  RAIL: "Average door-to-door speed of freight trains, which includes marshalling, crew and locomotive changes and border waits; no separate crew rules (crews change en route).",
  BARGE:
    "Average speed of inland vessels including locks and waits, sailing around the clock (operating mode B, crews change); a vessel sailing 14 h a day (mode A1) takes about 1.7 times as long.",
};

export function timeRulesOf(modality: Modality, driving?: AppliedDrivingRules): TimeRules {
  if (modality === "TRUCK" && driving)
    return driving.assumed
      ? {
          id: `${driving.id} (assumed)`,
          description: `${driving.name}; assumed: the lane lies outside the regions whose rules are known (EU/AETR, contiguous US).`,
        }
      : { id: driving.id, description: `${driving.name}; one driver, no extended days.` };
  return { id: "average speed", description: AVERAGE_ONLY[modality as Exclude<Modality, "TRUCK">] };
}
