/** Classifies what a user typed for a place: UN/LOCODE, terminal UUID or `lat,lng`. No lookups here. */
import { incorrectValues } from "../errors";
import { LatLng, PlaceInput } from "../types";

/** 2-letter country code + 3 letters or digits 2-9 (UN/LOCODE manual, section 3). */
export const LOCODE_PATTERN = /^[A-Z]{2}[A-Z2-9]{3}$/;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)`;
const LAT_LNG_PATTERN = new RegExp(String.raw`^(${NUMBER})\s*,\s*(${NUMBER})$`);

export const PLACE_FORMS =
  "allowed forms: a UN/LOCODE (5 characters, e.g. NLRTM), a terminal UUID (e.g. 3f2b8c1e-9d4a-5b6c-8e7f-0a1b2c3d4e5f) " +
  'or "lat,lng" in decimal degrees with lat in [-90,90] and lng in [-180,180] (e.g. 51.95,4.05)';

/**
 * Upper-case LOCODE without the optional separator users type between country and location
 * ("NL RTM", "nl-rtm"); undefined when `value` is not shaped like a LOCODE.
 */
export function normaliseLocode(value: string): string | undefined {
  const m = /^([A-Za-z]{2})[\s-]?([A-Za-z2-9]{3})$/.exec(value.trim());
  return m ? (m[1] + m[2]).toUpperCase() : undefined;
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value.trim());
}

/** `lat,lng` in decimal degrees; undefined when not of that shape, throws when out of range. */
export function parseLatLng(value: string, parameter: string): LatLng | undefined {
  const m = LAT_LNG_PATTERN.exec(value.trim());
  if (!m) return undefined;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw incorrectValues(
      parameter,
      `${parameter} "${value}": latitude ${m[1]} is out of range; ${PLACE_FORMS}.`
    );
  }
  if (!Number.isFinite(lng) || lng < -180 || lng > 180) {
    throw incorrectValues(
      parameter,
      `${parameter} "${value}": longitude ${m[2]} is out of range; ${PLACE_FORMS}.`
    );
  }
  // -0 would print oddly and key caches differently from 0.
  return { lat: lat + 0, lng: lng + 0 };
}

/** Classifies `value` or throws Incorrect Values naming `parameter` and the allowed forms. */
export function parsePlaceInput(value: string, parameter: string): PlaceInput {
  const text = (value ?? "").trim();
  if (!text) throw incorrectValues(parameter, `${parameter} is required; ${PLACE_FORMS}.`);
  const locode = normaliseLocode(text);
  if (locode) return { kind: "LOCODE", locode };
  if (isUuid(text)) return { kind: "TERMINAL", id: text.toLowerCase() };
  const geo = parseLatLng(text, parameter);
  if (geo) return { kind: "GEO", lat: geo.lat, lng: geo.lng };
  throw incorrectValues(parameter, `${parameter} "${value}" is not a place; ${PLACE_FORMS}.`);
}
