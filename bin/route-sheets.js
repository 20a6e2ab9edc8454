#!/usr/bin/env node
// The `route-sheets` command: runs the compiled CLI (built by `npm install` through the prepare
// script), from its one-file bundle while every module in it is unchanged (scripts/bundle-cli.js):
// loading one file instead of ~120 is a good part of a `route-sheets lanes` start.
// ROUTE_SHEETS_BUNDLE=0 runs the modules themselves.
const fs = require("node:fs");
const path = require("node:path");

/** True when dist/cli/main.bundle.js holds exactly the modules now in dist/ and node_modules/. */
function bundleIsCurrent() {
  if (process.env.ROUTE_SHEETS_BUNDLE === "0") return false;
  const root = path.join(__dirname, "..");
  try {
    if (!fs.existsSync(path.join(root, "dist", "cli", "main.bundle.js"))) return false;
    const manifest = path.join(root, "dist", "cli", "main.bundle.json");
    const { inputs } = JSON.parse(fs.readFileSync(manifest, "utf8"));
    return (
      inputs.length > 0 &&
      inputs.every((input) => {
        const s = fs.statSync(path.join(root, input.file), { throwIfNoEntry: false });
        return s !== undefined && s.size === input.size && s.mtimeMs === input.mtimeMs;
      })
    );
  } catch {
    return false;
  }
}

require(bundleIsCurrent() ? "../dist/cli/main.bundle.js" : "../dist/cli/main.js");
