#!/usr/bin/env node
/**
 * Builds what is older than its sources, so `npm start` on a built checkout starts at once:
 * the server (tsc → dist/) and the add-in (webpack → dist/addin/).
 *
 * `--build-all` (what `npm install` runs, as the prepare script): the whole `npm run build`, then
 * the stamps of every target, so the first `npm start` after an install builds nothing.
 */
const { execFileSync, spawnSync } = require("node:child_process");
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
    // The CLI's one-file bundle of what tsc just wrote (the bin runs the modules without it).
    then: ["scripts/bundle-cli.js"],
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
 * whose content did not change untouched, so their own times say nothing. Dated when the build
 * started: a source saved during the build makes the next start rebuild.
 */
function writeStamp(target, started) {
  const stamp = path.join(ROOT, target.stamp);
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, started.toISOString() + "\n");
  fs.utimesSync(stamp, started, started);
}

function buildIfStale(target, log = (line) => process.stderr.write(line + "\n")) {
  const built = mtime(target.stamp);
  if (built && built >= newest(target.sources)) return false;
  log(`Building the ${target.name}: ${built ? "sources changed" : "not built yet"}…`);
  const started = new Date();
  execFileSync(process.execPath, target.command, {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (target.then)
    execFileSync(process.execPath, target.then, {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
  writeStamp(target, started);
  return true;
}

/** `npm run build` (whatever steps it has), then every target's stamp; the build's exit code. */
function buildAll() {
  const started = new Date();
  // npm sets npm_execpath when it runs this script; `npm` on the PATH otherwise.
  const npm = process.env.npm_execpath;
  const result = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { cwd: ROOT, stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], {
        cwd: ROOT,
        stdio: "inherit",
        shell: process.platform === "win32",
      });
  if (result.status !== 0) return result.status ?? 1;
  for (const target of TARGETS) writeStamp(target, started);
  return 0;
}

module.exports = { TARGETS, buildIfStale, buildAll, writeStamp };

if (require.main === module) {
  // An installed package (npm pack, then npm install -g) has its build and no sources: nothing to do.
  if (!fs.existsSync(path.join(ROOT, "src"))) process.exitCode = 0;
  else if (process.argv.includes("--build-all")) process.exitCode = buildAll();
  else for (const target of TARGETS) buildIfStale(target);
}
