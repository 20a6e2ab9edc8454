/**
 * `route-sheets data …` through the real command: builds dist/ (npm run build:node), then runs
 * bin/route-sheets.js in a temporary directory.
 */
import { execFileSync, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { terminalId } from "../../src/engine/places";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");
const FIXTURES = path.join(ROOT, "test/fixtures");

let tmp: string;

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  // tsc emits even when some other module has type errors; what matters is that dist/ is current.
  try {
    execFileSync("npm", ["run", "build:node"], { cwd: ROOT, stdio: "pipe" });
  } catch {
    /* reported by the tests below if the CLI does not run */
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-data-cli-"));
  fs.copyFileSync(
    path.join(FIXTURES, "unlocode-sample.csv"),
    path.join(tmp, "2024-2 UNLOCODE CodeListPart1.csv")
  );
}, 180_000);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("route-sheets data", () => {
  it("import-unlocode reports how many were imported and how many have coordinates", () => {
    const r = cli(
      "data",
      "import-unlocode",
      "2024-2 UNLOCODE CodeListPart1.csv",
      "--data-dir",
      "dd"
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /Imported 20 UN\/LOCODE locations, 17 with coordinates, from 1 file\(s\)/
    );
    expect(r.stdout).toMatch(
      /skipped 13 country\/reference rows, 1 marked X, 0 malformed, 1 repeated codes/
    );
    const store = JSON.parse(fs.readFileSync(path.join(tmp, "dd/places/unlocode.json"), "utf8"));
    expect(store.locodes.length).toBe(20 * 5);
    expect(store.files).toEqual(["2024-2 UNLOCODE CodeListPart1.csv"]);
  });

  it("resolve uses the imported list", () => {
    const r = cli("data", "resolve", "AD ALV", "--data-dir", "dd");
    expect(r.status).toBe(0);
    const resolved = JSON.parse(r.stdout);
    expect(resolved).toEqual({
      kind: "LOCODE",
      locode: "ADALV",
      name: "Andorra la Vella",
      lat: 42.5,
      lng: 1.5167,
      functions: "--34-6--",
      snapDistance: expect.any(Number),
    });
    // Andorra is inland: the sea network's nearest point is on the Mediterranean coast, 100+ km away.
    expect(resolved.snapDistance).toBeGreaterThan(100_000);
    expect(resolved.snapDistance).toBeLessThan(250_000);
    const missing = cli("data", "resolve", "ADFMO", "--data-dir", "dd");
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(
      /ADFMO \(La Farga de Moles\): known code, no position; give "lat,lng" instead/
    );
  });

  it("import-terminals stores terminals that the search then finds", () => {
    const r = cli(
      "data",
      "import-terminals",
      path.join(FIXTURES, "terminals-sample.csv"),
      "--data-dir",
      "dd"
    );
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /Imported 10 terminal\(s\) from terminals-sample\.csv; 10 imported terminal\(s\) now in /
    );
    expect(fs.existsSync(path.join(tmp, "dd/places/terminals.csv"))).toBe(true);
    const found = JSON.parse(
      cli("data", "terminals", "nlrtm", "delta", "ect", "--data-dir", "dd").stdout
    );
    expect(found.map((t: { name: string }) => t.name)).toEqual(["ECT Delta Terminal"]);
    expect(found[0].id).toBe(terminalId("NLRTM", "ECT Delta Terminal"));
    const resolved = JSON.parse(cli("data", "resolve", found[0].id, "--data-dir", "dd").stdout);
    expect(resolved).toMatchObject({
      kind: "TERMINAL",
      terminalId: found[0].id,
      locode: "NLRTM",
      lat: 51.9528,
      lng: 4.0433,
    });
  });

  it("fails with a message for a missing file", () => {
    const r = cli("data", "import-unlocode", "nope.csv", "--data-dir", "dd");
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/File not found: nope\.csv/);
  });
});
