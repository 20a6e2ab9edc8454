/**
 * The shipped UN/LOCODE list (data/places-unlocode.csv, ~27,000 codes) as its snapshot holds it:
 * typed arrays only (codes as base-37 numbers, positions, populations, every text field as UTF-8
 * bytes with offsets), so the first code look-up of a process reads ~1.5 MB of arrays instead of
 * parsing a 2.1 MB JSON header into ~190,000 strings (20-65 ms, and their garbage). A record's
 * text is decoded when the record is asked for.
 *
 * PackedUnlocodeTable gives the records engine/places/unlocode-table.ts's UnlocodeTable gives for
 * the same columns (test/data/unlocode-snapshot.test.ts compares every code of the shipped list).
 */
import type { PortRecord, PortSource } from "../engine/places/port-registry";
import { codeNumber, UnlocodeColumns } from "../engine/places/unlocode-table";

/** The text fields of a row, in the order they are packed. */
const TEXT_FIELDS = ["names", "functions", "subdivisions", "basis", "regions"] as const;
const FIELDS = TEXT_FIELDS.length;

export interface PackedUnlocode {
  /** Each code as codeNumber() gives it, ascending (the list's order). */
  codes: Int32Array;
  /** NaN where the list has no position. */
  lat: Float64Array;
  lng: Float64Array;
  /** GeoNames population, 0 when unknown. */
  population: Float64Array;
  /** UTF-8 of every row's text fields, row after row in TEXT_FIELDS order. */
  text: Uint8Array;
  /** Field f of row i: text[textStart[i * FIELDS + f] .. textStart[i * FIELDS + f + 1]). */
  textStart: Int32Array;
}

export function packUnlocode(columns: UnlocodeColumns): PackedUnlocode {
  const size = columns.locodes.length / 5;
  const codes = new Int32Array(size);
  const lat = new Float64Array(size);
  const lng = new Float64Array(size);
  const population = new Float64Array(size);
  const pieces: Buffer[] = [];
  const textStart = new Int32Array(size * FIELDS + 1);
  let at = 0;
  for (let i = 0; i < size; i++) {
    codes[i] = codeNumber(columns.locodes, 5 * i);
    if (codes[i] < 0 || (i > 0 && codes[i] <= codes[i - 1]))
      throw new Error(`UN/LOCODE snapshot: code #${i} is not a code in ascending order`);
    lat[i] = columns.lat[i] ?? NaN;
    lng[i] = columns.lng[i] ?? NaN;
    population[i] = columns.population?.[i] ?? 0;
    for (let f = 0; f < FIELDS; f++) {
      const bytes = Buffer.from(columns[TEXT_FIELDS[f]]?.[i] ?? "", "utf8");
      pieces.push(bytes);
      textStart[i * FIELDS + f] = at;
      at += bytes.length;
    }
  }
  textStart[size * FIELDS] = at;
  return { codes, lat, lng, population, text: new Uint8Array(Buffer.concat(pieces)), textStart };
}

export class PackedUnlocodeTable implements PortSource {
  readonly size: number;
  private readonly text: Buffer;

  constructor(
    private readonly packed: PackedUnlocode,
    /** Citation put on every record. */
    readonly source: string
  ) {
    this.size = packed.codes.length;
    const { text } = packed;
    this.text = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
    if (
      packed.lat.length !== this.size ||
      packed.lng.length !== this.size ||
      packed.population.length !== this.size ||
      packed.textStart.length !== this.size * FIELDS + 1
    )
      throw new Error("UN/LOCODE snapshot: columns of different lengths");
  }

  get(locode: string): PortRecord | undefined {
    const i = this.indexOf(locode);
    return i < 0 ? undefined : this.record(i, locode);
  }

  *values(): IterableIterator<PortRecord> {
    for (let i = 0; i < this.size; i++) yield this.record(i, codeText(this.packed.codes[i]));
  }

  /** As UnlocodeTable.record builds it, fields in the same order. */
  private record(i: number, locode: string): PortRecord {
    const { lat, lng, population } = this.packed;
    const name = this.field(i, 0);
    const r: PortRecord =
      Number.isNaN(lat[i]) || Number.isNaN(lng[i])
        ? { locode, name, source: this.source }
        : { locode, name, lat: lat[i], lng: lng[i], source: this.source };
    const functions = this.field(i, 1);
    const subdivision = this.field(i, 2);
    const basis = this.field(i, 3);
    const region = this.field(i, 4);
    if (functions) r.functions = functions;
    if (subdivision) r.subdivision = subdivision;
    if (basis) r.basis = basis;
    if (population[i]) r.population = population[i];
    if (region) r.region = region;
    return r;
  }

  private field(i: number, f: number): string {
    const { textStart } = this.packed;
    const from = textStart[i * FIELDS + f];
    const to = textStart[i * FIELDS + f + 1];
    return from === to ? "" : this.text.toString("utf8", from, to);
  }

  private indexOf(locode: string): number {
    const wanted = locode.length === 5 ? codeNumber(locode, 0) : -1;
    if (wanted < 0) return -1;
    const { codes } = this.packed;
    let lo = 0;
    let hi = codes.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const n = codes[mid];
      if (n === wanted) return mid;
      if (n < wanted) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

/** codeNumber's code back: five base-37 digits (1-10 the digits 0-9, 11-36 the letters). */
function codeText(n: number): string {
  let out = "";
  for (let k = 0; k < 5; k++) {
    const d = n % 37;
    out = String.fromCharCode(d <= 10 ? d + 47 : d + 54) + out;
    n = (n - d) / 37;
  }
  return out;
}
