/**
 * The CLI's one-file bundle (scripts/bundle-cli.js, bin/route-sheets.js): the bin runs it only
 * while every module it holds is unchanged, and it computes what the modules compute.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-bundle-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("bin/route-sheets.js", () => {
  /** A package with the real bin and stand-ins for the modules and the bundle. */
  function fakePackage(): { dir: string; run: (env?: NodeJS.ProcessEnv) => string } {
    const dir = fs.mkdtempSync(path.join(tmp, "pkg-"));
    fs.mkdirSync(path.join(dir, "bin"));
    fs.mkdirSync(path.join(dir, "dist", "cli"), { recursive: true });
    fs.copyFileSync(BIN, path.join(dir, "bin", "route-sheets.js"));
    const cli = path.join(dir, "dist", "cli");
    fs.writeFileSync(path.join(cli, "main.js"), 'console.log("modules");\n');
    fs.writeFileSync(path.join(cli, "main.bundle.js"), 'console.log("bundle");\n');
    const s = fs.statSync(path.join(cli, "main.js"));
    fs.writeFileSync(
      path.join(cli, "main.bundle.json"),
      JSON.stringify({ inputs: [{ file: "dist/cli/main.js", size: s.size, mtimeMs: s.mtimeMs }] })
    );
    const run = (env: NodeJS.ProcessEnv = {}) => {
      const r = spawnSync(process.execPath, [path.join(dir, "bin", "route-sheets.js")], {
        encoding: "utf8",
        env: { ...process.env, ROUTE_SHEETS_BUNDLE: "", ...env },
      });
      expect(r.stderr).toBe("");
      return r.stdout.trim();
    };
    return { dir, run };
  }

  it("runs the bundle while its modules are unchanged, the modules otherwise", () => {
    const { dir, run } = fakePackage();
    expect(run()).toBe("bundle");
    expect(run({ ROUTE_SHEETS_BUNDLE: "0" })).toBe("modules");

    // A module rebuilt (same size, new time): the bundle is stale.
    const main = path.join(dir, "dist", "cli", "main.js");
    const later = new Date(fs.statSync(main).mtimeMs + 5_000);
    fs.utimesSync(main, later, later);
    expect(run()).toBe("modules");
  });

  it("keeps V8's code cache of the bundle, and never runs a rebuilt bundle from an old one", () => {
    const { dir, run } = fakePackage();
    const cache = fs.mkdtempSync(path.join(tmp, "cache-"));
    const env = { ROUTE_SHEETS_CACHE_DIR: cache };
    const caches = () => fs.readdirSync(cache).filter((f) => f.endsWith(".v8cache"));
    expect(run(env)).toBe("bundle");
    expect(caches()).toHaveLength(1);
    const [first] = caches();
    // Accepted by the next run: not written again.
    const written = fs.statSync(path.join(cache, first)).mtimeMs;
    expect(run(env)).toBe("bundle");
    expect(caches()).toEqual([first]);
    expect(fs.statSync(path.join(cache, first)).mtimeMs).toBe(written);
    // Rebuilt with the same length (all V8 itself checks): the new code runs, a new cache replaces the old.
    const bundle = path.join(dir, "dist", "cli", "main.bundle.js");
    fs.writeFileSync(bundle, 'console.log("BUNDLE");\n');
    expect(run(env)).toBe("BUNDLE");
    expect(caches()).toHaveLength(1);
    expect(caches()).not.toEqual([first]);
    expect(run(env)).toBe("BUNDLE");
    // A damaged cache is rejected by V8 and written again.
    const [second] = caches();
    fs.writeFileSync(path.join(cache, second), "garbage");
    expect(run(env)).toBe("BUNDLE");
    expect(fs.statSync(path.join(cache, second)).size).toBeGreaterThan(7);
  });

  it("runs the modules without a bundle, with a damaged list, or with a module gone", () => {
    const a = fakePackage();
    fs.rmSync(path.join(a.dir, "dist", "cli", "main.bundle.js"));
    expect(a.run()).toBe("modules");

    const b = fakePackage();
    fs.writeFileSync(path.join(b.dir, "dist", "cli", "main.bundle.json"), "{not json");
    expect(b.run()).toBe("modules");

    const c = fakePackage();
    const list = path.join(c.dir, "dist", "cli", "main.bundle.json");
    const { inputs } = JSON.parse(fs.readFileSync(list, "utf8")) as { inputs: object[] };
    inputs.push({ file: "dist/data/gone.js", size: 1, mtimeMs: 1 });
    fs.writeFileSync(list, JSON.stringify({ inputs }));
    expect(c.run()).toBe("modules");
  });
});

describe("the built bundle", () => {
  const bundle = path.join(ROOT, "dist", "cli", "main.bundle.js");
  const esbuildInstalled = (() => {
    try {
      require.resolve("esbuild", { paths: [ROOT] });
      return true;
    } catch {
      return false;
    }
  })();

  // `npm test` builds it when esbuild is installed (a devDependency); a checkout without it runs
  // the modules, and this has nothing to compare.
  (esbuildInstalled ? it : it.skip)(
    "is current after the build and gives the modules' output byte for byte",
    () => {
      expect(fs.existsSync(bundle)).toBe(true);
      const input = path.join(tmp, "lanes.csv");
      fs.writeFileSync(
        input,
        "origin,destination,modality,containerType\n" +
          "CNSHA,NLRTM,DEEPSEA,40HC\nNLRTM,DEDUI,BARGE,20DV\nNLRTM,DEDUI,TRUCK,40HC\n" +
          "DEHAM,ATVIE,RAIL,40HC\nRotterdm,NLRTM,DEEPSEA,\n"
      );
      // Tells which file ran: the bundle or the modules.
      const probe = path.join(tmp, "probe.js");
      fs.writeFileSync(
        probe,
        'process.on("exit", () => process.stderr.write("@@bundle " + ' +
          'Object.keys(require.cache).some((f) => f.endsWith("main.bundle.js"))));\n'
      );
      const run = (flag: string) =>
        spawnSync(process.execPath, ["-r", probe, BIN, "lanes", input], {
          encoding: "utf8",
          env: { ...process.env, ROUTE_SHEETS_BUNDLE: flag },
          timeout: 120_000,
        });
      const bundled = run("");
      const modules = run("0");
      expect(bundled.stderr).toContain("@@bundle true");
      expect(modules.stderr).toContain("@@bundle false");
      expect(bundled.status).toBe(0);
      expect(modules.status).toBe(0);
      expect(bundled.stdout).toBe(modules.stdout);
      expect(bundled.stdout.split("\n")).toHaveLength(7);
    }
  );
});
