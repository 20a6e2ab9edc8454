/**
 * What the pane says about a finished search: the one-line summary shown in place of the collapsed
 * form, and why nothing was found, naming only the filters that are actually set.
 */
import type { SearchFormValues } from "./search-form";

const OPERATOR_ROLES = {
  allRequiredOperators: "operators that must be on the route",
  anyRequiredOperators: "one of the operators",
  excludedOperators: "excluded operators",
} as const;

/** The filters the user set, in words ("max 0 transfers", "direct sea only"…); empty when none. */
export function filtersSet(v: SearchFormValues): string[] {
  const out: string[] = [];
  const t = (s: string) => s.trim();
  if (v.modalities.length) out.push(`modalities ${v.modalities.join(", ")}`);
  if (t(v.maxArrival)) out.push(`arrival by ${t(v.maxArrival)}`);
  if (t(v.maxTransfers))
    out.push(`at most ${t(v.maxTransfers)} transfer${t(v.maxTransfers) === "1" ? "" : "s"}`);
  if (t(v.maxLeadTime)) out.push(`lead time at most ${leadTime(t(v.maxLeadTime))}`);
  if (t(v.maxEmission)) out.push(`at most ${t(v.maxEmission)} kg CO2e`);
  if (t(v.maxFirstMileTruckingKm))
    out.push(`first-mile trucking at most ${t(v.maxFirstMileTruckingKm)} km`);
  if (t(v.maxLastMileTruckingKm))
    out.push(`last-mile trucking at most ${t(v.maxLastMileTruckingKm)} km`);
  if (v.directSeaOnly) out.push("direct sea only");
  if (t(v.allRequiredLocodes)) out.push(`calling at all of ${t(v.allRequiredLocodes)}`);
  if (t(v.anyRequiredLocodes)) out.push(`calling at one of ${t(v.anyRequiredLocodes)}`);
  if (t(v.excludedLocodes)) out.push(`avoiding ${t(v.excludedLocodes)}`);
  for (const role of Object.keys(OPERATOR_ROLES) as Array<keyof typeof OPERATOR_ROLES>)
    if (v[role].length) out.push(`${OPERATOR_ROLES[role]} ${v[role].join(", ")}`);
  return out;
}

/** The departure window in words. */
export function windowText(v: SearchFormValues): string {
  const from = v.minDeparture.trim();
  const to = v.maxDeparture.trim();
  if (from && to) return `departing ${from} to ${to}`;
  if (from) return `departing from ${from} (in the service's default window)`;
  if (to) return `departing by ${to}`;
  return "departing in the service's default window from today";
}

/** Why the search found nothing: the filters set, or (none set) that no schedule connects the places. */
export function noResultsMessage(v: SearchFormValues): string {
  const lane = `${v.origin.trim()} to ${v.destination.trim()}`;
  const filters = filtersSet(v);
  if (filters.length)
    return `No route options from ${lane} ${windowText(v)} with ${filters.join("; ")}: these filters rule out every option; loosen or clear them.`;
  return `No route options from ${lane} ${windowText(v)}: no scheduled service connects these places in that window.`;
}

/** The collapsed form's summary line. */
export function searchSummary(v: SearchFormValues, routings: number, options: number): string {
  const filters = filtersSet(v);
  return [
    `${v.origin.trim()} → ${v.destination.trim()}`,
    `${routings} routing${routings === 1 ? "" : "s"} (${options} departure${options === 1 ? "" : "s"})`,
    filters.length ? filters.join("; ") : "",
  ]
    .filter(Boolean)
    .join(" · ");
}

/** "1 day", "2.5 days", or the ISO 8601 duration as typed. */
function leadTime(text: string): string {
  if (!/^\d+(\.\d+)?$/.test(text)) return text;
  return `${text} ${Number(text) === 1 ? "day" : "days"}`;
}
