/** Dates between the service (ISO 8601, UTC) and Excel (serial days since 1899-12-30). */
import { InputError, quoted } from "./excel-errors";
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

/** Order of day, month and year in the user's dates with slashes ("12/1/2026" in en-US). */
export type DateOrder = "DMY" | "MDY";

/** Locales that write month first (Office's or the browser's language). */
const MONTH_FIRST = /^(en-US|en-PH|en-CA|es-US|fil|en-AS|en-GU|en-MH|en-MP|en-PR|en-UM|en-VI)\b/i;

/** The user's date order, from Office's content language, else the browser's; day first by default. */
export function userDateOrder(): DateOrder {
  const g = globalThis as {
    Office?: { context?: { contentLanguage?: string; displayLanguage?: string } };
    navigator?: { language?: string };
  };
  let language: string | undefined;
  try {
    language = g.Office?.context?.contentLanguage || g.Office?.context?.displayLanguage;
  } catch {
    language = undefined;
  }
  language ||= g.navigator?.language;
  return language && MONTH_FIRST.test(language) ? "MDY" : "DMY";
}

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ][\d:.]+Z?)?$/;
/** 01.12.2026, 1-12-2026, 01/12/2026, two-digit years too. */
const LOCALE_DATE = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})$/;

function isoOf(year: number, month: number, day: number): string | undefined {
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day)
    return undefined;
  return d.toISOString().slice(0, 10);
}

/** A date typed as text, as YYYY-MM-DD; undefined when it is not one. */
export function parseDateText(
  text: string,
  order: DateOrder = userDateOrder()
): string | undefined {
  const iso = ISO_DATE.exec(text);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = LOCALE_DATE.exec(text);
  if (!m) return undefined;
  const year = m[4].length === 2 ? 2000 + Number(m[4]) : Number(m[4]);
  // Dots and dashes are day-first everywhere; slashes follow the user's locale.
  const monthFirst = m[2] === "/" && order === "MDY";
  const [day, month] = monthFirst ? [m[3], m[1]] : [m[1], m[3]];
  return isoOf(year, Number(month), Number(day));
}

/**
 * A departure-window argument as the service's date (YYYY-MM-DD): an Excel date (a serial), an
 * ISO date (2026-12-01) or a date as the user's locale writes it (01.12.2026, 01/12/2026);
 * undefined when not given; #VALUE! naming the parameter otherwise.
 */
export function isoDateOf(
  raw: unknown,
  parameter: string,
  order: DateOrder = userDateOrder()
): string | undefined {
  const problem = (typed: unknown) =>
    new InputError(
      `${parameter} ${quoted(typed)} is not a date: use a date cell, 2026-12-01 or 01.12.2026`
    );
  if (typeof raw === "number") {
    if (!Number.isFinite(raw) || raw < 1) throw problem(raw);
    return new Date(Math.round((Math.floor(raw) - UNIX_EPOCH_SERIAL) * DAY_MS))
      .toISOString()
      .slice(0, 10);
  }
  const text = optionalText(raw);
  if (text === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return isoDateOf(Number(text), parameter, order);
  const iso = parseDateText(text, order);
  if (!iso) throw problem(text);
  return iso;
}
