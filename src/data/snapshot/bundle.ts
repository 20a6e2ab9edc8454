/**
 * A snapshot file: typed arrays and plain values (numbers, strings, booleans, nested plain objects)
 * in one binary file, so a built structure can be loaded back without rebuilding it.
 *
 * Layout: 8 bytes magic, u32 (little-endian) header length, the header as JSON, zero padding to a
 * multiple of 8, then the arrays' bytes, each starting on a multiple of 8 so that loading makes
 * typed-array views onto one buffer instead of copies. The header holds the key the file was built
 * for, the shape of the stored object and a CRC-32 of the body (zlib's: a few ms for tens of MB,
 * where SHA-1 takes several times longer; it guards against damage, the key against staleness): a
 * file whose magic, key, length or checksum does not match is not used (the caller rebuilds it).
 *
 * The checksum is checked once per file, not at every start (it was 40-60 ms of a warm start over
 * the sea and fine-grid snapshots): after a check passes, a sidecar `<file>.ok` records the file's
 * identity (size, modification and change times, inode, device). A later read whose identity
 * matches skips the checksum. Any write to the file changes its change time, which no program can
 * set back, so a damaged or replaced file no longer matches and is checked again. As git does for
 * its index, a file changed less than RECENT_MS before the check is not recorded: a write within
 * the file system's clock granularity could otherwise keep the same times.
 */
import * as fs from "fs";
import * as path from "path";
import { crc32 } from "zlib";

const MAGIC = "RSSNAP01";
const ALIGN = 8;

type TypedArray =
  | Float64Array
  | Float32Array
  | Int32Array
  | Uint32Array
  | Int16Array
  | Uint16Array
  | Int8Array
  | Uint8Array;

const ARRAY_TYPES = {
  Float64Array,
  Float32Array,
  Int32Array,
  Uint32Array,
  Int16Array,
  Uint16Array,
  Int8Array,
  Uint8Array,
} as const;
type ArrayTypeName = keyof typeof ARRAY_TYPES;

/** How a stored object is put back together: a value, an array (index into `arrays`) or an object. */
type Shape =
  | { v: PlainJson }
  | { a: number }
  | { o: Record<string, Shape> };

interface ArrayEntry {
  type: ArrayTypeName;
  offset: number;
  length: number;
}

interface Header {
  key: string;
  shape: Shape;
  arrays: ArrayEntry[];
  bodyBytes: number;
  crc32: number;
}

function isTypedArray(x: unknown): x is TypedArray {
  return ArrayBuffer.isView(x) && !(x instanceof DataView);
}

/** Plain data JSON holds exactly: finite numbers, strings, booleans, null, arrays and plain objects. */
type PlainJson = number | string | boolean | null | PlainJson[] | { [key: string]: PlainJson };

/** Lists (of values, or of records such as parsed CSV rows) are stored as they are, in the header. */
function isPlainList(x: unknown): x is PlainJson[] {
  return Array.isArray(x) && x.every(isPlainJson);
}

function isPlainJson(x: unknown): boolean {
  if (x === null || typeof x === "string" || typeof x === "boolean") return true;
  if (typeof x === "number") return Number.isFinite(x);
  if (Array.isArray(x)) return x.every(isPlainJson);
  if (typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype)
    return Object.values(x as object).every((v) => v === undefined || isPlainJson(v));
  return false;
}

/** Splits an object into its shape and its typed arrays; throws on anything it cannot store. */
function flatten(value: unknown, arrays: TypedArray[], where: string): Shape {
  if (isTypedArray(value)) {
    const name = value.constructor.name;
    if (!(name in ARRAY_TYPES)) throw new Error(`snapshot: ${where} is a ${name}, not storable`);
    return { a: arrays.push(value) - 1 };
  }
  if (
    value === null ||
    typeof value === "number" ||
    typeof value === "string" ||
    typeof value === "boolean" ||
    isPlainList(value)
  ) {
    if (typeof value === "number" && !Number.isFinite(value))
      throw new Error(`snapshot: ${where} is ${value}, JSON cannot hold it`);
    return { v: value };
  }
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const o: Record<string, Shape> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v === undefined) continue;
      o[k] = flatten(v, arrays, `${where}.${k}`);
    }
    return { o };
  }
  throw new Error(`snapshot: ${where} (${typeof value}) is not a typed array, value or plain object`);
}

function rebuild(shape: Shape, arrays: TypedArray[]): unknown {
  if ("a" in shape) return arrays[shape.a];
  if ("v" in shape) return shape.v;
  const out: Record<string, unknown> = {};
  for (const [k, s] of Object.entries(shape.o)) out[k] = rebuild(s, arrays);
  return out;
}

function pad(n: number): number {
  return Math.ceil(n / ALIGN) * ALIGN;
}

function bytesOf(a: TypedArray): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * Writes `value` to `file` for `key`: to a temporary file first, then renamed over `file`, so a
 * reader (another process starting at the same time) sees the old file or the whole new one.
 */
export function writeSnapshot(file: string, key: string, value: object): void {
  const arrays: TypedArray[] = [];
  const shape = flatten(value, arrays, "snapshot");
  const entries: ArrayEntry[] = [];
  let crc = 0;
  const zeros = new Uint8Array(ALIGN);
  let offset = 0;
  for (const a of arrays) {
    entries.push({ type: a.constructor.name as ArrayTypeName, offset, length: a.length });
    // Only non-empty ranges: node 20's crc32 answers 0, not the running value, for a view of an
    // empty ArrayBuffer (an empty typed array), which made such a snapshot fail its own check.
    if (a.byteLength > 0) crc = crc32(bytesOf(a), crc);
    const end = offset + a.byteLength;
    offset = pad(end);
    if (offset > end) crc = crc32(zeros.subarray(0, offset - end), crc);
  }
  const header: Header = { key, shape, arrays: entries, bodyBytes: offset, crc32: crc };
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const start = pad(MAGIC.length + 4 + json.length);
  const lead = Buffer.alloc(start);
  lead.write(MAGIC, 0, "latin1");
  lead.writeUInt32LE(json.length, MAGIC.length);
  json.copy(lead, MAGIC.length + 4);

  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = fs.openSync(tmp, "w");
  try {
    fs.writeSync(fd, lead);
    for (const a of arrays) {
      const bytes = bytesOf(a);
      fs.writeSync(fd, bytes);
      const padding = pad(bytes.byteLength) - bytes.byteLength;
      if (padding) fs.writeSync(fd, zeros, 0, padding);
    }
  } catch (err) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
}

/**
 * The object stored in `file`, or undefined when there is no such file or it is not a whole,
 * intact snapshot built for `key` (wrong magic, other key, wrong length, checksum mismatch).
 */
export function readSnapshot<T>(
  file: string,
  key: string,
  /** `now`: the clock for the RECENT_MS rule (tests). */
  options: { now?: number } = {}
): T | undefined {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    const size = stat.size;
    const identity = identityOf(stat);
    const lead = Buffer.alloc(Math.min(size, HEADER_PEEK));
    if (!readFully(fd, lead, 0)) return undefined;
    const peek = parseHeader(lead);
    // Another key: stale, no need to read (or checksum) the rest.
    if (peek !== "short" && (!peek || peek.header.key !== key)) return undefined;
    // One ArrayBuffer for the whole file: the arrays become views onto it, not copies.
    const data = new Uint8Array(new ArrayBuffer(size));
    data.set(lead);
    if (!readFully(fd, data, lead.byteLength)) return undefined;
    const checked = verifiedIdentity(file) === identity;
    const value = decodeSnapshot<T>(data, key, { checksum: !checked });
    if (value !== undefined && !checked && (options.now ?? Date.now()) - stat.ctimeMs >= RECENT_MS)
      rememberVerified(file, identity);
    return value;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** A file changed this recently is checked at every read until it is older (see the top). */
const RECENT_MS = 2000;

/** The sidecar that records a checked file's identity. */
export function verifiedFile(file: string): string {
  return `${file}.ok`;
}

function identityOf(s: fs.Stats): string {
  return `${s.size} ${s.mtimeMs} ${s.ctimeMs} ${s.ino} ${s.dev}`;
}

function verifiedIdentity(file: string): string | undefined {
  try {
    return fs.readFileSync(verifiedFile(file), "utf8");
  } catch {
    return undefined;
  }
}

/** Written next to the file (temporary file, then renamed); a read-only folder checks every time. */
function rememberVerified(file: string, identity: string): void {
  const tmp = `${verifiedFile(file)}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, identity);
    fs.renameSync(tmp, verifiedFile(file));
  } catch {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing was written.
    }
  }
}

/** Bytes read first: enough for the header of every snapshot this project writes. */
const HEADER_PEEK = 64 * 1024;

function readFully(fd: number, into: Uint8Array, from: number): boolean {
  for (let at = from; at < into.byteLength; ) {
    const n = fs.readSync(fd, into, at, into.byteLength - at, at);
    if (n <= 0) return false;
    at += n;
  }
  return true;
}

/** The header and where the body starts; "short" when `data` ends inside the header; undefined when invalid. */
function parseHeader(data: Uint8Array): { header: Header; start: number } | "short" | undefined {
  const prefix = MAGIC.length + 4;
  if (data.byteLength < prefix) return "short";
  if (Buffer.from(data.buffer, data.byteOffset, MAGIC.length).toString("latin1") !== MAGIC)
    return undefined;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const jsonLength = view.getUint32(MAGIC.length, true);
  if (prefix + jsonLength > data.byteLength) return "short";
  try {
    const header = JSON.parse(
      Buffer.from(data.buffer, data.byteOffset + prefix, jsonLength).toString("utf8")
    ) as Header;
    if (typeof header !== "object" || header === null || !Array.isArray(header.arrays))
      return undefined;
    return { header, start: pad(prefix + jsonLength) };
  } catch {
    return undefined;
  }
}

/**
 * Decodes a snapshot held in memory (see readSnapshot); undefined when it is not valid for `key`.
 * `checksum: false` skips the CRC (readSnapshot, for a file already checked and unchanged since).
 */
export function decodeSnapshot<T>(
  data: Uint8Array<ArrayBuffer>,
  key: string,
  options: { checksum?: boolean } = {}
): T | undefined {
  const parsed = parseHeader(data);
  if (!parsed || parsed === "short") return undefined;
  const { header, start } = parsed;
  if (header.key !== key) return undefined;
  if (data.byteLength !== start + header.bodyBytes) return undefined;
  if (options.checksum !== false && crc32(data.subarray(start)) !== header.crc32) return undefined;
  if ((data.byteOffset + start) % ALIGN !== 0) return undefined;
  const arrays: TypedArray[] = [];
  for (const e of header.arrays) {
    const Type = ARRAY_TYPES[e.type];
    if (!Type || e.offset + e.length * Type.BYTES_PER_ELEMENT > header.bodyBytes) return undefined;
    arrays.push(new Type(data.buffer, data.byteOffset + start + e.offset, e.length));
  }
  try {
    return rebuild(header.shape, arrays) as T;
  } catch {
    return undefined;
  }
}
