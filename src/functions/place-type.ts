/** Recognises what a user typed for a place: a UN/LOCODE, a terminal uuid or a `lat,lng` pair. */
import { InputError } from "./excel-errors";

export type PlaceType = "LOCODE" | "TERMINAL" | "GEO";

export interface DetectedPlace {
  /** The value as it is sent: LOCODE upper-cased, coordinates without spaces. */
  value: string;
  type: PlaceType;
}

const LOCODE = /^[A-Z]{2}[A-Z2-9]{3}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LAT_LNG = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/;

/** The detected place, or undefined when the text is none of the three forms. */
export function detectPlace(raw: unknown): DetectedPlace | undefined {
  const text = String(raw ?? "").trim();
  const upper = text.toUpperCase().replace(/\s+/g, "");
  if (LOCODE.test(upper)) return { value: upper, type: "LOCODE" };
  if (UUID.test(text)) return { value: text.toLowerCase(), type: "TERMINAL" };
  const geo = LAT_LNG.exec(text);
  if (geo) {
    const lat = Number(geo[1]);
    const lng = Number(geo[2]);
    if (lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)
      return { value: `${geo[1]},${geo[2]}`, type: "GEO" };
  }
  return undefined;
}

/** Like detectPlace, but a #VALUE! naming the parameter and the allowed forms when unrecognised. */
export function requirePlace(raw: unknown, parameter: string): DetectedPlace {
  const place = detectPlace(raw);
  if (!place) {
    throw new InputError(
      `${parameter} "${String(raw ?? "")}" is not a place: use a UN/LOCODE (e.g. NLRTM), a terminal id (uuid) or "lat,lng" (e.g. 51.95,4.14)`
    );
  }
  return place;
}

/**
 * The value to send for distance/emissions: normalised when recognised, else as typed (the service
 * then answers with its own detail).
 */
export function normalizePlace(raw: unknown): string {
  return detectPlace(raw)?.value ?? String(raw ?? "").trim();
}
