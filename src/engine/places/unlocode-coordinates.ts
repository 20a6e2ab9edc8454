/**
 * UN/LOCODE writes coordinates to the minute as `ddmmN dddmmE` (e.g. `5155N 00430E`);
 * see the UN/LOCODE Manual, "Coordinates" column.
 */
import { LatLng } from "../types";

const COORDINATES_PATTERN = /^(\d{2})(\d{2})([NS])\s*(\d{3})(\d{2})([EW])$/i;

/** Decimal degrees (4 decimals) or undefined when the field is empty or malformed. */
export function parseUnlocodeCoordinates(field: string | undefined): LatLng | undefined {
  const m = COORDINATES_PATTERN.exec((field ?? "").trim());
  if (!m) return undefined;
  const [latDeg, latMin, lngDeg, lngMin] = [m[1], m[2], m[4], m[5]].map(Number);
  if (latMin >= 60 || lngMin >= 60) return undefined;
  const lat = (latDeg + latMin / 60) * (m[3].toUpperCase() === "S" ? -1 : 1);
  const lng = (lngDeg + lngMin / 60) * (m[6].toUpperCase() === "W" ? -1 : 1);
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return undefined;
  return { lat: round4(lat), lng: round4(lng) };
}

function round4(x: number): number {
  return Math.round(x * 1e4) / 1e4 + 0;
}
