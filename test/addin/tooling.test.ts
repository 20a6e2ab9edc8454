/**
 * Start and tooling: `npm install` (the prepare script) builds everything and leaves the stamps
 * `npm start` compares with the sources, so the first start builds nothing; the sideload scripts
 * exit non-zero with the reason when they cannot work here.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  scripts: Record<string, string>;
};

interface Target {
  name: string;
  stamp: string;
  sources: string[];
  command: string[];
}
const stale = require("../../scripts/build-if-stale.js") as {
  TARGETS: Target[];
  buildIfStale(target: Target, log?: (line: string) => void): boolean;
  writeStamp(target: Target, started: Date): void;
};
const { refusal } = require("../../scripts/office-addin.js") as {
  refusal(action: string, args: string[], platform?: string): string | undefined;
};

describe("npm install leaves the build stamps", () => {
  test("prepare runs the whole build through build-if-stale --build-all, which stamps every target", () => {
    expect(pkg.scripts.prepare).toBe("node scripts/build-if-stale.js --build-all");
    const source = fs.readFileSync(path.join(ROOT, "scripts", "build-if-stale.js"), "utf8");
    expect(source).toMatch(/"run", "build"/);
    expect(stale.TARGETS.map((t) => t.stamp)).toEqual(["dist/.server-built", "dist/addin/.built"]);
  });

  test("a target stamped after its sources is not rebuilt; a source saved later rebuilds it", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-stamp-"));
    try {
      const rel = path.relative(ROOT, dir);
      const out = path.join(dir, "out.txt");
      const target: Target = {
        name: "probe",
        stamp: path.join(rel, ".stamp"),
        sources: [path.join(rel, "src")],
        // A "build" that leaves a trace, so the test sees whether it ran.
        command: ["-e", `require("fs").appendFileSync(${JSON.stringify(out)}, "built\\n")`],
      };
      fs.mkdirSync(path.join(dir, "src"));
      fs.writeFileSync(path.join(dir, "src", "a.ts"), "1");
      const past = new Date(Date.now() - 60_000);
      fs.utimesSync(path.join(dir, "src", "a.ts"), past, past);
      stale.writeStamp(target, new Date(Date.now() - 30_000));
      expect(stale.buildIfStale(target, () => undefined)).toBe(false);
      expect(fs.existsSync(out)).toBe(false);
      fs.writeFileSync(path.join(dir, "src", "a.ts"), "2");
      expect(stale.buildIfStale(target, () => undefined)).toBe(true);
      expect(fs.readFileSync(out, "utf8")).toBe("built\n");
      expect(stale.buildIfStale(target, () => undefined)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sideload scripts", () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [path.join(ROOT, "scripts", "office-addin.js"), ...args], {
      cwd: os.tmpdir(),
      encoding: "utf8",
    });

  test("npm run sideload / sideload:web / unload call this script", () => {
    expect(pkg.scripts.sideload).toBe("node scripts/office-addin.js sideload");
    expect(pkg.scripts["sideload:web"]).toBe("node scripts/office-addin.js sideload:web");
  });

  test("desktop sideloading off Windows and macOS: non-zero exit, the platform named, the way that works", () => {
    expect(refusal("sideload", [], "linux")).toMatch(/cannot work on linux.*sideload:web/);
    expect(refusal("sideload", [], "win32")).toBeUndefined();
    expect(refusal("sideload", [], "darwin")).toBeUndefined();
    if (process.platform === "linux") {
      const r = run("sideload");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/npm run sideload cannot work on linux/);
    }
  });

  test("sideload:web without --document: non-zero exit and what to pass", () => {
    const r = run("sideload:web");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/needs the workbook to open: npm run sideload:web -- --document/);
    expect(refusal("sideload:web", ["--document", "https://x.sharepoint.com/a.xlsx"])).toBe(
      undefined
    );
    expect(refusal("sideload:web", ["--document=https://x/a.xlsx"])).toBeUndefined();
  });

  test("an unknown action: non-zero exit with the usage", () => {
    const r = run("sideways");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/^usage: office-addin.js sideload/);
  });

  test("with nothing saved to sideload: non-zero exit naming the missing manifest", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-nodata-"));
    try {
      const r = spawnSync(
        process.execPath,
        [path.join(ROOT, "scripts", "office-addin.js"), "unload"],
        { cwd: dir, encoding: "utf8", env: { ...process.env, ROUTE_SHEETS_DATA_DIR: dir } }
      );
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(/manifest\.xml is missing: start the server first/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
