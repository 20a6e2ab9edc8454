/** Parsing of the `vesselInfo` parameter: dimensions in centimetres, an IMO number or an MMSI. */
import { incorrectValues } from "../../errors";
import { VesselDimensions } from "../../types";

export type VesselInfo =
  | { kind: "DIMENSIONS"; dimensions: VesselDimensions }
  | { kind: "IMO"; imo: string }
  | { kind: "MMSI"; mmsi: string };

export function allowedForms(parameter: string): string {
  return (
    `${parameter} must be one of: "length,width,draught" in centimetres (three positive numbers, e.g. 36600,5125,1520), ` +
    `"IMO" followed by a 7-digit IMO number (e.g. IMO9811000) or "MMSI" followed by a 9-digit MMSI (e.g. MMSI353136000).`
  );
}

export function parseVesselInfo(value: string, parameter = "vesselInfo"): VesselInfo {
  const v = value.trim();
  const id = /^(IMO|MMSI)[\s:]*(\S*)$/i.exec(v);
  if (id) {
    const kind = id[1].toUpperCase() as "IMO" | "MMSI";
    const digits = id[2];
    if (kind === "IMO") {
      if (!/^\d{7}$/.test(digits)) {
        throw incorrectValues(
          parameter,
          `${parameter} "${value}": an IMO number has exactly 7 digits. ${allowedForms(parameter)}`
        );
      }
      if (!isValidImo(digits)) {
        throw incorrectValues(
          parameter,
          `${parameter} "${value}": ${digits} fails the IMO check digit. ${allowedForms(parameter)}`
        );
      }
      return { kind, imo: digits };
    }
    if (!/^\d{9}$/.test(digits)) {
      throw incorrectValues(
        parameter,
        `${parameter} "${value}": an MMSI has exactly 9 digits. ${allowedForms(parameter)}`
      );
    }
    return { kind, mmsi: digits };
  }
  const parts = v.split(",").map((p) => p.trim());
  const numbers = parts.map((p) => (/^\d+(\.\d+)?$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 3 || numbers.some((n) => !Number.isFinite(n) || n <= 0)) {
    throw incorrectValues(
      parameter,
      `${parameter} "${value}" is not valid. ${allowedForms(parameter)}`
    );
  }
  return {
    kind: "DIMENSIONS",
    dimensions: { lengthCm: numbers[0], widthCm: numbers[1], draughtCm: numbers[2] },
  };
}

/** IMO ship numbers: the 7th digit is the sum of the first six weighted 7..2, modulo 10. */
export function isValidImo(imo: string): boolean {
  if (!/^\d{7}$/.test(imo)) return false;
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(imo[i]) * (7 - i);
  return sum % 10 === Number(imo[6]);
}

export function isValidMmsi(mmsi: string): boolean {
  return /^\d{9}$/.test(mmsi);
}
