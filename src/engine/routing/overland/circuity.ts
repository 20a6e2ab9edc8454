/**
 * Circuity (detour) factors: network distance ÷ ellipsoidal great-circle distance, per modality,
 * region and distance band (a trip of `minKm` or more; the longest band it reaches applies). The
 * factors and their sources live in data/circuity.csv.
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
  /** The band starts here (km of great circle); 0 for the whole range. */
  minKm?: number;
  source: string;
}

export class CircuityTable {
  /** Per modality|region: bands by ascending minKm. */
  private readonly byKey = new Map<string, CircuityFactor[]>();

  constructor(rows: ReadonlyArray<CircuityFactor>) {
    for (const row of rows) {
      if (!(row.factor >= 1 && row.factor < 3)) {
        throw new Error(
          `circuity factor ${row.factor} for ${row.modality}/${row.region} is outside [1, 3)`
        );
      }
      const key = `${row.modality}|${row.region}`;
      const bands = this.byKey.get(key) ?? [];
      bands.push(row);
      bands.sort((a, b) => (a.minKm ?? 0) - (b.minKm ?? 0));
      this.byKey.set(key, bands);
    }
    for (const [key, bands] of this.byKey) {
      if ((bands[0].minKm ?? 0) !== 0)
        throw new Error(`circuity table ${key}: the first band must start at 0 km`);
    }
    for (const m of ["RAIL", "TRUCK"] as const) {
      if (!this.byKey.has(`${m}|DEFAULT`))
        throw new Error(`circuity table has no DEFAULT factor for ${m}`);
    }
  }

  /**
   * The factor of the region for a trip of `km` great-circle kilometres (the longest band it
   * reaches; the first band without `km`), or the modality's DEFAULT when the region has none.
   */
  lookup(modality: OverlandModality, region: CircuityRegion, km = 0): CircuityFactor {
    const bands =
      this.byKey.get(`${modality}|${region}`) ??
      (this.byKey.get(`${modality}|DEFAULT`) as CircuityFactor[]);
    let pick = bands[0];
    for (const b of bands) if ((b.minKm ?? 0) <= km) pick = b;
    return pick;
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
