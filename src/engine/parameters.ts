/**
 * Numeric request parameters, read one way everywhere: decimal digits only. `Number()` reads
 * `0x10` as 16, `1e3` as 1000 and `1e-310` as a denormal; none of them is what a user typed into a
 * cell, so each is a 400 naming the parameter and its allowed range.
 */
import { incorrectValues } from "./errors";

/** Whole numbers: digits, an optional leading +. */
const WHOLE = /^\+?\d+$/;
/** Decimals: digits with an optional fraction (point or comma), an optional leading +. */
const DECIMAL = /^\+?(\d+([.,]\d*)?|[.,]\d+)$/;

export interface NumberRange {
  min: number;
  max: number;
  /** The unit or kind named in the refusal, e.g. "knots". */
  unit?: string;
}

function given(v: string | number | undefined | null): v is string | number {
  return v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "");
}

function refuse(parameter: string, v: string | number, range: NumberRange, whole: boolean) {
  const unit = range.unit ? ` ${range.unit}` : "";
  const kind = whole ? "a whole number" : "a number";
  return incorrectValues(
    parameter,
    `${parameter} must be ${kind} from ${range.min} to ${range.max}${unit} in decimal digits${whole ? "" : " (e.g. 12.5)"}, got "${String(v).slice(0, 40)}".`
  );
}

/** A whole number within `range`, or undefined when not given. */
export function wholeNumber(
  v: string | number | undefined | null,
  parameter: string,
  range: NumberRange
): number | undefined {
  if (!given(v)) return undefined;
  const n = typeof v === "number" ? v : WHOLE.test(v.trim()) ? Number(v.trim()) : NaN;
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max)
    throw refuse(parameter, v, range, true);
  return n;
}

/** A decimal number within `range`, or undefined when not given. */
export function decimalNumber(
  v: string | number | undefined | null,
  parameter: string,
  range: NumberRange
): number | undefined {
  if (!given(v)) return undefined;
  const t = typeof v === "number" ? "" : v.trim();
  const n = typeof v === "number" ? v : DECIMAL.test(t) ? Number(t.replace(",", ".")) : NaN;
  if (!Number.isFinite(n) || n < range.min || n > range.max)
    throw refuse(parameter, v, range, false);
  return n;
}
