/** vesselInfo parsing, the vessel registry and canal limits, on the shipped data files. */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { importVessels, loadSeaRouter, loadVesselResolver } from "../../../src/data/sea";
import { isRouteSheetsError } from "../../../src/engine/errors";
import { isValidImo, parseVesselInfo } from "../../../src/engine/routing/vessels";

function errorOf(fn: () => unknown): { kind: string; parameter?: string; detail: string } {
  try {
    fn();
  } catch (e) {
    if (isRouteSheetsError(e)) return { kind: e.kind, parameter: e.parameter, detail: e.detail };
    throw e;
  }
  throw new Error("expected an error");
}

describe("vesselInfo parsing", () => {
  it("reads length,width,draught in centimetres", () => {
    expect(parseVesselInfo("36600,5125,1520")).toEqual({
      kind: "DIMENSIONS",
      dimensions: { lengthCm: 36600, widthCm: 5125, draughtCm: 1520 },
    });
    expect(parseVesselInfo(" 15000 , 2200.5 , 700 ")).toEqual({
      kind: "DIMENSIONS",
      dimensions: { lengthCm: 15000, widthCm: 2200.5, draughtCm: 700 },
    });
  });

  it("reads IMO and MMSI identifiers", () => {
    expect(parseVesselInfo("IMO9811000")).toEqual({ kind: "IMO", imo: "9811000" });
    expect(parseVesselInfo("imo 9811000")).toEqual({ kind: "IMO", imo: "9811000" });
    expect(parseVesselInfo("MMSI353136000")).toEqual({ kind: "MMSI", mmsi: "353136000" });
  });

  it.each([
    ["1,2"],
    ["1,2,3,4"],
    ["0,2000,700"],
    ["-1,2000,700"],
    ["abc"],
    ["IMO123456"],
    ["IMO12345678"],
    ["IMO9811001"], // bad check digit
    ["MMSI12345678"],
    ["MMSI1234567890"],
    [""],
  ])("rejects %j with Incorrect Values naming vesselInfo and the allowed forms", (value) => {
    const e = errorOf(() => parseVesselInfo(value, "vesselInfo"));
    expect(e.kind).toBe("bad-value");
    expect(e.parameter).toBe("vesselInfo");
    expect(e.detail).toContain("length,width,draught");
    expect(e.detail).toContain("IMO");
    expect(e.detail).toContain("MMSI");
  });

  it("checks IMO check digits", () => {
    for (const imo of ["9811000", "9863297", "9321483", "9776171", "9619907"])
      expect(isValidImo(imo)).toBe(true);
    expect(isValidImo("9811009")).toBe(false);
  });
});

describe("vessel registry", () => {
  const vessels = loadVesselResolver();

  it("ships real vessels, each with a source", () => {
    expect(vessels.size).toBeGreaterThanOrEqual(7);
    for (const v of vessels.all()) expect(v.source).toMatch(/https?:\/\//);
  });

  it("resolves IMO and MMSI to the vessel dimensions (cm)", () => {
    expect(vessels.resolve("IMO9811000", "vesselInfo")).toMatchObject({
      name: "EVER GIVEN",
      lengthCm: 39994,
      widthCm: 5880,
      draughtCm: 1600,
    });
    expect(vessels.resolve("MMSI353136000", "vesselInfo")).toMatchObject({ imo: "9811000" });
  });

  it("answers Unknown Data for a well-formed but unknown vessel", () => {
    const e = errorOf(() => vessels.resolve("IMO1234567", "vesselInfo"));
    expect(e.kind).toBe("unknown-data");
    expect(e.parameter).toBe("vesselInfo");
    expect(errorOf(() => vessels.resolve("MMSI123456789", "vesselInfo")).kind).toBe("unknown-data");
  });

  it("imports a CSV, reporting bad rows, adding the valid ones", () => {
    const reg = loadVesselResolver();
    const r = reg.importCsv(
      "imo,mmsi,name,length,beam,draught\n9074729,,TEST PANAMAX,294,32.2,12\n1234568,,BAD,1,1,1\n,,NOID,1,1,1\n"
    );
    expect(r.imported).toBe(1);
    expect(r.rejected.map((x) => x.line)).toEqual([3, 4]);
    expect(reg.resolve("IMO9074729", "vesselInfo")).toMatchObject({
      lengthCm: 29400,
      widthCm: 3220,
      draughtCm: 1200,
    });
  });

  it("persists imports in DIR/vessels.csv and loads them back", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vessels-"));
    const res = importVessels(
      "imo,mmsi,name,length,beam,draught,source\n9074729,211000000,TEST FEEDER,150,23,8,test\n",
      dir
    );
    expect(res).toMatchObject({ imported: 1, total: 1 });
    const reg = loadVesselResolver({ dataDir: dir });
    expect(reg.resolve("MMSI211000000", "vesselInfo")).toMatchObject({
      name: "TEST FEEDER",
      lengthCm: 15000,
    });
    // A second import replaces the same IMO instead of duplicating it.
    importVessels(
      "imo,mmsi,name,length,beam,draught\n9074729,211000000,TEST FEEDER 2,151,23,8\n",
      dir
    );
    expect(loadVesselResolver({ dataDir: dir }).resolve("IMO9074729", "vesselInfo")).toMatchObject({
      name: "TEST FEEDER 2",
    });
  });
});

describe("closed passages", () => {
  const vessels = loadVesselResolver();
  const sorted = (s: Set<string>) => [...s].sort();

  it("by default closes the ice routes, KIEL and CORINTH", () => {
    expect(sorted(vessels.closedPassages(undefined))).toEqual([
      "CORINTH",
      "KIEL",
      "NORTHEAST",
      "NORTHWEST",
    ]);
  });

  it("opens KIEL and CORINTH for a small vessel; ice routes stay closed", () => {
    const small = vessels.resolve("9000,1300,500", "vesselInfo");
    expect(sorted(vessels.closedPassages(small))).toEqual(["NORTHEAST", "NORTHWEST"]);
  });

  it("Kiel: a 177 m feeder at 9.5 m draught does not fit, at 7.0 m it does", () => {
    expect(
      vessels.closedPassages({ lengthCm: 17756, widthCm: 3055, draughtCm: 950 }).has("KIEL")
    ).toBe(true);
    expect(
      vessels.closedPassages({ lengthCm: 17756, widthCm: 3055, draughtCm: 700 }).has("KIEL")
    ).toBe(false);
    expect(
      vessels.closedPassages({ lengthCm: 16000, widthCm: 2700, draughtCm: 950 }).has("KIEL")
    ).toBe(false);
  });

  it("Panama: a Panamax fits the old locks, a Neopanamax the new ones, Ever Given neither", () => {
    expect(
      vessels.closedPassages({ lengthCm: 29400, widthCm: 3230, draughtCm: 1200 }).has("PANAMA")
    ).toBe(false);
    expect(
      vessels.closedPassages({ lengthCm: 36600, widthCm: 5125, draughtCm: 1520 }).has("PANAMA")
    ).toBe(false);
    const everGiven = vessels.resolve("IMO9811000", "vesselInfo");
    expect(vessels.closedPassages(everGiven).has("PANAMA")).toBe(true);
  });

  it("Panama: the Panamax cruise ship Coral Princess (shipped, by IMO) fits the old locks; 10 cm more beam would need the Neopanamax locks, 10 m more length neither", () => {
    const coral = vessels.resolve("IMO9229659", "vesselInfo");
    expect(coral).toMatchObject({
      name: "CORAL PRINCESS",
      lengthCm: 29400,
      widthCm: 3220,
      draughtCm: 820,
    });
    expect(vessels.closedPassages(coral).has("PANAMA")).toBe(false);
    const limits = vessels.limits.limits.filter((l) => l.passage === "PANAMA");
    const old = limits.find((l) => l.variant.startsWith("Panamax"))!;
    expect(coral.widthCm / 100).toBeLessThanOrEqual(old.maxBeamM!);
    expect(coral.lengthCm / 100).toBeLessThanOrEqual(old.maxLengthM!);
    // Wider than the old locks but within the Neopanamax ones: still open (by the new locks).
    expect(vessels.closedPassages({ ...coral, widthCm: 3300 }).has("PANAMA")).toBe(false);
    // Longer than the Neopanamax locks (366 m): closed.
    expect(vessels.closedPassages({ ...coral, lengthCm: 37000, widthCm: 3300 }).has("PANAMA")).toBe(
      true
    );
  });

  it("Suez: Ever Given fits (draught limit interpolated by beam); a 21 m draught tanker does not", () => {
    expect(vessels.closedPassages(vessels.resolve("IMO9811000", "vesselInfo")).has("SUEZ")).toBe(
      false
    );
    expect(
      vessels.closedPassages({ lengthCm: 33000, widthCm: 6000, draughtCm: 2100 }).has("SUEZ")
    ).toBe(true);
    expect(
      vessels.closedPassages({ lengthCm: 33000, widthCm: 7000, draughtCm: 1600 }).has("SUEZ")
    ).toBe(true);
  });

  it("Corinth: width/draught steps of the canal regulations", () => {
    expect(
      vessels.closedPassages({ lengthCm: 12000, widthCm: 1600, draughtCm: 640 }).has("CORINTH")
    ).toBe(false);
    expect(
      vessels.closedPassages({ lengthCm: 12000, widthCm: 1600, draughtCm: 650 }).has("CORINTH")
    ).toBe(true);
    expect(
      vessels.closedPassages({ lengthCm: 12000, widthCm: 1700, draughtCm: 500 }).has("CORINTH")
    ).toBe(true);
  });

  it("a ship too big for Panama routes Shanghai → New York another way", () => {
    const router = loadSeaRouter();
    const from = { lat: 30.63, lng: 122.07 };
    const to = { lat: 40.67, lng: -74.04 };
    const small = router.route(from, to, {
      closed: vessels.closedPassages({ lengthCm: 29000, widthCm: 3200, draughtCm: 1100 }),
    })!;
    const big = router.route(from, to, {
      closed: vessels.closedPassages(vessels.resolve("IMO9811000", "vesselInfo")),
    })!;
    expect(small.passages).toContain("PANAMA");
    expect(big.passages).not.toContain("PANAMA");
    expect(big.meters).toBeGreaterThan(small.meters);
  });
});
