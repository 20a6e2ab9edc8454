/**
 * `route-sheets lanes` through the real command (dist/ is built by `npm test`): every input column kept,
 * results appended in order, a bad row carries its message and the rest go on.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadEngine } from "../../src/data/load-engine";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-lanes-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** The precision every surface writes km, nm and kg with. */
const tenth = (x: number) => Math.round(x * 10) / 10;

function run(csv: string, ...extra: string[]) {
  const input = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(input, csv);
  return spawnSync(process.execPath, [BIN, "lanes", input, ...extra], {
    encoding: "utf8",
    timeout: 60_000,
  });
}

/** Runs on raw bytes (encodings, byte-order marks); stdout as bytes. */
function runBytes(bytes: Buffer, ...extra: string[]) {
  const input = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(input, bytes);
  return spawnSync(process.execPath, [BIN, "lanes", input, ...extra], { timeout: 60_000 });
}

describe("route-sheets lanes", () => {
  const engine = loadEngine();

  it("appends distances and emissions to every row, in order, keeping extra columns", () => {
    const r = run(
      "lane_id,origin,destination,modality,containerType,fuelType\n" +
        "1,CNSHA,NLRTM,DEEPSEA,40HC,\n" +
        "2,NLRTM,DEDUI,BARGE,,\n" +
        "3,nl rtm,ITMIL,TRUCK,,HVO\n" +
        "4,CNSHA,NLRTM,FLY,,\n" +
        "5,XXXXX,NLRTM,DEEPSEA,,\n" +
        "6,NLRTM,USNYC,TRUCK,,\n" +
        "7,CNSHA,NLRTM,DEEPSEA,99ZZ,\n"
    );
    expect(r.status).toBe(0);
    const rows: Record<string, string>[] = parse(r.stdout, { columns: true });
    expect(Object.keys(rows[0])).toEqual([
      "lane_id",
      "origin",
      "destination",
      "modality",
      "containerType",
      "fuelType",
      "distance_m",
      "distance_km",
      "distance_nm",
      "co2e_kg_per_teu",
      "co2e_kg_per_ton",
      "co2e_kg_shipment",
      "error",
    ]);
    expect(rows.map((x) => x.lane_id)).toEqual(["1", "2", "3", "4", "5", "6", "7"]);

    const sea = engine.emissions({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      containerType: "40HC",
    });
    expect(Number(rows[0].distance_m)).toBe(sea.distance);
    // One rounding rule on every surface: 0.1 km, nm and kg.
    expect(Number(rows[0].distance_km)).toBe(tenth(sea.distance / 1000));
    expect(Number(rows[0].distance_nm)).toBe(tenth(sea.distance / 1852));
    expect(Number(rows[0].co2e_kg_per_teu)).toBe(tenth(sea.co2eTeu));
    expect(Number(rows[0].co2e_kg_per_ton)).toBe(tenth(sea.co2eTon));
    expect(rows[0].co2e_kg_shipment).toBe("");
    expect(rows[0].error).toBe("");

    const truck = engine.emissions({
      origin: "NLRTM",
      destination: "ITMIL",
      modality: "TRUCK",
      fuelType: "HVO",
    });
    expect(Number(rows[2].distance_m)).toBe(truck.distance);
    expect(Number(rows[2].co2e_kg_per_teu)).toBe(tenth(truck.co2eTeu));

    // Errors in the functions' words, each fitting a cell and naming the argument.
    expect(rows[3].error).toMatch(/^modality "FLY" .*DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK/);
    expect(rows[3].distance_m).toBe("");
    expect(rows[4].error).toMatch(/^unknown place "XXXXX"/);
    expect(rows[5].error).not.toBe("");
    expect(rows[6].error).toMatch(/^containerType/);
    for (const row of rows) expect(row.error.length).toBeLessThanOrEqual(100);
  });

  it("writes to -o and refuses input without the required columns", () => {
    const out = path.join(tmp, "out.csv");
    const ok = run("origin,destination,modality\nSGSIN,CNSHA,DEEPSEA\n", "-o", out);
    expect(ok.status).toBe(0);
    const rows: Record<string, string>[] = parse(fs.readFileSync(out, "utf8"), { columns: true });
    expect(rows).toHaveLength(1);
    expect(Number(rows[0].distance_km)).toBeGreaterThan(3500);
    expect(Number(rows[0].distance_km)).toBeLessThan(4300);

    const bad = run("from,to,modality\nSGSIN,CNSHA,DEEPSEA\n");
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/missing column\(s\) origin, destination/);
  });

  it("reads ; and tab sheets with headers in any case, answers in the same delimiter; blank modality is DEEPSEA", () => {
    const sea = engine.emissions({ origin: "NLRTM", destination: "CNSHA", modality: "DEEPSEA" });
    for (const delimiter of [";", "\t"]) {
      const r = run(
        [
          ["Lane", "ORIGIN", "Destination", "Modality"],
          ["1", "NLRTM", "CNSHA", ""],
          ["2", "NLRTM", "CNSHA", "deepsea"],
        ]
          .map((row) => row.join(delimiter))
          .join("\r\n") + "\r\n"
      );
      expect(r.status).toBe(0);
      const lines = r.stdout.trim().split("\n");
      expect(lines[0].split(delimiter)).toEqual([
        "Lane",
        "ORIGIN",
        "Destination",
        "Modality",
        "distance_m",
        "distance_km",
        "distance_nm",
        "co2e_kg_per_teu",
        "co2e_kg_per_ton",
        "co2e_kg_shipment",
        "error",
      ]);
      const rows: string[][] = parse(r.stdout, { delimiter });
      // A ; sheet is written with decimal commas (a comma-decimal Excel made it).
      const num = (cell: string) => Number(delimiter === ";" ? cell.replace(",", ".") : cell);
      expect(rows[1][3]).toBe("");
      expect(num(rows[1][4])).toBe(sea.distance);
      expect(num(rows[2][4])).toBe(sea.distance);
      expect(num(rows[1][7])).toBe(tenth(sea.co2eTeu));
    }
  });

  it("writes cells that Excel would run as formulas with a leading apostrophe", () => {
    const r = run(
      "note,origin,destination,modality\n" +
        '"=HYPERLINK(""http://x"")",NLRTM,CNSHA,\n' +
        '+1,"-33.9,151.2",SGSIN,DEEPSEA\n' +
        "@SUM(A1),=1+1,NLRTM,\n"
    );
    expect(r.status).toBe(0);
    const rows: Record<string, string>[] = parse(r.stdout, { columns: true });
    expect(rows.map((x) => x.note)).toEqual(['\'=HYPERLINK("http://x")', "'+1", "'@SUM(A1)"]);
    expect(rows[1].origin).toBe("'-33.9,151.2");
    expect(Number(rows[1].distance_m)).toBe(
      engine.distance({ origin: "-33.9,151.2", destination: "SGSIN", modality: "DEEPSEA" }).distance
    );
    expect(rows[2].origin).toBe("'=1+1");
    expect(rows[2].error).toMatch(/^origin "=1\+1": not a place/);
    for (const row of rows)
      for (const cell of Object.values(row))
        if (!/^-?\d+(\.\d+)?$/.test(cell)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it("refuses a quote left open, naming the row and how to quote; a stray quote is that row's error", () => {
    const open = run('origin,destination,modality\nNLRTM,CNSHA,DEEPSEA\n"DEHAM,CNSHA,DEEPSEA\n');
    expect(open.status).toBe(1);
    expect(open.stdout).toBe("");
    expect(open.stderr.trim()).toBe(
      'Input row 3: Quoted field unterminated; a cell with a quote, a delimiter or a line break must be in double quotes, its quotes doubled ("").'
    );
    const stray = run('origin,destination,modality\nNL"RTM,CNSHA,DEEPSEA\nNLRTM,CNSHA,DEEPSEA\n');
    expect(stray.status).toBe(0);
    const rows: Record<string, string>[] = parse(stray.stdout, { columns: true });
    expect(rows.map((r) => r.origin)).toEqual(['NL"RTM', "NLRTM"]);
    expect(rows[0].error).toBe('unknown place "NL"RTM"');
    expect(Number(rows[1].distance_m)).toBeGreaterThan(0);
  });

  it("refuses duplicate column names (any case), naming them", () => {
    const r = run("origin,destination,Origin,modality\nNLRTM,CNSHA,DEHAM,DEEPSEA\n");
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      'Input has duplicate column name(s): "Origin" (columns 1 and 3); each column name may appear once (names are compared without regard to case).'
    );
  });

  it("ends quietly when the reader closes the pipe (| head)", () => {
    const input = path.join(tmp, "many.csv");
    fs.writeFileSync(
      input,
      "origin,destination,modality\n" + "NLRTM,CNSHA,DEEPSEA\n".repeat(20_000)
    );
    const r = spawnSync(
      "/bin/sh",
      ["-c", `"${process.execPath}" "${BIN}" lanes "${input}" | head -n 2`],
      { encoding: "utf8", timeout: 120_000 }
    );
    const sh = spawnSync(
      "/bin/bash",
      [
        "-c",
        `set -o pipefail; "${process.execPath}" "${BIN}" lanes "${input}" | head -n 2 >/dev/null`,
      ],
      { encoding: "utf8", timeout: 120_000 }
    );
    expect(r.stdout.split("\n").slice(0, 2)).toEqual([
      "origin,destination,modality,distance_m,distance_km,distance_nm,co2e_kg_per_teu,co2e_kg_per_ton,co2e_kg_shipment,error",
      expect.stringMatching(/^NLRTM,CNSHA,DEEPSEA,\d+,/),
    ]);
    expect(r.stderr).toBe("");
    expect(sh.stderr).toBe("");
    expect(sh.status).toBe(0);
  });

  describe("European and regional files", () => {
    const sea = () =>
      engine.emissions({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" });
    const semicolonSheet = "lane;origin;destination;modality\r\n1;CNSHA;NLRTM;DEEPSEA\r\n";

    it("a ; sheet gets decimal commas; --decimal . and --decimal , override", () => {
      const { distance, co2eTeu } = sea();
      const commas: string[][] = parse(run(semicolonSheet).stdout, { delimiter: ";" });
      const km = commas[1][5];
      expect(km).toMatch(/^\d+,\d$/);
      expect(Number(km.replace(",", "."))).toBe(tenth(distance / 1000));
      expect(Number(commas[1][7].replace(",", "."))).toBe(tenth(co2eTeu));
      const points: string[][] = parse(run(semicolonSheet, "--decimal", ".").stdout, {
        delimiter: ";",
      });
      expect(Number(points[1][5])).toBe(tenth(distance / 1000));
      // A , sheet asked for decimal commas: each such number is quoted, so columns stay put.
      const quoted: string[][] = parse(
        run("origin,destination,modality\nCNSHA,NLRTM,DEEPSEA\n", "--decimal", ",").stdout
      );
      expect(quoted[1]).toHaveLength(10);
      expect(quoted[1][4]).toBe(km);
    });

    it("refuses an unknown --decimal, naming the allowed values", () => {
      const r = run(semicolonSheet, "--decimal", ";");
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('--decimal ";" is not allowed: use "," or "."');
    });

    it("keeps a UTF-8 byte-order mark and the characters after it", () => {
      const text = "note;origin;destination;modality\r\nRotterdam – Shanghai;NLRTM;CNSHA;\r\n";
      const out = runBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
      expect(out.status).toBe(0);
      const stdout = out.stdout as Buffer;
      expect([...stdout.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows: string[][] = parse(stdout.subarray(3).toString("utf8"), { delimiter: ";" });
      expect(rows[1][0]).toBe("Rotterdam – Shanghai");
      // Without a mark in, none out.
      const plain = runBytes(Buffer.from(text)).stdout as Buffer;
      expect(plain[0]).toBe("n".charCodeAt(0));
    });

    it("reads a Windows-1252 (Latin-1) file as Excel writes it; writes UTF-8 with a mark", () => {
      // "Café – Genève" in Windows-1252: é = E9, – = 96, è = E8.
      const header = Buffer.from("note;origin;destination;modality\r\n", "latin1");
      const note = Buffer.from([
        0x43, 0x61, 0x66, 0xe9, 0x20, 0x96, 0x20, 0x47, 0x65, 0x6e, 0xe8, 0x76, 0x65,
      ]);
      const rest = Buffer.from(";NLRTM;CNSHA;\r\n", "latin1");
      const out = runBytes(Buffer.concat([header, note, rest]));
      expect(out.status).toBe(0);
      const stdout = out.stdout as Buffer;
      expect([...stdout.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const rows: string[][] = parse(stdout.subarray(3).toString("utf8"), { delimiter: ";" });
      expect(rows[1][0]).toBe("Café – Genève");
      expect(rows[1][10]).toBe("");
    });
  });
});
