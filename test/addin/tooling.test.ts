/**
 * Start and tooling: `npm install` (the prepare script) builds everything and leaves the stamps
 * `npm start` compares with the sources, so the first start builds nothing; the sideload scripts
 * exit non-zero with the reason when they cannot work here.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as os from "node:os";
import * as path from "node:path";
import { throwawayCertificate } from "../support/certificate";
import { ensureAddinAndCliBuilt } from "./build-once";

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
      // Saved after the stamp, and well before the rebuild starts: a stamp is dated to the
      // millisecond, a file to the nanosecond, so a save in the same millisecond would still look
      // newer than the rebuild's stamp.
      const saved = new Date(Date.now() - 10_000);
      fs.utimesSync(path.join(dir, "src", "a.ts"), saved, saved);
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

describe("route-sheets start --addin-id / --addin-name", () => {
  const CLI = path.join(ROOT, "bin", "route-sheets.js");
  beforeAll(() => ensureAddinAndCliBuilt(), 300_000);

  /** Runs `start` until it is ready; its stdout and the manifest it serves, then stops it. */
  async function startWith(args: string[]): Promise<{ out: string; manifest: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-addin-flags-"));
    const { cert, key } = throwawayCertificate(dir);
    const child = spawn(
      process.execPath,
      [
        CLI,
        "start",
        "--host",
        "127.0.0.1",
        "--port",
        "0",
        "--data-dir",
        dir,
        "--cert",
        cert,
        "--key",
        key,
        ...args,
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }
    );
    try {
      let out = "";
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`start did not get ready: ${out}`)),
          120_000
        );
        child.stdout.on("data", (d) => {
          out += d;
          const m = /Route Sheets is running at (\S+)/.exec(out);
          if (m && out.includes("\n", m.index + m[0].length)) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on("exit", () => reject(new Error(`start exited: ${out}`)));
      });
      await new Promise((r) => setTimeout(r, 200));
      const manifest = await new Promise<string>((resolve, reject) => {
        https
          .get(
            `${url.replace("localhost", "127.0.0.1")}/manifest.xml`,
            { ca: fs.readFileSync(cert), servername: "localhost" },
            (res) => {
              let body = "";
              res.setEncoding("utf8");
              res.on("data", (c) => (body += c));
              res.on("end", () => resolve(body));
            }
          )
          .on("error", reject);
      });
      return { out, manifest };
    } finally {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test("the flags set the served manifest's Id and display name, and start says which add-in it is", async () => {
    const id = "5b0c1a9e-3d4f-4a6b-9c8d-7e6f5a4b3c2d";
    const { out, manifest } = await startWith([
      "--addin-id",
      id,
      "--addin-name",
      "Route Sheets (staging)",
    ]);
    expect(manifest).toContain(`<Id>${id}</Id>`);
    expect(manifest).toContain('<DisplayName DefaultValue="Route Sheets (staging)"/>');
    expect(out).toMatch(
      new RegExp(`^Add-in: +Route Sheets \\(staging\\) \\(Id ${id}, version 0\\.1\\.0\\.1\\)$`, "m")
    );
  }, 300_000);

  test("a bad --addin-id or --addin-name: start refuses, naming the flag", () => {
    const bad = spawnSync(process.execPath, [CLI, "start", "--addin-id", "staging"], {
      encoding: "utf8",
    });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/--addin-id must be a GUID/);
    const blank = spawnSync(process.execPath, [CLI, "start", "--addin-name", " "], {
      encoding: "utf8",
    });
    expect(blank.status).not.toBe(0);
    expect(blank.stderr).toMatch(/--addin-name must not be blank/);
  });
});
