#!/usr/bin/env node
/**
 * `npm run sideload` / `sideload:web` / `unload`: office-addin-debugging against the manifest of the
 * running server, which `route-sheets start` saves in its data directory (.route-sheets/manifest.xml
 * by default; ROUTE_SHEETS_DATA_DIR for another).
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const [action, ...rest] = process.argv.slice(2);
const dataDir = path.resolve(process.env.ROUTE_SHEETS_DATA_DIR ?? ".route-sheets");
const manifest = path.join(dataDir, "manifest.xml");
if (!fs.existsSync(manifest)) {
  console.error(
    `${manifest} is missing: start the server first (npm start); it saves the manifest it serves there.`
  );
  process.exit(1);
}
const args = {
  sideload: ["start", manifest, "desktop", "--no-debug", "--no-live-reload"],
  "sideload:web": ["start", manifest, "web", "--no-debug", "--no-live-reload"],
  unload: ["stop", manifest],
}[action];
if (!args) {
  console.error(`usage: office-addin.js sideload|sideload:web|unload [options]`);
  process.exit(2);
}
const cli = require.resolve("office-addin-debugging/cli.js");
const result = spawnSync(process.execPath, [cli, ...args, ...rest], { stdio: "inherit" });
process.exit(result.status ?? 1);
