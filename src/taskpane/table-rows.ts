/**
 * Route options and their legs as table rows: the headers, the cell values and the number format
 * of each column. Dates become Excel serial numbers (UTC) with a date format, lead times days,
 * emissions kg, distances km, so the user can sort, filter and compute with them.
 */
import type { Leg, RouteOption } from "../client/types";
import {
  excelSerial,
  firstDeparture,
  lastArrival,
  leadTimeDays,
  legOperators,
  modalitiesOf,
  operatorsOf,
  stopsOf,
  MINUTES_PER_DAY,
} from "./format";

export type CellValue = string | number;

export const NUMBER_FORMATS = {
  text: "@",
  date: "yyyy-mm-dd hh:mm",
  days: "0.0",
  kg: "#,##0.0",
  km: "#,##0",
  count: "0",
} as const;
export type ColumnKind = keyof typeof NUMBER_FORMATS;

export interface Column<T> {
  header: string;
  kind: ColumnKind;
  value: (row: T, index: number) => CellValue | null;
}

export interface TableData {
  headers: string[];
  /** One array per row, in header order; empty cells are ''. */
  rows: CellValue[][];
  /** Number format per column. */
  formats: string[];
}

const km = (metres: number | undefined) => (typeof metres === "number" ? metres / 1000 : null);

export const OPTION_COLUMNS: Column<RouteOption>[] = [
  { header: "Option", kind: "count", value: (_o, i) => i + 1 },
  { header: "Option id", kind: "text", value: (o) => o.id },
  { header: "Origin", kind: "text", value: (o) => o.legs[0]?.origin ?? "" },
  {
    header: "Destination",
    kind: "text",
    value: (o) => o.legs[o.legs.length - 1]?.destination ?? "",
  },
  { header: "Via", kind: "text", value: (o) => stopsOf(o).slice(1, -1).join(", ") },
  { header: "Modalities", kind: "text", value: (o) => modalitiesOf(o).join(" > ") },
  { header: "Operators", kind: "text", value: (o) => operatorsOf(o).join(", ") },
  { header: "Transfers", kind: "count", value: (o) => o.transfers },
  { header: "Legs", kind: "count", value: (o) => o.legs.length },
  { header: "Latest drop-off (UTC)", kind: "date", value: (o) => excelSerial(o.latestDropOff) },
  { header: "Departure (UTC)", kind: "date", value: (o) => serialOrNull(firstDeparture(o)) },
  { header: "Arrival (UTC)", kind: "date", value: (o) => serialOrNull(lastArrival(o)) },
  { header: "Earliest pick-up (UTC)", kind: "date", value: (o) => excelSerial(o.earliestPickup) },
  { header: "Lead time (days)", kind: "days", value: (o) => leadTimeDays(o) },
  { header: "CO2e (kg)", kind: "kg", value: (o) => o.emissionsInKgCo2e },
  { header: "Transfer CO2e (kg)", kind: "kg", value: (o) => o.transferEmissionsInKgCo2e },
  {
    header: "Distance (km)",
    kind: "km",
    value: (o) => o.legs.reduce((sum, l) => sum + (l.distanceInMeters ?? 0), 0) / 1000,
  },
  { header: "Truck to origin (km)", kind: "km", value: (o) => km(o.truckToOriginInMeters) },
  {
    header: "Truck to destination (km)",
    kind: "km",
    value: (o) => km(o.truckToDestinationInMeters),
  },
];

export interface LegRow {
  option: RouteOption;
  optionIndex: number;
  leg: Leg;
  legIndex: number;
}

export const LEG_COLUMNS: Column<LegRow>[] = [
  { header: "Option", kind: "count", value: (r) => r.optionIndex + 1 },
  { header: "Option id", kind: "text", value: (r) => r.option.id },
  { header: "Leg", kind: "count", value: (r) => r.legIndex + 1 },
  { header: "Origin", kind: "text", value: (r) => r.leg.origin },
  {
    header: "Origin terminals",
    kind: "text",
    value: (r) => (r.leg.originTerminals ?? []).map((t) => t.name).join(", "),
  },
  { header: "Destination", kind: "text", value: (r) => r.leg.destination },
  {
    header: "Destination terminals",
    kind: "text",
    value: (r) => (r.leg.destinationTerminals ?? []).map((t) => t.name).join(", "),
  },
  { header: "Modality", kind: "text", value: (r) => r.leg.modality },
  { header: "Operators", kind: "text", value: (r) => legOperators(r.leg) },
  {
    header: "SCAC",
    kind: "text",
    value: (r) => (r.leg.operators ?? []).map((o) => o.scac).join(", "),
  },
  {
    header: "Service",
    kind: "text",
    value: (r) => (r.leg.operators ?? []).flatMap((o) => o.serviceCodes ?? []).join(", "),
  },
  { header: "Vessel", kind: "text", value: (r) => r.leg.vessel?.name ?? "" },
  { header: "IMO", kind: "text", value: (r) => r.leg.vessel?.imo ?? "" },
  { header: "Departure (UTC)", kind: "date", value: (r) => excelSerial(r.leg.departureDate) },
  { header: "Arrival (UTC)", kind: "date", value: (r) => excelSerial(r.leg.arrivalDate) },
  {
    header: "Duration (days)",
    kind: "days",
    value: (r) => {
      const ms = Date.parse(r.leg.arrivalDate) - Date.parse(r.leg.departureDate);
      return Number.isFinite(ms) ? ms / 60_000 / MINUTES_PER_DAY : null;
    },
  },
  { header: "Distance (km)", kind: "km", value: (r) => km(r.leg.distanceInMeters) },
  { header: "CO2e (kg)", kind: "kg", value: (r) => r.leg.emissionsInKgCo2e },
];

function serialOrNull(iso: string | undefined): number | null {
  return iso ? excelSerial(iso) : null;
}

export function tableData<T>(columns: Column<T>[], items: T[]): TableData {
  return {
    headers: columns.map((c) => c.header),
    rows: items.map((item, i) => columns.map((c) => cell(c.value(item, i)))),
    formats: columns.map((c) => NUMBER_FORMATS[c.kind]),
  };
}

export function optionTableData(options: RouteOption[]): TableData {
  return tableData(OPTION_COLUMNS, options);
}

export function legTableData(options: RouteOption[]): TableData {
  const rows: LegRow[] = [];
  options.forEach((option, optionIndex) =>
    option.legs.forEach((leg, legIndex) => rows.push({ option, optionIndex, leg, legIndex }))
  );
  return tableData(LEG_COLUMNS, rows);
}

function cell(value: CellValue | null | undefined): CellValue {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" && !Number.isFinite(value)) return "";
  return value;
}
