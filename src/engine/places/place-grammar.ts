/**
 * The one grammar of what a user may type for a place, shared by the service (parse-place.ts) and
 * the Excel add-in (functions/place-type.ts, bundled by webpack). Pure: no imports, no I/O, no
 * errors thrown; each caller turns a reading into its own kind of error.
 *
 * - UN/LOCODE: 2-letter country + 3 letters or digits 2-9 (UN/LOCODE manual, section 3), with the
 *   optional space or hyphen people type between the parts ("NL RTM", "nl-rtm"); any case.
 * - Terminal id: a UUID, any case.
 * - Coordinates: "lat,lng" in decimal degrees, optional sign (+ or -), leading digits optional
 *   (".5,4"), spaces around the comma allowed; lat in [-90, 90], lng in [-180, 180].
 */

export type PlaceForm =
  | { kind: "LOCODE"; locode: string }
  | { kind: "TERMINAL"; id: string }
  | { kind: "GEO"; lat: number; lng: number };

export type PlaceReading =
  | PlaceForm
  | { kind: "EMPTY" }
  | { kind: "OUT_OF_RANGE"; axis: "latitude" | "longitude"; value: string }
  | { kind: "UNKNOWN" };

/** The allowed forms, for error messages of both the service and the add-in. */
export const PLACE_FORMS =
  "allowed forms: a UN/LOCODE (5 characters, e.g. NLRTM), a terminal UUID (e.g. 3f2b8c1e-9d4a-5b6c-8e7f-0a1b2c3d4e5f) " +
  'or "lat,lng" in decimal degrees with lat in [-90,90] and lng in [-180,180] (e.g. 51.95,4.05)';

/** 2-letter country code + 3 letters or digits 2-9. */
export const LOCODE_PATTERN = /^[A-Z]{2}[A-Z2-9]{3}$/;

const LOCODE_AS_TYPED = /^([A-Za-z]{2})[\s-]?([A-Za-z2-9]{3})$/;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const LAT_LNG_PATTERN = new RegExp(String.raw`^(${NUMBER})\s*,\s*(${NUMBER})$`);

/**
 * Upper-case LOCODE without the optional separator ("nl-rtm" → "NLRTM"); undefined when `text`
 * is not shaped like a LOCODE.
 */
export function normaliseLocode(text: string): string | undefined {
  const m = LOCODE_AS_TYPED.exec(text.trim());
  return m ? (m[1] + m[2]).toUpperCase() : undefined;
}

export function isUuid(text: string): boolean {
  return UUID_PATTERN.test(text.trim());
}

/** What `raw` is as a place (a cell value may be a number or null, hence unknown). */
export function readPlace(raw: unknown): PlaceReading {
  const text = raw === null || raw === undefined ? "" : String(raw).trim();
  if (text === "") return { kind: "EMPTY" };
  const locode = normaliseLocode(text);
  if (locode) return { kind: "LOCODE", locode };
  if (isUuid(text)) return { kind: "TERMINAL", id: text.toLowerCase() };
  const m = LAT_LNG_PATTERN.exec(text);
  if (!m) return { kind: "UNKNOWN" };
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!(lat >= -90 && lat <= 90)) return { kind: "OUT_OF_RANGE", axis: "latitude", value: m[1] };
  if (!(lng >= -180 && lng <= 180)) return { kind: "OUT_OF_RANGE", axis: "longitude", value: m[2] };
  // + 0 turns -0 into 0, which would print oddly and key caches differently.
  return { kind: "GEO", lat: lat + 0, lng: lng + 0 };
}

/** The canonical text of a place, as sent to the service and used in cache keys. */
export function placeText(place: PlaceForm): string {
  switch (place.kind) {
    case "LOCODE":
      return place.locode;
    case "TERMINAL":
      return place.id;
    case "GEO":
      return `${place.lat},${place.lng}`;
  }
}

/** The message for a reading that is not a place, naming the parameter and the allowed forms. */
export function placeProblem(reading: PlaceReading, parameter: string, raw: unknown): string {
  const typed = raw === null || raw === undefined ? "" : String(raw);
  switch (reading.kind) {
    case "EMPTY":
      return `${parameter} is required; ${PLACE_FORMS}.`;
    case "OUT_OF_RANGE":
      return `${parameter} "${typed}": ${reading.axis} ${reading.value} is out of range; ${PLACE_FORMS}.`;
    default:
      return `${parameter} "${typed}" is not a place; ${PLACE_FORMS}.`;
  }
}
