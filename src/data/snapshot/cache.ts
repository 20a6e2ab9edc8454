/**
 * Built structures cached between processes as snapshot files (see bundle.ts) in the project's own
 * cache folder, `node_modules/.cache/route-sheets/` (the folder babel and webpack use for their
 * caches; ROUTE_SHEETS_CACHE_DIR overrides it). A snapshot's key is a hash of the files it is
 * built from (data files and the code that builds it), so changing either builds a new one.
 */
import type * as Crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { readSnapshot, writeSnapshot } from "./bundle";

/** Bump when what a snapshot holds changes in a way the hashed code files would not show. */
export const SNAPSHOT_FORMAT = 1;

/** src/ or dist/: the compiled or source tree this module runs from. */
const CODE_ROOT = path.resolve(__dirname, "..", "..");
/** The package root (holds node_modules/ and data/). */
export const PACKAGE_ROOT = path.resolve(CODE_ROOT, "..");

export function snapshotDir(): string {
  return (
    process.env.ROUTE_SHEETS_CACHE_DIR ||
    path.join(PACKAGE_ROOT, "node_modules", ".cache", "route-sheets")
  );
}

export interface SnapshotInputs {
  /** Data files the structure is built from (absolute paths); a missing file counts as empty. */
  dataFiles: string[];
  /**
   * Code the structure is built by, relative to src/ (or dist/): a folder (all its modules) or a
   * module without extension (e.g. "data/sea").
   */
  code: string[];
}

/** The code's own extension: ".ts" under ts-jest / ts-node, ".js" when compiled. */
const CODE_EXT = path.extname(__filename);

function codeFiles(entries: string[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    const full = path.join(CODE_ROOT, entry);
    let isDir = false;
    try {
      isDir = fs.statSync(full).isDirectory();
    } catch {
      isDir = false;
    }
    if (isDir) {
      for (const name of fs.readdirSync(full).sort())
        if (name.endsWith(CODE_EXT) && !name.endsWith(".d.ts")) out.push(path.join(full, name));
    } else out.push(full + CODE_EXT);
  }
  return out;
}

/** Hash of the format, the platform's byte order, and the content of every input file. */
export function snapshotKey(kind: string, inputs: SnapshotInputs): string {
  return hashKey(kind, [...inputs.dataFiles, ...codeFiles(inputs.code)]);
}

function hashKey(kind: string, files: string[]): string {
  const { createHash } = require("crypto") as typeof Crypto;
  const h = createHash("sha256");
  h.update(`${kind}:${SNAPSHOT_FORMAT}:${os.endianness()}\0`);
  for (const file of files) {
    h.update(`${path.relative(PACKAGE_ROOT, file)}\0`);
    try {
      h.update(fs.readFileSync(file));
    } catch {
      h.update("\0missing\0");
    }
  }
  return h.digest("hex").slice(0, 32);
}

/**
 * The key, hashed only when an input changed: the stat of every input file (size, modification
 * time, inode) is kept in a stamp file next to the snapshots with the key it gave, as make and
 * webpack's cache do, so a warm start stats a few dozen files instead of reading and hashing them
 * (and loading crypto). Any change to a file's size, time or inode hashes again.
 */
function rememberedKey(kind: string, inputs: SnapshotInputs, dir: string, name: string): string {
  const files = [...inputs.dataFiles, ...codeFiles(inputs.code)];
  const signature = [`${kind}:${SNAPSHOT_FORMAT}:${os.endianness()}`, ...files.map(statLine)].join(
    "\n"
  );
  const stampFile = path.join(dir, `${name}.stamp`);
  try {
    const stamp = JSON.parse(fs.readFileSync(stampFile, "utf8")) as {
      signature?: unknown;
      key?: unknown;
    };
    if (stamp.signature === signature && typeof stamp.key === "string" && KEY.test(stamp.key))
      return stamp.key;
  } catch {
    // No stamp yet, or an unreadable one: hash.
  }
  const key = hashKey(kind, files);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const tmp = `${stampFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ signature, key }));
    fs.renameSync(tmp, stampFile);
  } catch {
    // Read-only: the next start hashes again.
  }
  return key;
}

const KEY = /^[0-9a-f]{32}$/;

function statLine(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${file}\t${s.size}\t${s.mtimeMs}\t${s.ino}`;
  } catch {
    return `${file}\tmissing`;
  }
}

export interface Cached<T> {
  value: T;
  /** true: read from the snapshot file; false: built now (and written for the next start). */
  fromSnapshot: boolean;
  /** Milliseconds to read (or build and write) it. */
  ms: number;
  file: string;
}

/**
 * The structure from its snapshot file when one for the same key is there and intact; otherwise
 * built by `build` and written (older snapshots of the same kind are removed). A snapshot that
 * cannot be written only costs the build at the next start.
 */
export function cachedSnapshot<T extends object>(
  kind: string,
  inputs: SnapshotInputs,
  build: () => T
): Cached<T> {
  const t0 = performance.now();
  const dir = snapshotDir();
  // Compiled (js) and source (ts, under Jest) code hash differently: each keeps its own file.
  const name = `${kind}-${CODE_EXT.slice(1)}`;
  const key = rememberedKey(kind, inputs, dir, name);
  const file = path.join(dir, `${name}-${key}.snap`);
  const stored = readSnapshot<T>(file, key);
  if (stored) return { value: stored, fromSnapshot: true, ms: performance.now() - t0, file };
  const value = build();
  try {
    writeSnapshot(file, key, value);
    removeOlder(dir, name, path.basename(file));
  } catch {
    // Read-only or full disk: the next start builds again.
  }
  return { value, fromSnapshot: false, ms: performance.now() - t0, file };
}

/** Removes the snapshots `prefix`-<other key>.snap (stale ones) and their .ok sidecars, keeping `keep`'s. */
function removeOlder(dir: string, prefix: string, keep: string): void {
  const pattern = new RegExp(`^${prefix}-[0-9a-f]{32}\\.snap(\\.ok)?$`);
  for (const file of fs.readdirSync(dir)) {
    if (file !== keep && file !== `${keep}.ok` && pattern.test(file))
      fs.rmSync(path.join(dir, file), { force: true });
  }
}
