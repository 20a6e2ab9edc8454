/**
 * The route optimizer answers one option per departure: a weekly service over a four-week window
 * comes back four times. An analyst (ROUTE.OPTIONS, the task pane's result list) wants one line
 * per distinct routing — the same legs, services and transfer ports — with its next departure in
 * the window and how often it sails. Pure, so the functions and the pane share it.
 */
import type { Leg, RouteOption } from "./types";

export interface DistinctRouting {
  /** Identifies the routing: legs (ports, modality) and the services that sail them. */
  key: string;
  /** The option of the earliest departure (the one a row shows). */
  next: RouteOption;
  /** Every option of this routing, earliest departure first (the pane expands to these). */
  departures: RouteOption[];
  /** Median days between consecutive departures; undefined when it departs once in the window. */
  intervalDays: number | undefined;
  /** How often it sails, in words: "weekly", "every 10 days", "daily", "once in the window". */
  frequency: string;
}

/** When an option leaves: its first leg's departure, else the latest drop-off at the origin. */
export function departureOf(option: RouteOption): string {
  return option.legs?.[0]?.departureDate || option.latestDropOff || "";
}

/** The routing of an option: same key ⇔ same legs, services and transfer ports. */
export function routingKeyOf(option: RouteOption): string {
  return (option.legs ?? []).map(legKey).join(" | ");
}

function legKey(leg: Leg): string {
  const services = (leg.operators ?? [])
    .map((op) => `${op.id}:${[...(op.serviceCodes ?? [])].sort().join("+")}`)
    .sort()
    .join(",");
  return `${leg.origin}>${leg.destination} ${leg.modality} [${services}]`;
}

/**
 * Options grouped by routing, in the order the service ranked their best option (the service's
 * sort is kept); each group's departures sorted by time.
 */
export function distinctRoutings(options: RouteOption[]): DistinctRouting[] {
  const groups = new Map<string, RouteOption[]>();
  for (const option of options) {
    const key = routingKeyOf(option);
    const group = groups.get(key);
    if (group) group.push(option);
    else groups.set(key, [option]);
  }
  return [...groups].map(([key, group]) => {
    const departures = [...group].sort((a, b) =>
      departureOf(a) < departureOf(b) ? -1 : departureOf(a) > departureOf(b) ? 1 : 0
    );
    const intervalDays = medianIntervalDays(departures.map(departureOf));
    return {
      key,
      next: departures[0],
      departures,
      intervalDays,
      frequency: frequencyText(intervalDays),
    };
  });
}

const DAY_MS = 86_400_000;

function medianIntervalDays(times: string[]): number | undefined {
  const ms = [...new Set(times.map((t) => Date.parse(t)).filter((t) => Number.isFinite(t)))];
  if (ms.length < 2) return undefined;
  const gaps = ms.slice(1).map((t, i) => (t - ms[i]) / DAY_MS);
  gaps.sort((a, b) => a - b);
  const mid = Math.floor(gaps.length / 2);
  const median = gaps.length % 2 ? gaps[mid] : (gaps[mid - 1] + gaps[mid]) / 2;
  return Math.round(median * 10) / 10;
}

/** "weekly" for 7 days (±½ day, schedules drift), "every N days" otherwise. */
export function frequencyText(intervalDays: number | undefined): string {
  if (intervalDays === undefined) return "once in the window";
  const near = (days: number) => Math.abs(intervalDays - days) <= 0.5;
  if (near(1)) return "daily";
  if (near(7)) return "weekly";
  if (near(14)) return "every 2 weeks";
  if (near(30) || near(31) || near(28)) return "monthly";
  if (intervalDays < 1) return `${Math.round(24 / intervalDays)} times a day`;
  return `every ${Math.round(intervalDays)} days`;
}
