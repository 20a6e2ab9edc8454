/**
 * Lane sheets: one row per origin/destination lane in, the same row with distances and emissions out.
 * Each row is read as the add-in's functions read their cells (lane-places.ts): the same place
 * grammar and name look-up, the same words for a problem (at most about 100 characters, naming the
 * argument), the same rounding (0.1 km, nm and kg). A blank row stays blank, a row repeating the
 * header is left blank, a bad row gets its message in `error` and the sheet goes on.
 */
import { cellSized } from "../client/cell-message";
import { DELIMITERS, Delimiter } from "../client/csv";
import { isRouteSheetsError } from "../engine/errors";
import { emissionsReport, FactorSets } from "../engine/emissions";
import type { RouteEngine } from "../engine/route-engine";
import { LaneInputError, LanePlaces } from "./lane-places";

export { DELIMITERS, type Delimiter } from "../client/csv";

export { OPTIONAL_COLUMNS, readHeader, REQUIRED_COLUMNS } from "../client/lane-columns";
export const OUTPUT_COLUMNS = [
  "distance_m",
  "distance_km",
  "distance_nm",
  "co2e_kg_per_teu",
  "co2e_kg_per_ton",
  "co2e_kg_shipment",
  "error",
] as const;

export type LaneRow = Record<string, string>;
export type OutputColumn = (typeof OUTPUT_COLUMNS)[number];
/** A row's results: numbers (unrounded figures rounded by `roundedResults`) or blank, and the error. */
export type LaneResults = Record<OutputColumn, string>;

const METRES_PER_NM = 1852;

/**
 * The delimiter of a sheet, from its header line: the one of `,` `;` tab that occurs most often
 * outside quotes (a comma on a tie or when none occurs).
 */
export function detectDelimiter(headerLine: string): Delimiter {
  const counts = new Map<string, number>(DELIMITERS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of headerLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best: Delimiter = ",";
  for (const d of DELIMITERS) if (counts.get(d)! > counts.get(best)!) best = d;
  return best;
}

const BLANK_RESULTS: LaneResults = {
  distance_m: "",
  distance_km: "",
  distance_nm: "",
  co2e_kg_per_teu: "",
  co2e_kg_per_ton: "",
  co2e_kg_shipment: "",
  error: "",
};

/** A cell by canonical column name, trimmed; undefined when absent or blank. */
function cell(row: LaneRow, name: string): string | undefined {
  const v = row[name]?.trim();
  return v ? v : undefined;
}

/** A row with neither origin nor destination: left blank, as the functions leave it. */
export function isBlankLane(row: LaneRow): boolean {
  return !cell(row, "origin") && !cell(row, "destination");
}

/** A row that repeats the header ("Origin", "Destination"): a second sheet pasted below the first. */
export function isHeaderRow(row: LaneRow): boolean {
  return (
    cell(row, "origin")?.toLowerCase() === "origin" &&
    cell(row, "destination")?.toLowerCase() === "destination"
  );
}

/** Computes lane rows against one engine, with the place look-ups shared across rows. */
export class LaneCalculator {
  readonly places: LanePlaces;

  constructor(
    readonly engine: RouteEngine,
    readonly sets: FactorSets
  ) {
    this.places = new LanePlaces(engine);
  }

  /**
   * The engine's query for a row: places resolved as the add-in resolves them, a blank modality
   * meaning DEEPSEA. LaneInputError for a place that is none.
   */
  query(row: LaneRow): LaneQuery {
    return {
      origin: this.places.place(row.origin ?? "", "origin"),
      destination: this.places.place(row.destination ?? "", "destination"),
      modality: cell(row, "modality") ?? "DEEPSEA",
      vesselInfo: cell(row, "vesselInfo"),
      containerType: cell(row, "containerType"),
      fuelType: cell(row, "fuelType"),
      avoid: cell(row, "avoid"),
      via: cell(row, "via"),
      containers: cell(row, "containers"),
      weightTons: cell(row, "weightTons"),
      factorSet: cell(row, "factorSet"),
    };
  }

  /** The row's results, unrounded (see roundedResults); blank for a blank or header row. */
  compute(row: LaneRow): LaneResults {
    const out = { ...BLANK_RESULTS };
    if (isBlankLane(row) || isHeaderRow(row)) return out;
    let query: LaneQuery;
    try {
      query = this.query(row);
    } catch (err) {
      out.error = this.describe(err, row);
      return out;
    }
    // One call gives every figure. When it fails, the distance alone tells which message the
    // row gets: the distance's own (a bad place), or the emissions' with the distance filled in.
    let distance: number;
    try {
      const report = emissionsReport(this.engine, this.sets, query);
      out.co2e_kg_per_teu = String(report.co2eTeu);
      out.co2e_kg_per_ton = String(report.co2eTon);
      if (report.co2eKg !== undefined) out.co2e_kg_shipment = String(report.co2eKg);
      distance = report.distance;
    } catch (emissionsError) {
      try {
        distance = this.engine.distance(query).distance;
        out.error = this.describe(emissionsError, row);
      } catch (err) {
        out.error = this.describe(err, row);
        return out;
      }
    }
    out.distance_m = String(distance);
    out.distance_km = String(distance / 1000);
    out.distance_nm = String(distance / METRES_PER_NM);
    return out;
  }

  /** A row's error in the functions' words, cut to fit a cell. */
  describe(err: unknown, row: LaneRow): string {
    if (err instanceof LaneInputError) return cellSized(err.message);
    const suggestion = this.places.suggestion(err, row);
    if (suggestion) return cellSized(suggestion);
    if (isRouteSheetsError(err)) return cellSized(err.detail);
    return cellSized(err instanceof Error ? err.message : String(err));
  }
}

export type LaneQuery = Parameters<typeof emissionsReport>[2] & { via?: string };

/** Digits each output column is written with: whole metres, 0.1 km, nm and kg everywhere. */
const DIGITS: Record<Exclude<OutputColumn, "error">, number> = {
  distance_m: 0,
  distance_km: 1,
  distance_nm: 1,
  co2e_kg_per_teu: 1,
  co2e_kg_per_ton: 1,
  co2e_kg_shipment: 1,
};

/** The results at the precision every surface shows them, numbers as numbers (point decimals). */
export function roundedResults(results: LaneResults): Record<OutputColumn, number | string> {
  const out: Record<OutputColumn, number | string> = { ...results };
  for (const [column, digits] of Object.entries(DIGITS) as [keyof typeof DIGITS, number][]) {
    const text = results[column];
    if (text === "") continue;
    const scale = 10 ** digits;
    out[column] = Math.round(Number(text) * scale) / scale;
  }
  return out;
}
