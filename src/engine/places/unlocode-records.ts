/**
 * Turns rows of the UN/LOCODE code list (as UNECE publishes it in "… CodeListPart1.csv" etc.,
 * already split into fields) into normalised locations. Pure: the CSV reading lives in src/data.
 *
 * Columns: Change, Country, Location, Name, NameWoDiacritics, Subdivision, Status, Function,
 * Date, IATA, Coordinates, Remarks. Rows without a Location are country headers (".ANDORRA")
 * or reference entries ("=" Ruwais = Ar Ruways); Change "X" marks an entry for deletion.
 */
import { parseUnlocodeCoordinates } from "./unlocode-coordinates";
import { LOCODE_PATTERN } from "./parse-place";

export interface UnlocodeLocation {
  locode: string;
  name: string;
  subdivision: string;
  /** Status indicator, e.g. AI, RL. */
  status: string;
  /** Function classifier, e.g. `1-3-----` (1 = port, 2 = rail, 3 = road, 4 = airport, 6 = ICD…). */
  functions: string;
  lat?: number;
  lng?: number;
}

export interface UnlocodeImportStats {
  /** Rows read, all kinds. */
  rows: number;
  /** Country header and reference rows (no Location). */
  headers: number;
  /** Rows marked X (for deletion). */
  deleted: number;
  /**
   * Rows whose country/location do not form a LOCODE, that have no name, a name longer than
   * MAX_PLACE_NAME characters, or control characters in a field.
   */
  malformed: number;
  /** Rows repeating a LOCODE already read (the first one with coordinates is kept). */
  duplicates: number;
  /** Distinct locations kept. */
  imported: number;
  /** Kept locations that have usable coordinates. */
  withCoordinates: number;
}

const FUNCTION_PATTERN = /^[0-9B-]{8}$/;
/** Longest name kept: UNECE's longest are about 70 characters. */
export const MAX_PLACE_NAME = 100;
/** C0 and C1 control characters (tab, NUL, …): no field of the list has any. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const STATUS_PATTERN = /^[A-Z]{2}$/;

/** Collects locations from any number of code-list files (Part1, Part2, …). */
export class UnlocodeCollector {
  private readonly byCode = new Map<string, UnlocodeLocation>();
  private readonly counts = { rows: 0, headers: 0, deleted: 0, malformed: 0, duplicates: 0 };

  add(fields: readonly string[]): void {
    this.counts.rows++;
    const f = (i: number) => (fields[i] ?? "").trim();
    const change = f(0);
    const location = f(2);
    if (!location) {
      this.counts.headers++;
      return;
    }
    if (change.toUpperCase() === "X") {
      this.counts.deleted++;
      return;
    }
    const locode = (f(1) + location).toUpperCase();
    const name = f(3) || f(4);
    if (
      !LOCODE_PATTERN.test(locode) ||
      !name ||
      name.length > MAX_PLACE_NAME ||
      fields.some((x) => CONTROL.test(x ?? ""))
    ) {
      this.counts.malformed++;
      return;
    }
    // Some exports swap Status and Function; tell them apart by shape.
    let status = f(6);
    let functions = f(7);
    if (FUNCTION_PATTERN.test(status) && STATUS_PATTERN.test(functions))
      [status, functions] = [functions, status];
    const coords = parseUnlocodeCoordinates(f(10));
    const entry: UnlocodeLocation = {
      locode,
      name,
      subdivision: f(5),
      status,
      functions,
      ...coords,
    };
    const previous = this.byCode.get(locode);
    if (previous) {
      this.counts.duplicates++;
      if (previous.lat !== undefined || entry.lat === undefined) return;
    }
    this.byCode.set(locode, entry);
  }

  locations(): UnlocodeLocation[] {
    return [...this.byCode.values()];
  }

  stats(): UnlocodeImportStats {
    let withCoordinates = 0;
    for (const l of this.byCode.values()) if (l.lat !== undefined) withCoordinates++;
    return { ...this.counts, imported: this.byCode.size, withCoordinates };
  }
}
