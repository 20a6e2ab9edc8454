/**
 * Lane sheets: one row per origin/destination lane in, the same row with distances and emissions out.
 * A bad row gets its message in `error` and the sheet goes on; rows keep their order.
 */
import { ErrorKind, isRouteSheetsError } from "../engine/errors";
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

/** Delimiters European and other Excels write a CSV with. */
export const DELIMITERS = [",", ";", "\t"] as const;
export type Delimiter = (typeof DELIMITERS)[number];

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

const KNOWN_COLUMNS: readonly string[] = [...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS];

/**
 * The input's header checked and read: names compared case-insensitively (Origin, ORIGIN…), each
 * known one mapped to its canonical spelling. Throws naming duplicate or missing columns.
 * Returns, per column, the canonical name (or the header as written for other columns).
 */
export function readHeader(header: string[]): string[] {
  const seen = new Map<string, number>();
  const duplicates: string[] = [];
  header.forEach((name, i) => {
    const folded = name.trim().toLowerCase();
    const first = seen.get(folded);
    if (first !== undefined)
      duplicates.push(`"${name.trim()}" (columns ${first + 1} and ${i + 1})`);
    else seen.set(folded, i);
  });
  if (duplicates.length)
    throw new Error(
      `Input has duplicate column name(s): ${duplicates.join(", ")}; each column name may appear once (names are compared without regard to case).`
    );
  const columns = header.map(
    (name) =>
      KNOWN_COLUMNS.find((k) => k.toLowerCase() === name.trim().toLowerCase()) ?? name.trim()
  );
  const missing = REQUIRED_COLUMNS.filter((c) => !columns.includes(c));
  if (missing.length) {
    throw new Error(
      `Input is missing column(s) ${missing.join(", ")}: required columns are ${REQUIRED_COLUMNS.join(", ")}; ` +
        `optional: ${OPTIONAL_COLUMNS.join(", ")} (names in any case).`
    );
  }
  return columns;
}

/**
 * A cell as written for Excel: text starting with = + - @ would run as a formula when the sheet
 * is opened, so it gets a leading apostrophe (Excel shows the text as typed).
 */
export function excelSafe(cell: string): string {
  return /^[=+\-@]/.test(cell) ? `'${cell}` : cell;
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
    // A blank modality means DEEPSEA, as in the Excel functions.
    modality: row.modality?.trim() ? row.modality : "DEEPSEA",
    vesselInfo: row.vesselInfo,
    containerType: row.containerType,
    fuelType: row.fuelType,
    avoid: row.avoid,
  };
  // One call gives both figures. When it fails, the distance alone tells which message the row
  // gets: the distance's own (a bad place), or the emissions' with the distance still filled in.
  let distance: number;
  try {
    const { co2eTeu, co2eTon, distance: routed } = engine.emissions(query);
    out.co2e_kg_per_teu = fixed(co2eTeu, 3);
    out.co2e_kg_per_ton = fixed(co2eTon, 3);
    distance = routed;
  } catch (emissionsError) {
    try {
      distance = engine.distance(query).distance;
      out.error = describe(emissionsError);
    } catch (err) {
      out.error = describe(err);
      return out;
    }
  }
  out.distance_m = String(distance);
  out.distance_km = fixed(distance / 1000, 3);
  out.distance_nm = fixed(distance / METRES_PER_NM, 3);
  return out;
}

function fixed(n: number, digits: number): string {
  return String(Number(n.toFixed(digits)));
}

/** The label that starts a row's error message, per kind of engine error. */
const LABEL_OF_KIND: Record<ErrorKind, string> = {
  "bad-value": "Incorrect Values",
  "unknown-data": "Unknown Data",
  "no-route": "Not Found",
};

function describe(err: unknown): string {
  if (isRouteSheetsError(err)) return `${LABEL_OF_KIND[err.kind]}: ${err.detail}`;
  return `System Error: ${err instanceof Error ? err.message : String(err)}`;
}
