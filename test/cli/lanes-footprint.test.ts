/**
 * `route-sheets lanes --footprint out.json` (issue 20 item 6) through the real command (dist/ is
 * built by `npm test`): each lane's result with its method block as JSON (iLEAP-style shipment
 * footprint) and as CSV, the same figures as /emissions?include=method and the sheet's columns.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parse } from "csv-parse/sync";
import { loadEngine } from "../../src/data/load-engine";
import { loadFactorSets } from "../../src/data/emissions";
import { emissionsReport, FactorEmissionCalculator } from "../../src/engine/emissions";
import { FOOTPRINT_CSV_COLUMNS } from "../../src/client/footprint";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "bin/route-sheets.js");

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rs-footprint-"));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

test("writes the JSON and the CSV footprint; figures equal /emissions?include=method and the sheet", () => {
  const input = path.join(tmp, "in.csv");
  fs.writeFileSync(
    input,
    "lane_id;origin;destination;modality;containerType;containers;weightTons\n" +
      "1;CNSHA;NLRTM;DEEPSEA;40HC;3;\n" +
      "2;NLRTM;DEDUI;BARGE;;;4.5\n" +
      "3;USLAX;USNYC;RAIL;;;\n" +
      "4;XXXXX;NLRTM;DEEPSEA;;;\n"
  );
  const out = path.join(tmp, "out.csv");
  const fp = path.join(tmp, "fp.json");
  const r = spawnSync(process.execPath, [BIN, "lanes", input, "-o", out, "--footprint", fp], {
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  const doc = JSON.parse(fs.readFileSync(fp, "utf8"));
  expect(doc.factorSet).toBe("2026.2");
  expect(doc.lanes.map((l: { row: number }) => l.row)).toEqual([2, 3, 4, 5]);

  const engine = loadEngine();
  const sets = loadFactorSets(engine.parts.emissions as FactorEmissionCalculator);
  const sheet = parse(fs.readFileSync(out, "utf8"), { columns: true, delimiter: ";" }) as Array<
    Record<string, string>
  >;
  const first = doc.lanes[0];
  const want = emissionsReport(
    engine,
    sets,
    {
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      containerType: "40HC",
      containers: "3",
    },
    { method: true }
  );
  const { context: _c, method, ...result } = want;
  expect(first.result).toEqual(result);
  expect(first.method).toEqual(method);
  expect(first.method.tradeLane).toBe("Asia to-from North Europe");
  // A ; sheet is written with decimal commas (lanes --decimal defaults to "," there).
  expect(Number(sheet[0].co2e_kg_per_teu.replace(",", "."))).toBe(first.result.co2eTeu);
  // iLEAP shipment footprint: 3 × 40HC = 60 t, one TCE, WTW = the shipment total.
  const tce = first.shipmentFootprint.tces[0];
  expect(first.shipmentFootprint.mass).toBe("60000");
  expect(tce.packagingOrTrEqAmount).toBe("3");
  expect(tce.co2eWTW).toBe(String(first.result.co2eKg));
  expect(Number(tce.co2eWTW)).toBeCloseTo(3 * 2 * first.result.co2eTeu, 2);
  expect(Number(tce.co2eTTW)).toBe(first.result.co2eKgTtw);
  // The engine's CNSHA-NLRTM distance (19,336.67 km with the sea router of this build).
  const km = first.result.distance / 1000;
  expect(km).toBeGreaterThan(19_000);
  expect(tce.distance).toEqual({
    value: String(Math.round(km * 1000) / 1000),
    unit: "km",
    dataSource: "Simulated",
  });
  expect(Number(tce.transportActivity)).toBeCloseTo(60 * km, 1);
  expect(first.toc).toMatchObject({
    mode: "Sea",
    co2eIntensityWTW: "49.9",
    temperatureControl: "ambient",
  });

  // A part load by weight: tonnes × co2eTon; rail in North America: region, distance basis.
  expect(doc.lanes[1].result.co2eKg).toBeCloseTo(4.5 * doc.lanes[1].result.co2eTon, 3);
  expect(doc.lanes[1].shipmentFootprint.mass).toBe("4500");
  expect(doc.lanes[2].method.region).toBe("North America");
  expect(doc.lanes[3].error).toMatch(/^unknown place "XXXXX"/);

  // The CSV in the sheet's own format (;, decimal commas), with every column of the sheet.
  const text = fs.readFileSync(path.join(tmp, "fp.footprint.csv"), "utf8");
  expect(text.split("\n")[0]).toBe(
    [
      "row",
      "lane_id",
      "origin",
      "destination",
      "modality",
      "containerType",
      "containers",
      "weightTons",
      "modality_used",
      "containerType_used",
      "fuelType",
      ...FOOTPRINT_CSV_COLUMNS.slice(6),
    ].join(";")
  );
  const csv = parse(text, { columns: true, delimiter: ";" }) as Array<Record<string, string>>;
  const tenth = (x: number) => String(Math.round(x * 10) / 10).replace(".", ",");
  expect(csv).toHaveLength(4);
  expect(csv.map((l) => l.lane_id)).toEqual(["1", "2", "3", "4"]);
  expect(csv[0]).toMatchObject({
    row: "2",
    containers: "3",
    co2e_kg_per_teu: tenth(first.result.co2eTeu),
    co2e_kg_shipment: tenth(first.result.co2eKg),
    trade_lane: "Asia to-from North Europe",
    factor_set: "2026.2",
    distance_basis: "shortest feasible",
    data_type: "default",
  });
  const num = (cell: string) => Number(cell.replace(",", "."));
  expect(
    Math.abs(
      num(csv[0].co2e_kg_per_teu_wtt) +
        num(csv[0].co2e_kg_per_teu_ttw) -
        num(csv[0].co2e_kg_per_teu)
    )
  ).toBeLessThanOrEqual(0.1 + 1e-9);
  expect(csv[3].error).toMatch(/XXXXX/);
});
