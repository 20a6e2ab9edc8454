/** Distance units of ROUTE.DISTANCE and per-unit choices of ROUTE.EMISSIONS. */
import { avoidProblem, avoidText, readAvoid } from "../engine/passage-grammar";
import { MODALITIES } from "../engine/types";
import { InputError, quoted } from "./excel-errors";

/** Metres per unit: international nautical mile (1,852 m) and statute mile (1,609.344 m). */
export const METRES_PER_UNIT = { m: 1, km: 1000, nm: 1852, mi: 1609.344 } as const;
export type DistanceUnit = keyof typeof METRES_PER_UNIT;

export function parseUnit(raw: unknown): DistanceUnit {
  const unit = optionalText(raw)?.toLowerCase() ?? "km";
  if (!(unit in METRES_PER_UNIT)) {
    throw new InputError(`unit ${quoted(raw)} is not allowed: use one of m, km, nm, mi`);
  }
  return unit as DistanceUnit;
}

export function fromMetres(metres: number, unit: DistanceUnit): number {
  return metres / METRES_PER_UNIT[unit];
}

export type EmissionsBasis = "TEU" | "TON";

export function parseBasis(raw: unknown): EmissionsBasis {
  const per = optionalText(raw)?.toUpperCase() ?? "TEU";
  if (per !== "TEU" && per !== "TON")
    throw new InputError(`per ${quoted(raw)} is not allowed: use TEU or TON`);
  return per;
}

/** One of the engine's modalities (DISTANCE, EMISSIONS and the rest); a blank cell means DEEPSEA. */
export function parseModality(raw: unknown): string {
  const modality = optionalText(raw)?.toUpperCase() ?? "DEEPSEA";
  if (!(MODALITIES as readonly string[]).includes(modality))
    throw new InputError(
      `modality ${quoted(raw, 20)} is not allowed: use one of ${MODALITIES.join(", ")}`
    );
  return modality;
}

/**
 * Passages to avoid ("suez; panama", "Bab el Mandeb" → "BAB_EL_MANDEB"), read by the one grammar
 * the service and `lanes` use (engine/passage-grammar.ts), in one spelling per set so equal
 * questions share a cache entry. #VALUE! naming a piece that is no passage.
 */
export function parseAvoid(raw: unknown): string | undefined {
  const reading = readAvoid(raw);
  if (reading.kind === "UNKNOWN") throw new InputError(avoidProblem(reading.item));
  return avoidText(reading.passages);
}

/** TRUE/FALSE, 1/0 or the words; undefined when not given. */
export function optionalBoolean(raw: unknown, parameter: string): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  const text = optionalText(raw)?.toUpperCase();
  if (text === undefined) return undefined;
  if (text === "TRUE" || text === "1") return true;
  if (text === "FALSE" || text === "0") return false;
  throw new InputError(`${parameter} ${quoted(raw)} is not allowed: use TRUE or FALSE`);
}

/** Optional arguments arrive as null (or undefined, or an empty cell's ""); all mean "not given". */
export function optionalText(raw: unknown): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim();
  return text === "" ? undefined : text;
}

/** An optional whole number ≥ min; #VALUE! naming the parameter otherwise. */
export function optionalInteger(raw: unknown, parameter: string, min: number): number | undefined {
  const text = optionalText(raw);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new InputError(
      `${parameter} ${quoted(text)} is not allowed: use a whole number of at least ${min}`
    );
  }
  return value;
}

/** Rounded to one decimal: the precision the distances (0.1 km, 0.1 nm) and emissions (0.1 kg) have. */
export function oneDecimal(value: number): number {
  return Math.round(value * 10) / 10;
}

/** A distance in `unit` at the precision the data has: 0.1 km, nm or mi; whole metres. */
export function roundedDistance(metres: number, unit: DistanceUnit): number {
  const value = fromMetres(metres, unit);
  return unit === "m" ? Math.round(value) : oneDecimal(value);
}
