/**
 * Lane sheets: one row per origin/destination lane in, the same row with distances and emissions out.
 * A bad row gets its message in `error` and the sheet goes on; rows keep their order.
 */
import { isRouteSheetsError } from "../engine/errors";
import { RouteEngine } from "../engine/route-engine";

export const REQUIRED_COLUMNS = ["origin", "destination", "modality"] as const;
export const OPTIONAL_COLUMNS = ["vesselInfo", "containerType", "fuelType", "avoid"] as const;
export const OUTPUT_COLUMNS = [
  "distance_m",
  "distance_km",
  "distance_nm",
  "co2e_kg_per_teu",
  "co2e_kg_per_ton",
  "error",
] as const;

export type LaneRow = Record<string, string>;
type OutputColumn = (typeof OUTPUT_COLUMNS)[number];

const METRES_PER_NM = 1852;

/** Throws when the header lacks a required column, naming what is missing. */
export function checkHeader(columns: string[]): void {
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new Error(
      `Input is missing column(s) ${missing.join(", ")}: required columns are ${REQUIRED_COLUMNS.join(", ")}; ` +
        `optional: ${OPTIONAL_COLUMNS.join(", ")}.`
    );
  }
}

export function computeLane(engine: RouteEngine, row: LaneRow): Record<OutputColumn, string> {
  const out: Record<OutputColumn, string> = {
    distance_m: "",
    distance_km: "",
    distance_nm: "",
    co2e_kg_per_teu: "",
    co2e_kg_per_ton: "",
    error: "",
  };
  const query = {
    origin: row.origin,
    destination: row.destination,
    modality: row.modality,
    vesselInfo: row.vesselInfo,
    containerType: row.containerType,
    fuelType: row.fuelType,
    avoid: row.avoid,
  };
  try {
    const { distance } = engine.distance(query);
    out.distance_m = String(distance);
    out.distance_km = fixed(distance / 1000, 3);
    out.distance_nm = fixed(distance / METRES_PER_NM, 3);
    const { co2eTeu, co2eTon } = engine.emissions(query);
    out.co2e_kg_per_teu = fixed(co2eTeu, 3);
    out.co2e_kg_per_ton = fixed(co2eTon, 3);
  } catch (err) {
    out.error = describe(err);
  }
  return out;
}

function fixed(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

function describe(err: unknown): string {
  if (isRouteSheetsError(err)) return `${err.title}: ${err.detail}`;
  return `System Error: ${err instanceof Error ? err.message : String(err)}`;
}
