#!/usr/bin/env node
// The `route-sheets` command: runs the compiled CLI (built by `npm install` through the prepare
// script), from its one-file bundle while every module in it is unchanged (scripts/bundle-cli.js):
// loading one file instead of ~120 is a good part of a `route-sheets lanes` start.
// ROUTE_SHEETS_BUNDLE=0 runs the modules themselves.
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.join(__dirname, "..");
const BUNDLE = path.join(ROOT, "dist", "cli", "main.bundle.js");

/** True when dist/cli/main.bundle.js holds exactly the modules now in dist/ and node_modules/. */
function bundleIsCurrent() {
  if (process.env.ROUTE_SHEETS_BUNDLE === "0") return false;
  try {
    if (!fs.existsSync(BUNDLE)) return false;
    const manifest = path.join(ROOT, "dist", "cli", "main.bundle.json");
    const { inputs } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    return (
      inputs.length > 0 &&
      inputs.every((input) => {
        const s = fs.statSync(path.join(ROOT, input.file), { throwIfNoEntry: false });
        return s !== undefined && s.size === input.size && s.mtimeMs === input.mtimeMs;
      })
    );
  } catch {
    return false;
  }
}

/**
 * Runs the bundle as require() would, with V8's code cache: the bytecode of every function the
 * last run compiled, kept in the snapshot folder (src/data/snapshot/cache.ts) under a name made of
 * the bundle's size, times and inode, and node's version. V8 checks a cache only against the
 * source's length, so the name is what keeps a rebuilt bundle from running stale code; a cache V8
 * rejects (another V8 build or flags) is written again. Without a usable folder it only compiles.
 */
function runBundle() {
  const Module = require("node:module");
  const vm = require("node:vm");
  const source = fs.readFileSync(BUNDLE, "utf8");
  const s = fs.statSync(BUNDLE);
  const dir =
    process.env.ROUTE_SHEETS_CACHE_DIR || path.join(ROOT, "node_modules", ".cache", "route-sheets");
  const identity = [s.size, s.mtimeMs, s.ctimeMs, s.ino].join("-").replace(/\./g, "_");
  const name = `cli-bundle-${process.version}-${process.arch}-${identity}.v8cache`;
  const cacheFile = path.join(dir, name);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  if (cachedData === undefined || script.cachedDataRejected)
    process.once("exit", () => writeCodeCache(script, dir, cacheFile));
  const bundle = new Module(BUNDLE, module);
  bundle.filename = BUNDLE;
  bundle.paths = Module._nodeModulePaths(path.dirname(BUNDLE));
  Module._cache[BUNDLE] = bundle;
  const wrapper = script.runInThisContext();
  wrapper.call(
    bundle.exports,
    bundle.exports,
    Module.createRequire(BUNDLE),
    bundle,
    BUNDLE,
    path.dirname(BUNDLE)
  );
  bundle.loaded = true;
}

/** At exit, so that it holds the functions this run compiled; older caches of the bundle go. */
function writeCodeCache(script, dir, cacheFile) {
  const tmp = `${cacheFile}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(tmp, script.createCachedData());
    fs.renameSync(tmp, cacheFile);
    for (const file of fs.readdirSync(dir))
      if (/^cli-bundle-.*\.v8cache$/.test(file) && file !== path.basename(cacheFile))
        fs.rmSync(path.join(dir, file), { force: true });
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

if (bundleIsCurrent()) runBundle();
else require("../dist/cli/main.js");
