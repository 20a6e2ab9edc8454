/** Importing DCSA Commercial Schedules v1 vessel schedules and CSV connections, via the CLI. */
import { Command } from "commander";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { register } from "../../../src/cli/commands/schedules";
import { loadEngine } from "../../../src/data/load-engine";
import { importedFile, loadOptimizer, readImported } from "../../../src/data/optimizer";
import { parseConnectionsCsv } from "../../../src/engine/optimizer/import/csv";
import { parseDcsaVesselSchedules } from "../../../src/engine/optimizer/import/dcsa";

const FIX = path.join(__dirname, "fixtures");
const DCSA = path.join(FIX, "dcsa-vessel-schedules.json");
const CSV = path.join(FIX, "connections.csv");
const NOW = new Date("2027-01-04T00:00:00Z");
const engine = loadEngine({});

async function cli(...args: string[]): Promise<string> {
  const program = new Command("route-sheets").exitOverride();
  register(program);
  const out: string[] = [];
  const log = jest
    .spyOn(console, "log")
    .mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  const warn = jest
    .spyOn(console, "warn")
    .mockImplementation((...a: unknown[]) => void out.push(a.join(" ")));
  try {
    await program.parseAsync(["node", "route-sheets", ...args]);
  } finally {
    log.mockRestore();
    warn.mockRestore();
  }
  return out.join("\n");
}

const tmpDirs: string[] = [];
function tmpDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-schedules-"));
  tmpDirs.push(d);
  return d;
}
afterAll(() => tmpDirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("DCSA vessel schedules", () => {
  const parsed = parseDcsaVesselSchedules(JSON.parse(fs.readFileSync(DCSA, "utf8")), {
    source: "fixture",
    operator: "MSCU",
  });

  test("one voyage per vessel schedule; waterway points skipped; EST preferred over PLN", () => {
    expect(parsed.voyages).toHaveLength(2);
    const [a, b] = parsed.voyages;
    expect(a.operator).toBe("EGLV");
    expect(a.serviceCode).toBe("TAE1");
    expect(a.vessel).toEqual({ name: "EVER GIVEN", imo: "9811000", mmsi: "353136000" });
    expect(a.calls.map((c) => c.locode)).toEqual(["CNSHA", "SGSIN", "NLRTM", "DEHAM"]);
    expect(a.calls[0].departure).toBe("2027-01-06T12:00:00+08:00");
    expect(a.calls[0].terminal).toBe("Yangshan Phase IV Automated Container Terminal");
    // The dummy vessel has no operator code: the --operator default applies, and no vessel is invented.
    expect(b.operator).toBe("MSCU");
    expect(b.vessel).toBeUndefined();
  });

  test("rejects what is not a ServiceSchedule, and a schedule without operator", () => {
    expect(() => parseDcsaVesselSchedules([{ foo: 1 }], { source: "x" })).toThrow(
      /carrierServiceCode and vesselSchedules/
    );
    const noOperator = JSON.parse(fs.readFileSync(DCSA, "utf8"));
    expect(() => parseDcsaVesselSchedules(noOperator, { source: "x" })).toThrow(
      /operatorCarrierCode/
    );
  });
});

describe("CSV connections", () => {
  test("one voyage per row with terminals and times", () => {
    const r = parseConnectionsCsv(fs.readFileSync(CSV, "utf8"), { source: "fixture" });
    expect(r.voyages).toHaveLength(2);
    expect(r.voyages[0]).toMatchObject({
      operator: "CTGO",
      serviceCode: "RTM-DUI-X",
      modality: "BARGE",
      calls: [
        { locode: "NLRTM", terminal: "ECT Delta Terminal", departure: "2027-02-05T06:00:00Z" },
        {
          locode: "DEDUI",
          terminal: "Duisburg Intermodal Terminal (DIT)",
          arrival: "2027-02-06T01:00:00Z",
        },
      ],
    });
    expect(r.operatorCodes).toEqual(["CTGO", "NEWR"]);
  });

  test("reports every bad row with its line number", () => {
    const bad = () =>
      parseConnectionsCsv(fs.readFileSync(path.join(FIX, "connections-bad.csv"), "utf8"), {
        source: "x",
      });
    expect(bad).toThrow(
      /3 invalid row\(s\): line 2: modality "AIRPLANE" is not one of DEEPSEA, SHORTSEA, BARGE, RAIL/
    );
    expect(bad).toThrow(/line 3: origin_locode "NL-RTM-X" is not a UN\/LOCODE/);
    expect(bad).toThrow(/line 4: departure "yesterday" is not an ISO 8601 date-time/);
    expect(() => parseConnectionsCsv("a,b\n1,2\n", { source: "x" })).toThrow(
      /missing column\(s\) operator_scac/
    );
  });
});

describe("route-sheets schedules import", () => {
  test("extends the sample network; imported voyages are searchable with vessel and terminals", async () => {
    const dir = tmpDir();
    const out = await cli("schedules", "import", DCSA, "--data-dir", dir, "--operator", "MSCU");
    expect(out).toMatch(/Imported 2 voyage\(s\)/);
    expect(out).toMatch(/Network: 84 services\/voyages/);
    const out2 = await cli("schedules", "import", CSV, "--data-dir", dir);
    expect(out2).toMatch(/Imported 2 voyage\(s\)/);
    expect(out2).toMatch(/New operator code\(s\), named by their code: NEWR/);
    const stored = readImported(dir)!;
    expect(stored.replaceSample).toBe(false);
    expect(stored.voyages).toHaveLength(4);
    expect(stored.imports.map((i) => i.format)).toEqual(["dcsa", "csv"]);

    const optimizer = loadOptimizer({ dataDir: dir, engine, now: NOW });
    expect(optimizer.network.warnings).toEqual([]);
    expect(optimizer.operators().map((o) => o.scac)).toEqual(
      expect.arrayContaining(["MAEU", "EGLV", "NEWR"])
    );
    const results = optimizer.search({
      origin: "CNSHA",
      originType: "LOCODE",
      destination: "DEDUI",
      destinationType: "LOCODE",
      minDeparture: "2027-01-06",
      maxDeparture: "2027-01-06",
      allRequiredOperators: "EGLV",
      anyRequiredOperators: "CTGO",
    }).results;
    const imported = results.find((o) => o.legs[0].operators[0].serviceCodes[0] === "TAE1")!;
    expect(imported.latestDropOff).toBe("2027-01-06T04:00:00Z");
    expect(imported.legs[0].vessel).toEqual({
      name: "EVER GIVEN",
      imo: "9811000",
      mmsi: "353136000",
    });
    expect(imported.legs[0].originTerminals[0].name).toBe(
      "Yangshan Phase IV Automated Container Terminal"
    );
    expect(imported.legs[0].destination).toBe("NLRTM");
    expect(imported.legs[1].operators[0].serviceCodes).toEqual(["RTM-DUI-X"]);
    expect(imported.legs[1].departureDate).toBe("2027-02-05T06:00:00Z");
    expect(imported.earliestPickup).toBe("2027-02-06T01:00:00Z");
  });

  test("--replace replaces the sample network", async () => {
    const dir = tmpDir();
    await cli("schedules", "import", CSV, "--data-dir", dir);
    const out = await cli(
      "schedules",
      "import",
      DCSA,
      "--data-dir",
      dir,
      "--operator",
      "MSCU",
      "--replace"
    );
    expect(out).toMatch(/replacing the sample network/);
    expect(out).toMatch(/Network: 2 services\/voyages/);
    const stored = JSON.parse(fs.readFileSync(importedFile(dir), "utf8"));
    expect(stored.replaceSample).toBe(true);
    const optimizer = loadOptimizer({ dataDir: dir, engine, now: NOW });
    expect(
      optimizer
        .operators()
        .map((o) => o.scac)
        .sort()
    ).toEqual(["EGLV", "MSCU"]);
    expect(
      optimizer.search({
        origin: "CNSHA",
        originType: "LOCODE",
        destination: "NLRTM",
        destinationType: "LOCODE",
        minDeparture: "2027-01-05",
      }).results.length
    ).toBe(2);
  });

  test("errors name the problem", async () => {
    const dir = tmpDir();
    await expect(
      cli("schedules", "import", path.join(FIX, "nope.json"), "--data-dir", dir)
    ).rejects.toThrow(/File not found/);
    await expect(
      cli("schedules", "import", DCSA, "--data-dir", dir, "--modality", "AIR")
    ).rejects.toThrow(/--modality must be one of/);
    await expect(
      cli("schedules", "import", path.join(FIX, "connections-bad.csv"), "--data-dir", dir)
    ).rejects.toThrow(/invalid row/);
    expect(fs.existsSync(importedFile(dir))).toBe(false);
  });

  test("schedules search and operators print JSON", async () => {
    const out = await cli(
      "schedules",
      "search",
      "origin=CNCKG",
      "destination=DEDUI",
      "maxTransfers=0",
      "--data-dir",
      tmpDir()
    );
    const body = JSON.parse(out);
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results[0].legs[0].modality).toBe("RAIL");
    const ops = JSON.parse(await cli("schedules", "operators", "--data-dir", tmpDir()));
    expect(ops.find((o: { scac: string }) => o.scac === "HLCU").name).toBe("Hapag-Lloyd");
  });
});
