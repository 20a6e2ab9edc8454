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

function run(csv: string, ...extra: string[]) {
  const input = path.join(tmp, `in-${Math.random().toString(36).slice(2)}.csv`);
  fs.writeFileSync(input, csv);
  return spawnSync(process.execPath, [BIN, "lanes", input, ...extra], {
    encoding: "utf8",
    timeout: 60_000,
  });
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
    expect(Number(rows[0].distance_km)).toBeCloseTo(sea.distance / 1000, 3);
    expect(Number(rows[0].distance_nm)).toBeCloseTo(sea.distance / 1852, 3);
    expect(Number(rows[0].co2e_kg_per_teu)).toBeCloseTo(sea.co2eTeu, 3);
    expect(Number(rows[0].co2e_kg_per_ton)).toBeCloseTo(sea.co2eTon, 3);
    expect(rows[0].error).toBe("");

    const truck = engine.emissions({
      origin: "NLRTM",
      destination: "ITMIL",
      modality: "TRUCK",
      fuelType: "HVO",
    });
    expect(Number(rows[2].distance_m)).toBe(truck.distance);
    expect(Number(rows[2].co2e_kg_per_teu)).toBeCloseTo(truck.co2eTeu, 3);

    expect(rows[3].error).toMatch(
      /^Incorrect Values: modality .*DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK/
    );
    expect(rows[3].distance_m).toBe("");
    expect(rows[4].error).toMatch(/^Unknown Data: origin XXXXX/);
    expect(rows[5].error).toMatch(/^Not Found: /);
    expect(rows[6].error).toMatch(/^Incorrect Values: containerType/);
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
});
