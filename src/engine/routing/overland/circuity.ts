/**
 * Circuity (detour) factors: network distance ÷ ellipsoidal great-circle distance, per modality and
 * region. The factors and their sources live in data/circuity.csv.
 */
export const CIRCUITY_REGIONS = [
  "EUROPE",
  "NORTH_AMERICA",
  "CHINA",
  "ASIA_OTHER",
  "CHINA_EUROPE_RAIL",
  "DEFAULT",
] as const;
export type CircuityRegion = (typeof CIRCUITY_REGIONS)[number];
export type OverlandModality = "RAIL" | "TRUCK";

export interface CircuityFactor {
  modality: OverlandModality;
  region: CircuityRegion;
  factor: number;
  source: string;
}

export class CircuityTable {
  private readonly byKey = new Map<string, CircuityFactor>();

  constructor(rows: ReadonlyArray<CircuityFactor>) {
    for (const row of rows) {
      if (!(row.factor >= 1 && row.factor < 3)) {
        throw new Error(
          `circuity factor ${row.factor} for ${row.modality}/${row.region} is outside [1, 3)`
        );
      }
      this.byKey.set(`${row.modality}|${row.region}`, row);
    }
    for (const m of ["RAIL", "TRUCK"] as const) {
      if (!this.byKey.has(`${m}|DEFAULT`))
        throw new Error(`circuity table has no DEFAULT factor for ${m}`);
    }
  }

  /** The factor of the region, or the modality's DEFAULT when the region has none. */
  lookup(modality: OverlandModality, region: CircuityRegion): CircuityFactor {
    return (
      this.byKey.get(`${modality}|${region}`) ??
      (this.byKey.get(`${modality}|DEFAULT`) as CircuityFactor)
    );
  }
}

/** Region of a whole trip from the regions of its two ends. */
export function tripRegion(
  modality: OverlandModality,
  a: CircuityRegion,
  b: CircuityRegion
): CircuityRegion {
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (modality === "RAIL" && pair.has("CHINA") && pair.has("EUROPE")) return "CHINA_EUROPE_RAIL";
  return "DEFAULT";
}
