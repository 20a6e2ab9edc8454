/** Dates between the service (ISO 8601, UTC) and Excel (serial days since 1899-12-30). */
import { InputError } from "./excel-errors";
import { optionalText } from "./units";

const DAY_MS = 86_400_000;
/** 1970-01-01 as an Excel serial (the 1900 system). */
const UNIX_EPOCH_SERIAL = 25_569;

export const DATE_FORMAT = "yyyy-mm-dd hh:mm";

/** An ISO instant as an Excel date serial (UTC); "" when absent or unreadable. */
export function excelSerial(iso: string | undefined): number | "" {
  const ms = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(ms) ? ms / DAY_MS + UNIX_EPOCH_SERIAL : "";
}

/**
 * The date as a cell: a formatted number value where the runtime has data types (Excel shows a
 * date, formulas see the serial), else the bare serial (format the column as a date).
 */
export function excelDate(iso: string | undefined, formatted: boolean): unknown {
  const serial = excelSerial(iso);
  if (!formatted || serial === "") return serial;
  return { type: "FormattedNumber", basicValue: serial, numberFormat: DATE_FORMAT };
}

/**
 * A departure-window argument as the service's date (YYYY-MM-DD): an Excel date (a serial) or
 * text such as 2026-12-01; undefined when not given; #VALUE! naming the parameter otherwise.
 */
export function isoDateOf(raw: unknown, parameter: string): string | undefined {
  if (typeof raw === "number") {
    if (!Number.isFinite(raw) || raw < 1)
      throw new InputError(`${parameter} ${raw} is not a date: use a date cell or YYYY-MM-DD`);
    return new Date(Math.round((raw - UNIX_EPOCH_SERIAL) * DAY_MS)).toISOString().slice(0, 10);
  }
  const text = optionalText(raw);
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return isoDateOf(Number(text), parameter);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m || Number.isNaN(Date.parse(`${text}T00:00:00Z`)))
    throw new InputError(`${parameter} "${text}" is not a date: use a date cell or YYYY-MM-DD`);
  return text;
}
