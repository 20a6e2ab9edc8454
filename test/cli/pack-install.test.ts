/**
 * Issue 30.4: `npm pack` gives a tarball that `npm install -g` turns into a working `route-sheets`
 * anywhere, with its data and the built add-in. One test, slow (npm installs the dependencies into
 * a temporary prefix: minutes on a busy machine), bounded by its timeout.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BIN, requireBuild, ROOT } from "../service/child";
import { tempDir } from "../service/support";

const SHEET = [
  "lane id,origin,destination,modality",
  "L1,NLRTM,DEHAM,TRUCK",
  "L2,Rotterdam,Hamburg,TRUCK",
  "L3,CNSHA,NLRTM,DEEPSEA",
  "",
].join("\n");

test("npm pack, npm install -g --prefix <tmp>, then route-sheets lanes from another folder: the checkout's answers", () => {
  requireBuild();
  const dir = tempDir("route-sheets-pack-");
  try {
    // The build is there (requireBuild): pack it as it is, without the prepare script's rebuild.
    const packed = execFileSync(
      "npm",
      ["pack", "--ignore-scripts", "--pack-destination", dir, "--json"],
      { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
    );
    const [info] = JSON.parse(packed) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    const files = info.files.map((f) => f.path);
    for (const needed of [
      "bin/route-sheets.js",
      "dist/cli/main.js",
      "dist/addin/taskpane.html",
      "dist/addin/functions.json",
      "manifest.xml",
      "data/places-unlocode.csv",
      "data/README.md",
    ])
      expect(files).toContain(needed);
    // Neither sources, tests nor source maps.
    expect(files.filter((f) => /^(src|test)\/|\.map$/.test(f))).toEqual([]);

    const prefix = path.join(dir, "prefix");
    execFileSync(
      "npm",
      [
        "install",
        "-g",
        "--prefix",
        prefix,
        "--prefer-offline",
        "--no-audit",
        "--no-fund",
        path.join(dir, info.filename),
      ],
      { cwd: dir, stdio: ["ignore", "pipe", "pipe"], timeout: 1_500_000 }
    );
    const installed = path.join(prefix, "bin", "route-sheets");
    expect(fs.existsSync(installed)).toBe(true);
    const pkg = path.join(prefix, "lib", "node_modules", "route-sheets");
    expect(fs.existsSync(path.join(pkg, "dist", "addin", "taskpane.html"))).toBe(true);

    // Another folder, far from the checkout and its node_modules.
    const work = path.join(dir, "work");
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, "lanes.csv"), SHEET);
    const run = (command: string[]) =>
      execFileSync(command[0], [...command.slice(1), "lanes", "lanes.csv"], {
        cwd: work,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        env: { ...process.env, PATH: `${path.join(prefix, "bin")}:${process.env.PATH}` },
      });
    const fromInstall = run(["route-sheets"]);
    const lines = fromInstall.trimEnd().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^lane id,origin,destination,modality,/);
    const km = lines[0].split(",").indexOf("distance_km");
    expect(km).toBeGreaterThan(3);
    for (const line of lines.slice(1)) expect(Number(line.split(",")[km])).toBeGreaterThan(100);
    // The same answers as the checkout's own command.
    expect(fromInstall).toBe(run([process.execPath, BIN]));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 1_800_000);
