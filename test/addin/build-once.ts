/** Builds what the browser tests need (dist/addin, dist/cli) when older than their sources. */
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

/** Serialises builds between Jest workers with an atomic mkdir lock. */
function withLock(fn: () => void): void {
  const lock = path.join(ROOT, "dist", ".addin-build.lock");
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - started > 300_000) throw new Error(`build lock ${lock} held for 5 minutes`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

interface Target {
  name: string;
}
/** The same staleness rule as `npm start` (stamp files written after each build). */
const { TARGETS, buildIfStale } = require("../../scripts/build-if-stale.js") as {
  TARGETS: Target[];
  buildIfStale(target: Target, log?: (line: string) => void): boolean;
};

export function ensureAddinAndCliBuilt(): void {
  withLock(() => {
    for (const target of TARGETS) {
      try {
        buildIfStale(target, () => undefined);
      } catch (error) {
        // tsc still emits JavaScript when other modules have type errors; the server start tells.
        if (!target.name.startsWith("server")) throw error;
      }
    }
  });
}
