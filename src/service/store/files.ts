/**
 * The data directory holds the account database and the local API key: only its owner may read
 * it. Modes are set on every open, so directories and files created earlier (or by a looser umask)
 * are tightened too.
 */
import * as fs from "node:fs";
import * as path from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Files of a data directory that carry secrets or balances. */
export const PRIVATE_FILES = ["service.db", "service.db-wal", "service.db-shm", "local-api-key"];

export function makePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** chmod 0600 the data directory's private files that exist. */
export function securePrivateFiles(dir: string): void {
  for (const name of PRIVATE_FILES) {
    try {
      fs.chmodSync(path.join(dir, name), PRIVATE_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
}
