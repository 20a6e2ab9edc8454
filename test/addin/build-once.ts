/** Builds what the browser test needs (dist/addin, dist/cli) unless it is newer than its sources. */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");

function newest(paths: string[]): number {
  let latest = 0;
  const visit = (p: string) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const child of fs.readdirSync(p)) visit(path.join(p, child));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  paths.forEach((p) => visit(path.join(ROOT, p)));
  return latest;
}

function mtime(file: string): number {
  const p = path.join(ROOT, file);
  return fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0;
}

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

export function ensureAddinAndCliBuilt(): void {
  withLock(() => {
    const addinSources = newest([
      "src/client",
      "src/functions",
      "src/taskpane",
      "assets",
      "webpack.config.js",
    ]);
    if (
      mtime("dist/addin/functions.json") < addinSources ||
      !fs.existsSync(path.join(ROOT, "dist/addin/taskpane.html"))
    ) {
      execFileSync(
        process.execPath,
        [require.resolve("webpack-cli/bin/cli.js"), "--mode", "production"],
        { cwd: ROOT, stdio: "pipe" }
      );
    }
    // The server the browser talks to is compiled from all of these (tsc rewrites every output).
    const serverSources = newest([
      "src/cli",
      "src/service",
      "src/engine",
      "src/data",
      "src/client",
    ]);
    if (mtime("dist/cli/main.js") === 0 || mtime("dist/cli/main.js") < serverSources) {
      try {
        execFileSync(
          process.execPath,
          [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"],
          { cwd: ROOT, stdio: "pipe" }
        );
      } catch {
        // tsc still emits JavaScript when other modules have type errors; the server start below tells.
      }
    }
  });
}
