#!/usr/bin/env node
/**
 * Bundles the compiled CLI (dist/cli/main.js with the `lanes` command and everything it loads)
 * into one file, dist/cli/main.bundle.js, with esbuild: a `route-sheets lanes` process then loads
 * one file instead of ~120 modules (their look-ups and reads were ~75 ms CPU of every start on a
 * busy machine, where the whole start is a few hundred ms). The other commands stay separate
 * modules, loaded from dist/ as before.
 *
 * Next to it, dist/cli/main.bundle.json lists every module bundled with its size and time:
 * bin/route-sheets.js uses the bundle only while they all match, so a `tsc` run without this
 * step (or an edited dist file) falls back to dist/cli/main.js, never to stale code.
 *
 * Runs after `tsc` in `npm run build:node`; without esbuild installed it says so and does
 * nothing (the CLI then runs unbundled).
 */
const fs = require("node:fs");
const path = require("node:path");

const ROOT = path.resolve(__dirname, "..");
const DIST_CLI = path.join(ROOT, "dist", "cli");
const OUT = path.join(DIST_CLI, "main.bundle.js");
const MANIFEST = path.join(DIST_CLI, "main.bundle.json");

/**
 * Each module's own __dirname and __filename, as paths relative to the bundle's folder: the data
 * loaders find data/ and the snapshot cache its code from them.
 */
const ownPaths = {
  name: "own-paths",
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, (args) => {
      if (!args.path.startsWith(path.join(ROOT, "dist") + path.sep)) return undefined;
      const text = fs.readFileSync(args.path, "utf8");
      if (!/\b__(dirname|filename)\b/.test(text)) return { contents: text, loader: "js" };
      const rel = (p) => JSON.stringify(path.relative(DIST_CLI, p).split(path.sep).join("/"));
      const dir = `require("path").join(__dirname, ${rel(path.dirname(args.path))})`;
      const file = `require("path").join(__dirname, ${rel(args.path)})`;
      return {
        contents: text.replace(/\b__dirname\b/g, dir).replace(/\b__filename\b/g, file),
        loader: "js",
      };
    });
  },
};

/** The other commands (service, data, ...) stay modules of their own, loaded when asked for. */
const otherCommands = {
  name: "other-commands",
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\// }, (args) =>
      args.path === "./commands/lanes" ? undefined : { path: args.path, external: true }
    );
  },
};

async function main() {
  let esbuild;
  try {
    esbuild = require("esbuild");
  } catch {
    fs.rmSync(OUT, { force: true });
    fs.rmSync(MANIFEST, { force: true });
    console.error("bundle-cli: esbuild is not installed; the CLI runs unbundled.");
    return;
  }
  const result = await esbuild.build({
    entryPoints: [path.join(DIST_CLI, "main.js")],
    outfile: OUT,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    absWorkingDir: ROOT,
    plugins: [ownPaths, otherCommands],
    metafile: true,
    logLevel: "error",
  });
  const inputs = Object.keys(result.metafile.inputs)
    .map((p) => path.resolve(ROOT, p))
    .sort()
    .map((file) => {
      const s = fs.statSync(file);
      return {
        file: path.relative(ROOT, file).split(path.sep).join("/"),
        size: s.size,
        mtimeMs: s.mtimeMs,
      };
    });
  fs.writeFileSync(MANIFEST, JSON.stringify({ inputs }) + "\n");
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
