#!/usr/bin/env node
/**
 * Builds what is older than its sources, so `npm start` on a built checkout starts at once:
 * the server (tsc → dist/) and the add-in (webpack → dist/addin/). `npm install` builds both.
 */
const { execFileSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");

/** Newest modification time under the given paths (0 when none exists). */
function newest(paths) {
  let latest = 0;
  const visit = (p) => {
    if (!fs.existsSync(p)) return;
    const stat = fs.statSync(p);
    if (stat.isDirectory()) for (const child of fs.readdirSync(p)) visit(path.join(p, child));
    else latest = Math.max(latest, stat.mtimeMs);
  };
  for (const p of paths) visit(path.join(ROOT, p));
  return latest;
}

function mtime(file) {
  const p = path.join(ROOT, file);
  return fs.existsSync(p) ? fs.statSync(p).mtimeMs : 0;
}

const TARGETS = [
  {
    name: "server (tsc)",
    stamp: "dist/.server-built",
    sources: [
      "src/engine",
      "src/data",
      "src/service",
      "src/client",
      "src/cli",
      "src/lanes",
      "src/bench",
      "tsconfig.json",
      "tsconfig.build.json",
    ],
    command: [require.resolve("typescript/bin/tsc"), "-p", "tsconfig.build.json"],
  },
  {
    name: "add-in (webpack)",
    stamp: "dist/addin/.built",
    sources: [
      "src/client",
      "src/functions",
      "src/taskpane",
      "assets",
      "data/ports-overlay.csv",
      "webpack.config.js",
      "tsconfig.json",
    ],
    command: [require.resolve("webpack-cli/bin/cli.js"), "--mode", "production"],
  },
];

/**
 * A stamp file written after each successful build marks when it ran: webpack leaves output files
 * whose content did not change untouched, so their own times say nothing.
 */
function buildIfStale(target, log = (line) => process.stderr.write(line + "\n")) {
  const built = mtime(target.stamp);
  if (built && built >= newest(target.sources)) return false;
  log(`Building the ${target.name}: ${built ? "sources changed" : "not built yet"}…`);
  const started = new Date();
  execFileSync(process.execPath, target.command, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stamp = path.join(ROOT, target.stamp);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, started.toISOString() + "\n");
  // Dated when the build started: a source saved during the build makes the next start rebuild.
  fs.utimesSync(stamp, started, started);
  return true;
}

module.exports = { TARGETS, buildIfStale };

if (require.main === module) for (const target of TARGETS) buildIfStale(target);
