/** ROUTE.OPTIONS' spill: a header, then one row per distinct routing. */
import { departureOf, DistinctRouting, distinctRoutings } from "../client/distinct-routings";
import type { RouteOption } from "../client/types";
import { excelDate } from "./excel-dates";
import { oneDecimal } from "./units";

/** Columns of ROUTE.OPTIONS, in order (the header row, shown unless turned off). */
export const OPTION_COLUMNS = [
  "Next departure",
  "Sails",
  "Departures in window",
  "Route",
  "Modalities",
  "Operators",
  "Lead time (days)",
  "Transfers",
  "kg CO2e per TEU",
  "Latest drop-off",
  "Earliest pick-up",
] as const;

/**
 * One spilled row per distinct routing: its next departure, how often it sails, its figures (lead
 * time in days to 0.1, kg CO2e to 0.1). Dates are formatted number values where the runtime has
 * them (`formattedDates`), else serials.
 */
export function routingRow(routing: DistinctRouting, formattedDates = false): unknown[] {
  const option = routing.next;
  const legs = option.legs ?? [];
  const ports = legs.length ? [legs[0].origin, ...legs.map((leg) => leg.destination)] : [];
  const operators = [...new Set(legs.flatMap((leg) => (leg.operators ?? []).map((op) => op.name)))];
  const date = (iso: string | undefined) => excelDate(iso, formattedDates);
  return [
    date(departureOf(option)),
    routing.frequency,
    routing.departures.length,
    ports.join(" > "),
    legs.map((leg) => leg.modality).join(" > "),
    operators.join(", "),
    oneDecimal(option.leadTimeInMinutes / 1440),
    option.transfers,
    oneDecimal(option.emissionsInKgCo2e),
    date(option.latestDropOff),
    date(option.earliestPickup),
  ];
}

/** The routing rows of a search answer, as ROUTE.OPTIONS spills them (dates as serials, no header). */
export function optionRows(options: RouteOption[], top = 5): unknown[][] {
  return distinctRoutings(options)
    .slice(0, top)
    .map((r) => routingRow(r));
}
