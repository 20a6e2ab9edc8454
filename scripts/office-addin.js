#!/usr/bin/env node
/**
 * `npm run sideload` / `sideload:web` / `unload`: office-addin-debugging against the manifest of the
 * running server, which `route-sheets start` saves in its data directory (.route-sheets/manifest.xml
 * by default; ROUTE_SHEETS_DATA_DIR for another). When an action cannot work here (desktop
 * sideloading off Windows and macOS, Excel on the web without a workbook URL) it says why and exits
 * non-zero instead of letting office-addin-debugging print an error and exit 0.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const USAGE =
  "usage: office-addin.js sideload | sideload:web --document <workbook URL> | unload [options]";

/** Why `action` cannot run on `platform` with `args`, or undefined when it can. */
function refusal(action, args, platform = process.platform) {
  if (!["sideload", "sideload:web", "unload"].includes(action)) return USAGE;
  if (action === "sideload" && platform !== "win32" && platform !== "darwin")
    return `npm run sideload cannot work on ${platform}: office-addin-debugging sideloads into Excel on Windows or macOS only. Here: npm run sideload:web -- --document <URL of a workbook in OneDrive or SharePoint>, or upload the manifest in Excel on the web (Home → Add-ins → More Add-ins → Upload My Add-in).`;
  if (
    action === "sideload:web" &&
    !args.some((a) => a === "--document" || a === "-d" || a.startsWith("--document="))
  )
    return "npm run sideload:web needs the workbook to open: npm run sideload:web -- --document <URL of a workbook in OneDrive or SharePoint>.";
  return undefined;
}

function main(argv) {
  const [action, ...rest] = argv;
  const why = refusal(action, rest);
  if (why) {
    console.error(why);
    return 2;
  }
  const dataDir = path.resolve(process.env.ROUTE_SHEETS_DATA_DIR ?? ".route-sheets");
  const manifest = path.join(dataDir, "manifest.xml");
  if (!fs.existsSync(manifest)) {
    console.error(
      `${manifest} is missing: start the server first (npm start); it saves the manifest it serves there.`
    );
    return 1;
  }
  const args = {
    sideload: ["start", manifest, "desktop", "--no-debug", "--no-live-reload"],
    "sideload:web": ["start", manifest, "web", "--no-debug", "--no-live-reload"],
    unload: ["stop", manifest],
  }[action];
  const cli = require.resolve("office-addin-debugging/cli.js");
  const result = spawnSync(process.execPath, [cli, ...args, ...rest], {
    stdio: ["inherit", "inherit", "pipe"],
    encoding: "utf8",
  });
  process.stderr.write(result.stderr ?? "");
  // office-addin-debugging reports some failures on stderr and still exits 0.
  if (result.status === 0 && /\b(error|unable|not supported|failed)\b/i.test(result.stderr ?? "")) {
    console.error(`npm run ${action} failed: see the message above.`);
    return 1;
  }
  return result.status ?? 1;
}

module.exports = { refusal };

if (require.main === module) process.exitCode = main(process.argv.slice(2));
