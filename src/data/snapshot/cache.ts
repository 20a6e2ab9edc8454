/**
 * Built structures cached between processes as snapshot files (see bundle.ts) in the project's own
 * cache folder, `node_modules/.cache/route-sheets/` (the folder babel and webpack use for their
 * caches; ROUTE_SHEETS_CACHE_DIR overrides it). A snapshot's key is a hash of the files it is
 * built from (data files and the code that builds it), so changing either builds a new one.
 */
import { createHash } from "crypto";
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
  const h = createHash("sha256");
  h.update(`${kind}:${SNAPSHOT_FORMAT}:${os.endianness()}\0`);
  const files = [...inputs.dataFiles, ...codeFiles(inputs.code)];
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
  const key = snapshotKey(kind, inputs);
  // Compiled (js) and source (ts, under Jest) code hash differently: each keeps its own file.
  const name = `${kind}-${CODE_EXT.slice(1)}`;
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

/** Removes the snapshots `prefix`-<other key>.snap (stale ones), keeping `keep`. */
function removeOlder(dir: string, prefix: string, keep: string): void {
  const pattern = new RegExp(`^${prefix}-[0-9a-f]{32}\\.snap$`);
  for (const file of fs.readdirSync(dir)) {
    if (file !== keep && pattern.test(file)) fs.rmSync(path.join(dir, file), { force: true });
  }
}
