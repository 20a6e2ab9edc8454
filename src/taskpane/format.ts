/** Units and wording shared by the results list and the Excel tables. */
import type { Leg, RouteOption } from "../client/types";

export const MINUTES_PER_DAY = 1440;
const MS_PER_DAY = 86_400_000;
/** Excel's serial number of 1970-01-01 (1900 date system). */
const EXCEL_EPOCH_OFFSET = 25_569;

/** ISO date-time → Excel serial date (days since 1899-12-30, UTC, fraction = time of day). */
export function excelSerial(iso: string): number | null {
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return null;
  return ms / MS_PER_DAY + EXCEL_EPOCH_OFFSET;
}

export function leadTimeDays(option: RouteOption): number {
  return option.leadTimeInMinutes / MINUTES_PER_DAY;
}

/** Modalities of the legs in order, without repeats next to each other (DEEPSEA → RAIL → TRUCK). */
export function modalitiesOf(option: RouteOption): string[] {
  const out: string[] = [];
  for (const leg of option.legs) if (out[out.length - 1] !== leg.modality) out.push(leg.modality);
  return out;
}

/** Operator names of all legs, each once, in order of appearance. */
export function operatorsOf(option: RouteOption): string[] {
  const names: string[] = [];
  for (const leg of option.legs)
    for (const op of leg.operators ?? []) if (!names.includes(op.name)) names.push(op.name);
  return names;
}

export function legOperators(leg: Leg): string {
  return (leg.operators ?? []).map((o) => o.name).join(", ");
}

export function firstDeparture(option: RouteOption): string | undefined {
  return option.legs[0]?.departureDate;
}

export function lastArrival(option: RouteOption): string | undefined {
  return option.legs[option.legs.length - 1]?.arrivalDate;
}

/** Places of the route in order: origin of the first leg, then every leg's destination. */
export function stopsOf(option: RouteOption): string[] {
  if (!option.legs.length) return [];
  return [option.legs[0].origin, ...option.legs.map((l) => l.destination)];
}

/** "12.5 days", "1 day", "18 h" */
export function formatDuration(minutes: number): string {
  if (minutes < MINUTES_PER_DAY) return `${Math.round(minutes / 60)} h`;
  const days = Math.round((minutes / MINUTES_PER_DAY) * 10) / 10;
  return `${days} ${days === 1 ? "day" : "days"}`;
}

/** "1,234 kg" / "12.3 t" for CO2e. */
export function formatKg(kg: number): string {
  if (kg >= 10_000) return `${(kg / 1000).toLocaleString("en-US", { maximumFractionDigits: 1 })} t`;
  return `${kg.toLocaleString("en-US", { maximumFractionDigits: kg < 10 ? 1 : 0 })} kg`;
}

export function formatKm(metres: number): string {
  return `${Math.round(metres / 1000).toLocaleString("en-US")} km`;
}

/** "2026-03-04 10:00 UTC" — the service speaks UTC, so does the pane. */
export function formatDate(iso: string | undefined): string {
  if (!iso) return "–";
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return iso;
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

export function formatTransfers(n: number): string {
  return n === 0 ? "direct" : `${n} ${n === 1 ? "transfer" : "transfers"}`;
}
