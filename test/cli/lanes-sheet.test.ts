/**
 * `route-sheets lanes` reads a sheet as the add-in's functions read their cells (issue 30 item 2):
 * names, decimal commas, "busan" as a name, blank rows blank, a repeated header skipped, errors in
 * the functions' words (at most 100 characters, naming the argument), and `--footprint` refusing
 * paths that would overwrite the input or the output (issue 31). Through the real command (dist/).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadEngine } from "../../src/data/load-engine";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");
const FIXTURE = path.join(ROOT, "test/fixtures/lanes/european-lane-sheet.csv");

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-lanes-sheet-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function lanes(args: string[]) {
  return spawnSync(process.execPath, [BIN, "lanes", ...args], {
    encoding: "utf8",
    timeout: 120_000,
  });
}

function runText(csv: string, ...extra: string[]) {
  const input = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(input, csv);
  return lanes([input, ...extra]);
}

const engine = loadEngine();
const tenth = (x: number) => Math.round(x * 10) / 10;
const km = (origin: string, destination: string, modality: string) =>
  tenth(engine.distance({ origin, destination, modality }).distance / 1000);

test("names, lower-case names, decimal commas and codes give the same lanes", () => {
  const r = runText(
    "id;origin;destination;modality\n" +
      "a;NLRTM;DEHAM;TRUCK\n" +
      "b;Rotterdam;Hamburg;TRUCK\n" +
      "c;rotterdam;hamburg;TRUCK\n" +
      'd;"51,95;4,05";"53,54;9,94";TRUCK\n' +
      "e;51,95 4,05;53,54 9,94;TRUCK\n" +
      "f;51.95,4.05;53.54,9.94;TRUCK\n" +
      "g;busan;Shanghai;\n" +
      "h;KRPUS;CNSHA;DEEPSEA\n" +
      "i;São Paulo;Santos;TRUCK\n"
  );
  expect(r.stderr).toBe("");
  const rows: Record<string, string>[] = parse(r.stdout, { columns: true, delimiter: ";" });
  const num = (cell: string) => Number(cell.replace(",", "."));
  for (const row of rows) expect(row.error).toBe("");
  expect(num(rows[1].distance_km)).toBe(num(rows[0].distance_km));
  expect(num(rows[2].distance_km)).toBe(num(rows[0].distance_km));
  expect(num(rows[0].distance_km)).toBe(km("NLRTM", "DEHAM", "TRUCK"));
  expect(num(rows[3].distance_km)).toBe(km("51.95,4.05", "53.54,9.94", "TRUCK"));
  expect(num(rows[4].distance_km)).toBe(num(rows[3].distance_km));
  expect(num(rows[5].distance_km)).toBe(num(rows[3].distance_km));
  expect(num(rows[6].distance_km)).toBe(num(rows[7].distance_km));
  expect(num(rows[8].distance_km)).toBeGreaterThan(0);
});

test("blank rows stay blank, a repeated header is skipped, errors fit a cell and name the argument", () => {
  const r = runText(
    "Lane ID,Origin,Destination,Modality\n" +
      "1,NLRTM,DEHAM,TRUCK\n" +
      "2,,,\n" +
      "Lane ID,Origin,Destination,Modality\n" +
      "3,Rotterdm,DEHAM,TRUCK\n" +
      "4,NLRTM,,TRUCK\n" +
      "5,XXXXX,DEHAM,TRUCK\n" +
      "6,NLRTM,1;2;3,TRUCK\n" +
      `7,${"x".repeat(150)},DEHAM,TRUCK\n`
  );
  expect(r.status).toBe(0);
  const rows: Record<string, string>[] = parse(r.stdout, { columns: true });
  const results = (row: Record<string, string>) =>
    [row.distance_m, row.distance_km, row.co2e_kg_per_teu, row.error].join("");
  expect(rows[0].error).toBe("");
  expect(results(rows[1])).toBe("");
  expect(results(rows[2])).toBe("");
  expect(rows[3].error).toMatch(/place "Rotterdm" — did you mean NLRTM/);
  expect(rows[4].error).toBe("destination is required: a code, name or lat,lng, e.g. NLRTM");
  expect(rows[5].error).toMatch(/^unknown place "XXXXX"/);
  expect(rows[6].error).toMatch(/^destination "1;2;3": /);
  for (const row of rows) expect(row.error.length).toBeLessThanOrEqual(100);
  expect(rows[7].error).toMatch(/^origin "x+…": a name is at most 200 characters$|^unknown place/);
});

test("the European lane sheet: every lane but two upper-case names computes, blanks stay blank", () => {
  const out = path.join(tmp, "eu.csv");
  const r = lanes([FIXTURE, "-o", out]);
  expect(r.stderr).toBe("");
  const bytes = fs.readFileSync(out);
  // The input's byte-order mark, delimiter and decimal commas.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows: Record<string, string>[] = parse(bytes.subarray(3).toString("utf8"), {
    columns: true,
    delimiter: ";",
  });
  expect(rows).toHaveLength(191);
  const blank = rows.filter((x) => !x.Origin && !x.Destination);
  const computed = rows.filter((x) => x.distance_km && !x.error);
  const failed = rows.filter((x) => x.error);
  expect(blank.every((x) => !x.distance_km && !x.error)).toBe(true);
  expect(blank.length + computed.length + failed.length).toBe(191);
  // Only "KOPER" and "BASEL" fail: a code in capitals, answered with the place meant.
  expect(failed.map((x) => x.error).sort()).toEqual([
    'unknown place "BASEL" — did you mean CHBSL (Basel)?',
    'unknown place "KOPER" — did you mean SIKOP (Koper)?',
  ]);
  expect(computed.length).toBe(179);
  for (const row of computed) expect(row.distance_km).toMatch(/^\d+(,\d)?$/);
  expect(rows.map((x) => x["Lane ID"])).toEqual(
    Array.from({ length: 191 }, (_, i) => `EU-${String(i + 1).padStart(4, "0")}`)
  );
});

describe("--footprint paths", () => {
  const sheet = "origin,destination,modality\nNLRTM,DEHAM,TRUCK\n";

  it("refuses the input, the -o file and a missing folder up front, naming --footprint", () => {
    const input = path.join(tmp, "fp-in.csv");
    fs.writeFileSync(input, sheet);
    const out = path.join(tmp, "fp-out.csv");
    fs.writeFileSync(out, "keep me");
    for (const [args, message] of [
      [[input, "--footprint", input], /--footprint would overwrite the input/],
      [[input, "-o", out, "--footprint", out], /--footprint would overwrite the -o file/],
      // x.json + x.footprint.csv: the CSV half is the -o file.
      [
        [input, "-o", path.join(tmp, "x.footprint.csv"), "--footprint", path.join(tmp, "x.json")],
        /--footprint would overwrite the -o file/,
      ],
      [
        [input, "-o", out, "--footprint", path.join(tmp, "missing", "fp.json")],
        /--footprint .*missing.* does not exist/,
      ],
    ] as const) {
      const r = lanes([...args]);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stdout).toBe("");
    }
    // Nothing was written over.
    expect(fs.readFileSync(input, "utf8")).toBe(sheet);
    expect(fs.readFileSync(out, "utf8")).toBe("keep me");
  });

  it("writes next to the output when the paths differ", () => {
    const input = path.join(tmp, "ok-in.csv");
    fs.writeFileSync(input, sheet);
    const r = lanes([
      input,
      "-o",
      path.join(tmp, "ok-out.csv"),
      "--footprint",
      path.join(tmp, "ok-fp.json"),
    ]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(fs.existsSync(path.join(tmp, "ok-fp.footprint.csv"))).toBe(true);
  });
});

test("--help lists every column the sheet reads", () => {
  const r = lanes(["--help"]);
  for (const column of [
    "origin",
    "destination",
    "modality",
    "vesselInfo",
    "containerType",
    "fuelType",
    "avoid",
    "via",
    "containers",
    "weightTons",
    "factorSet",
  ])
    expect(r.stdout).toMatch(new RegExp(`\\b${column}\\b`));
});
