/**
 * `route-sheets data import-unlocode` refuses what is not the code list (issue 31): an empty,
 * binary or JSON file, or one without a single location, fails with a non-zero exit and leaves the
 * previous import as it was; over-long names and control characters are not imported.
 */
import { execFileSync, spawnSync } from "child_process";
import * as crypto from "crypto";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");
const SAMPLE = path.join(ROOT, "test/fixtures/unlocode-sample.csv");

let tmp: string;
let store: string;

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: tmp,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  try {
    execFileSync("npm", ["run", "build:node"], { cwd: ROOT, stdio: "pipe" });
  } catch {
    /* reported by the tests below if the CLI does not run */
  }
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-import-unlocode-"));
  store = path.join(tmp, "dd/places/unlocode.json");
  fs.copyFileSync(SAMPLE, path.join(tmp, "good.csv"));
  const first = cli("data", "import-unlocode", "good.csv", "--data-dir", "dd");
  expect(first.status).toBe(0);
}, 180_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const bad: [string, () => Buffer | string, RegExp][] = [
  ["an empty file", () => "", /empty\.csv is empty/],
  ["a file of blank lines", () => "\n \n\n", /blank\.csv is empty/],
  [
    "a binary file",
    () => Buffer.concat([Buffer.from("PK\u0003\u0004"), crypto.randomBytes(4096), Buffer.alloc(8)]),
    /binary\.csv is a binary file/,
  ],
  [
    "a JSON file",
    () => JSON.stringify({ locodes: "NLRTM", names: ["Rotterdam"] }),
    /json\.csv is JSON/,
  ],
  ["a JSON array", () => '[["NL","RTM","Rotterdam"]]', /array\.csv is JSON/],
  [
    "text without a location",
    () => "name,lat,lng\nRotterdam,51.9,4.5\nHamburg,53.5,9.9\n",
    /No UN\/LOCODE locations in text\.csv/,
  ],
];

describe.each(bad)("import-unlocode refuses %s", (_what, content, message) => {
  it("with a non-zero exit, a message naming the file, and the previous import kept", () => {
    const name = /(\w+)\\\.csv/.exec(message.source)![1] + ".csv";
    fs.writeFileSync(path.join(tmp, name), content());
    const before = fs.readFileSync(store, "utf8");
    const r = cli("data", "import-unlocode", name, "--data-dir", "dd");
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).not.toMatch(/Imported/);
    expect(fs.readFileSync(store, "utf8")).toBe(before);
    // The kept import still resolves.
    expect(JSON.parse(cli("data", "resolve", "ADALV", "--data-dir", "dd").stdout).name).toBe(
      "Andorra la Vella"
    );
  });
});

it("import-unlocode drops rows with an over-long name or control characters, keeps the rest", () => {
  const rows = [
    ',"NL","RTM","Rotterdam","Rotterdam","ZH","AI","12345---","0601","","5155N 00430E",""',
    `,"NL","XXL","${"A".repeat(2_000_000)}","A","ZH","AI","--3-----","0601","","",""`,
    ',"NL","NUL","Nul\u0000plaats","Nulplaats","ZH","AI","--3-----","0601","","",""',
    ',"NL","BEL","Bel\u0007plaats","Belplaats","ZH","AI","--3-----","0601","","",""',
  ];
  fs.writeFileSync(path.join(tmp, "mixed.csv"), rows.join("\n") + "\n");
  const r = cli("data", "import-unlocode", "mixed.csv", "--data-dir", "dd2");
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/Imported 1 UN\/LOCODE locations/);
  expect(r.stdout).toMatch(/3 malformed/);
  const saved = JSON.parse(fs.readFileSync(path.join(tmp, "dd2/places/unlocode.json"), "utf8"));
  expect(saved.locodes).toBe("NLRTM");
  expect(Math.max(...saved.names.map((n: string) => n.length))).toBeLessThanOrEqual(100);
});
