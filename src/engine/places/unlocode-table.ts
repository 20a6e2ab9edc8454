/**
 * The imported UN/LOCODE list in a columnar form that loads fast: ~115,000 locations as one
 * sorted string of codes plus parallel arrays, looked up by binary search (no per-row objects
 * or Map to build at start-up).
 */
import { PortRecord, PortSource } from "./port-registry";
import { UnlocodeLocation } from "./unlocode-records";

export interface UnlocodeColumns {
  /** All LOCODEs, 5 characters each, concatenated in ascending order. */
  locodes: string;
  names: string[];
  subdivisions: string[];
  statuses: string[];
  functions: string[];
  lat: (number | null)[];
  lng: (number | null)[];
  /** Shipped list only: what each position rests on (see PortRecord.basis). */
  basis?: string[];
  /** Shipped list only: GeoNames population, 0 when unknown. */
  population?: number[];
  /** Shipped list only: the subdivision's name. */
  regions?: string[];
}

export function toUnlocodeColumns(locations: readonly UnlocodeLocation[]): UnlocodeColumns {
  const sorted = [...locations].sort((a, b) =>
    a.locode < b.locode ? -1 : a.locode > b.locode ? 1 : 0
  );
  return {
    locodes: sorted.map((l) => l.locode).join(""),
    names: sorted.map((l) => l.name),
    subdivisions: sorted.map((l) => l.subdivision),
    statuses: sorted.map((l) => l.status),
    functions: sorted.map((l) => l.functions),
    lat: sorted.map((l) => l.lat ?? null),
    lng: sorted.map((l) => l.lng ?? null),
  };
}

export class UnlocodeTable implements PortSource {
  readonly size: number;

  constructor(
    private readonly columns: UnlocodeColumns,
    /** Citation put on every record. */
    readonly source: string
  ) {
    this.size = columns.locodes.length / 5;
    if (
      !Number.isInteger(this.size) ||
      columns.names.length !== this.size ||
      columns.lat.length !== this.size ||
      columns.lng.length !== this.size
    ) {
      throw new Error("UN/LOCODE table columns have different lengths");
    }
  }

  get(locode: string): PortRecord | undefined {
    const i = this.indexOf(locode);
    return i < 0 ? undefined : this.record(i);
  }

  /** The full location (status, function, subdivision) of `locode`. */
  location(locode: string): UnlocodeLocation | undefined {
    const i = this.indexOf(locode);
    if (i < 0) return undefined;
    const c = this.columns;
    const l: UnlocodeLocation = {
      locode,
      name: c.names[i],
      subdivision: c.subdivisions[i] ?? "",
      status: c.statuses[i] ?? "",
      functions: c.functions[i] ?? "",
    };
    if (c.lat[i] !== null && c.lng[i] !== null) Object.assign(l, { lat: c.lat[i], lng: c.lng[i] });
    return l;
  }

  /** Every record, with its function classifier (what the place search needs to know). */
  *values(): IterableIterator<PortRecord> {
    for (let i = 0; i < this.size; i++) yield this.record(i);
  }

  private record(i: number): PortRecord {
    const c = this.columns;
    const locode = c.locodes.slice(i * 5, i * 5 + 5);
    const lat = c.lat[i];
    const lng = c.lng[i];
    const r: PortRecord =
      lat === null || lng === null
        ? { locode, name: c.names[i], source: this.source }
        : { locode, name: c.names[i], lat, lng, source: this.source };
    if (c.functions[i]) r.functions = c.functions[i];
    if (c.subdivisions[i]) r.subdivision = c.subdivisions[i];
    if (c.basis?.[i]) r.basis = c.basis[i];
    if (c.population?.[i]) r.population = c.population[i];
    if (c.regions?.[i]) r.region = c.regions[i];
    return r;
  }

  /** Each code as one number (codeNumber), in the table's order: searched without strings. */
  private numbers?: Int32Array;

  private indexOf(locode: string): number {
    const wanted = locode.length === 5 ? codeNumber(locode, 0) : -1;
    if (wanted < 0) return -1;
    const numbers = (this.numbers ??= codeNumbers(this.columns.locodes, this.size));
    let lo = 0;
    let hi = this.size - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const n = numbers[mid];
      if (n === wanted) return mid;
      if (n < wanted) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/**
 * A 5-character code as a number in base 37 (digits 1–10, letters 11–36), which keeps the codes'
 * string order and fits an Int32 (37^5 < 2^31): the 5 characters of `text` from `at`; -1 when
 * they are not digits or capitals.
 */
export function codeNumber(text: string, at: number): number {
  if (text.length < at + 5) return -1;
  let n = 0;
  for (let i = at; i < at + 5; i++) {
    const c = text.charCodeAt(i);
    const d = c >= 65 && c <= 90 ? c - 54 : c >= 48 && c <= 57 ? c - 47 : -1;
    if (d < 0) return -1;
    n = n * 37 + d;
  }
  return n;
}

function codeNumbers(locodes: string, size: number): Int32Array {
  const out = new Int32Array(size);
  for (let i = 0; i < size; i++) out[i] = codeNumber(locodes, i * 5);
  return out;
}
