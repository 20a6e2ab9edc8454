/**
 * The emission calculator over the shipped data/emission-factors.json. Expected values are worked
 * out by hand from the published factors (written out below), not read back from the code.
 */
import {
  loadEmissionFactors,
  loadEmissions,
  FactorEmissionCalculator,
} from "../../../src/data/emissions";
import { isRouteSheetsError, RouteSheetsError } from "../../../src/engine/errors";
import { MODALITIES } from "../../../src/engine/types";

const calc = loadEmissions();
const SHANGHAI_ROTTERDAM_M = 19_500_000;

// FuelEU Annex II (GWP CH4 25, N2O 298): WtW g CO2e/MJ = WtT + TtW per g / LCV.
const VLSFO = 13.2 + (3.151 + 0.00005 * 25 + 0.00018 * 298) / 0.041; // 91.392
const HFO = 13.5 + (3.114 + 0.00005 * 25 + 0.00018 * 298) / 0.0405; // 91.744
const LNG_SLOW_SPEED = 18.5 + (0.983 * (2.75 + 0.00011 * 298) + 0.017 * 25) / 0.0491; // 82.868, 1.7 % slip
const LNG_MEDIUM_SPEED = 18.5 + (0.969 * (2.75 + 0.00011 * 298) + 0.031 * 25) / 0.0491; // 89.203, 3.1 % slip
const DIESEL = 88.06; // EN 16258 B7: 3.76 kg CO2e/kg ÷ 42.7 MJ/kg
const HVO = 10.0; // WtT only, biogenic CO2

function expectError(fn: () => unknown, parameter: string): RouteSheetsError {
  try {
    fn();
  } catch (e) {
    expect(isRouteSheetsError(e)).toBe(true);
    const err = e as RouteSheetsError;
    expect(err.kind).toBe("bad-value");
    expect(err.parameter).toBe(parameter);
    return err;
  }
  throw new Error("expected an error");
}

describe("default factors", () => {
  test("deep sea, generic TEU, no lane, 19,500 km: GLEC v3 industry average 89.0 g/TEU-km", () => {
    const r = calc.compute({ modality: "DEEPSEA", distanceMeters: SHANGHAI_ROTTERDAM_M });
    // 89.0 g × 19,500 km = 1,735.5 kg per TEU; 10 t per TEU → 173.55 kg per tonne.
    expect(r).toEqual({ co2eTeu: 1735.5, co2eTon: 173.55 });
  });

  test("short sea 1,000 km, no lane: GLEC v3 'Other' lane 108.3 g/TEU-km", () => {
    expect(calc.compute({ modality: "SHORTSEA", distanceMeters: 1_000_000 })).toEqual({
      co2eTeu: 108.3,
      co2eTon: 10.83,
    });
  });

  test("barge 500 km: GLEC v3 container vessel 110 m, 27.0 g/t-km × 10 t/TEU", () => {
    expect(calc.compute({ modality: "BARGE", distanceMeters: 500_000 })).toEqual({
      co2eTeu: 135,
      co2eTon: 13.5,
    });
  });

  test("rail defaults to electric: GLEC v3 European container trains, electric 6.4, diesel 27.6 g/t-km", () => {
    expect(calc.compute({ modality: "RAIL", distanceMeters: 1_000_000 })).toEqual({
      co2eTeu: 64,
      co2eTon: 6.4,
    });
    expect(
      calc.compute({ modality: "RAIL", distanceMeters: 1_000_000, fuelType: "ELECTRIC" })
    ).toEqual({ co2eTeu: 64, co2eTon: 6.4 });
    expect(
      calc.compute({ modality: "RAIL", distanceMeters: 1_000_000, fuelType: "DIESEL" })
    ).toEqual({ co2eTeu: 276, co2eTon: 27.6 });
  });

  test("truck 500 km: 102.73 g/t-km", () => {
    expect(calc.compute({ modality: "TRUCK", distanceMeters: 500_000 })).toEqual({
      co2eTeu: 513.65,
      co2eTon: 51.365,
    });
  });

  test("zero distance (the engine validates inputs with it) gives zero", () => {
    for (const modality of MODALITIES) {
      expect(calc.compute({ modality, distanceMeters: 0 })).toEqual({ co2eTeu: 0, co2eTon: 0 });
    }
  });
});

describe("container types", () => {
  test("40HC: per TEU unchanged, per tonne = box emissions (2 TEU) / 20 t", () => {
    const r = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: SHANGHAI_ROTTERDAM_M,
      containerType: "40HC",
    });
    expect(r).toEqual({ co2eTeu: 1735.5, co2eTon: (1735.5 * 2) / 20 });
  });

  test("45HC is 2.25 TEU with 22.5 t", () => {
    const b = calc.explain({ modality: "TRUCK", distanceMeters: 100_000, containerType: "l5g1" });
    expect([b.containerType, b.teu, b.payloadTonnes]).toEqual(["45HC", 2.25, 22.5]);
  });

  test("sea reefers use GLEC's published reefer intensity; other modalities pay the 12 % uplift", () => {
    const r = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: SHANGHAI_ROTTERDAM_M,
      containerType: "40RF",
    });
    // Industry average reefer 172.2 g/TEU-km × 19,500 km = 3,357.9 kg; × 2 TEU / 20 t = 335.79 kg/t.
    expect(r).toEqual({ co2eTeu: 3357.9, co2eTon: 335.79 });
    const truck = calc.explain({
      modality: "TRUCK",
      distanceMeters: 1_000_000,
      containerType: "20RF",
    });
    expect(truck.reeferFactor).toBe(1.12);
    expect(truck.co2eTeu).toBeCloseTo(1027.3 * 1.12, 3);
  });

  test("ISO 6346 codes and aliases, any case and spacing", () => {
    const names = [
      "22G1",
      "20dv",
      " 20GP ",
      "45g1",
      "40hc",
      "40HQ",
      "22R1",
      "45R1",
      "42r1",
      "22U1",
      "42P1",
      "22T1",
    ].map(
      (c) =>
        calc.explain({ modality: "TRUCK", distanceMeters: 1000, containerType: c }).containerType
    );
    expect(names).toEqual([
      "20DV",
      "20DV",
      "20DV",
      "40HC",
      "40HC",
      "40HC",
      "20RF",
      "40RF",
      "40RF",
      "20OT",
      "40FR",
      "20TK",
    ]);
  });

  test("unknown container type lists the allowed values", () => {
    const err = expectError(
      () => calc.compute({ modality: "DEEPSEA", distanceMeters: 1000, containerType: "53HC" }),
      "containerType"
    );
    expect(err.detail).toContain('"53HC"');
    expect(err.detail).toContain("20DV (22G1");
    expect(err.detail).toContain("40RF (45R1");
    expect(err.detail).toContain("20TK (22T1");
  });
});

describe("fuel types", () => {
  test("LNG on deep sea: slow-speed dual fuel, 1.7 % slip, energy use unchanged", () => {
    const r = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: SHANGHAI_ROTTERDAM_M,
      fuelType: "lng",
    });
    const teu = (89.0 * (LNG_SLOW_SPEED / VLSFO) * 19_500) / 1000; // ≈ 1,573.62 kg
    expect(r.co2eTeu).toBeCloseTo(teu, 2);
    expect(r.co2eTeu).toBeCloseTo(1573.626, 2);
    expect(r.co2eTon).toBeCloseTo(teu / 10, 2);
  });

  test("LNG on short sea uses the medium-speed 3.1 % slip", () => {
    const r = calc.compute({ modality: "SHORTSEA", distanceMeters: 1_000_000, fuelType: "LNG" });
    expect(r.co2eTeu).toBeCloseTo(108.3 * (LNG_MEDIUM_SPEED / VLSFO), 2);
  });

  test("HFO on deep sea is slightly above VLSFO", () => {
    const r = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: SHANGHAI_ROTTERDAM_M,
      fuelType: "HFO",
    });
    expect(r.co2eTeu).toBeCloseTo(1735.5 * (HFO / VLSFO), 2); // ≈ 1,742.18
  });

  test("HVO truck: diesel energy, 10 g CO2e/MJ instead of 88.06", () => {
    const r = calc.compute({ modality: "TRUCK", distanceMeters: 500_000, fuelType: "hvo" });
    const teu = (1027.3 * (HVO / DIESEL) * 500) / 1000; // ≈ 58.33 kg
    expect(r.co2eTeu).toBeCloseTo(teu, 2);
    expect(r.co2eTeu).toBeCloseTo(58.33, 2);
  });

  test("HVO on diesel rail", () => {
    const r = calc.compute({ modality: "RAIL", distanceMeters: 1_000_000, fuelType: "HVO" });
    expect(r.co2eTeu).toBeCloseTo(276 * (HVO / DIESEL), 2);
  });

  test("bio-methanol and bio LNG are accepted with dashes or spaces", () => {
    const a = calc.explain({ modality: "DEEPSEA", distanceMeters: 1000, fuelType: "bio-methanol" });
    const b = calc.explain({ modality: "DEEPSEA", distanceMeters: 1000, fuelType: "Bio LNG" });
    expect([a.fuelType, b.fuelType]).toEqual(["BIO_METHANOL", "BIO_LNG"]);
    expect(a.fuelRatio).toBeLessThan(0.2);
  });

  test("a fuel the modality cannot burn is Incorrect Values listing that modality’s fuels", () => {
    const e1 = expectError(
      () => calc.compute({ modality: "DEEPSEA", distanceMeters: 1000, fuelType: "ELECTRIC" }),
      "fuelType"
    );
    expect(e1.detail).toContain("cannot be used for DEEPSEA");
    expect(e1.detail).toContain("allowed values for DEEPSEA: VLSFO, HFO, MGO, LNG");
    const e2 = expectError(
      () => calc.compute({ modality: "TRUCK", distanceMeters: 1000, fuelType: "HFO" }),
      "fuelType"
    );
    expect(e2.detail).toContain("allowed values for TRUCK: DIESEL, HVO, LNG, BIO_LNG");
    expectError(
      () => calc.compute({ modality: "RAIL", distanceMeters: 1000, fuelType: "LNG" }),
      "fuelType"
    );
  });

  test("an unknown fuel is Incorrect Values too", () => {
    const err = expectError(
      () => calc.compute({ modality: "RAIL", distanceMeters: 1000, fuelType: "COAL" }),
      "fuelType"
    );
    expect(err.detail).toBe(
      'fuelType "COAL" is not known; allowed values for RAIL: ELECTRIC, DIESEL, HVO.'
    );
  });

  test("allowedFuels lists the default first", () => {
    expect(calc.allowedFuels("RAIL")).toEqual(["ELECTRIC", "DIESEL", "HVO"]);
    expect(calc.allowedFuels("DEEPSEA")[0]).toBe("VLSFO");
  });
});

describe("distance", () => {
  test("negative or non-finite distance is rejected", () => {
    expectError(() => calc.compute({ modality: "TRUCK", distanceMeters: -1 }), "distance");
    expectError(() => calc.compute({ modality: "TRUCK", distanceMeters: Number.NaN }), "distance");
  });
});

describe("vessel size classes (DESNZ class / average ratios on the deep-sea intensity)", () => {
  const vessel = (lengthM: number, beamM: number) => ({
    lengthCm: lengthM * 100,
    widthCm: beamM * 100,
    draughtCm: 1200,
  });
  const at = (lengthM: number, beamM: number, distanceMeters = 1_000_000) =>
    calc.explain({ modality: "DEEPSEA", distanceMeters, vessel: vessel(lengthM, beamM) });

  test("a ULCV (HMM Algeciras, 399.9 m x 61 m) gets the 8,000+ TEU factor 0.01266 / 0.01612 = 0.7854", () => {
    const r = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: SHANGHAI_ROTTERDAM_M,
      vessel: vessel(399.9, 61),
    });
    // 89.0 × 0.7854 = 69.9006 g/TEU-km × 19,500 km = 1,363.062 kg; / 10 t = 136.306 kg/t.
    expect(r).toEqual({ co2eTeu: 1363.062, co2eTon: 136.306 });
  });

  test("classes by beam and length: feeder, feedermax, Panamax (beam <= 32.31 m), post-Panamax, large", () => {
    const small = at(140, 22);
    expect([small.sizeClass, small.co2eTeu]).toEqual(["Small feeder", 202.902]); // 89.0 × 2.2798
    expect(at(172, 27).sizeClass).toBe("Feeder"); // 89.0 × 2.0161
    expect(at(172, 27).co2eTeu).toBe(179.433);
    expect(at(210, 30).sizeClass).toBe("Feedermax");
    expect(at(210, 30).co2eTeu).toBe(111.802); // 89.0 × 1.2562 = 111.8018
    const panamax = at(294, 32.2);
    expect([panamax.sizeClass, panamax.co2eTeu]).toEqual(["Panamax", 92.809]); // 89.0 × 1.0428
    expect(at(300, 42.8).sizeClass).toBe("Post-Panamax");
    expect(at(366, 51).sizeClass).toBe("Large / Neo-Panamax / ULCV");
    expect(at(366, 51).co2eTeu).toBe(69.901); // 89.0 × 0.7854
  });

  test("the size factor applies to every fuel and to reefers", () => {
    const lng = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: 1_000_000,
      fuelType: "LNG",
      vessel: vessel(399.9, 61),
    });
    expect(lng.co2eTeu).toBeCloseTo(89.0 * 0.7854 * (LNG_SLOW_SPEED / VLSFO), 2);
    const reefer = calc.compute({
      modality: "DEEPSEA",
      distanceMeters: 1_000_000,
      containerType: "40RF",
      vessel: vessel(399.9, 61),
    });
    expect(reefer.co2eTeu).toBe(135.246); // reefer 172.2 × 0.7854 = 135.2459
  });

  test("a vessel does not change short sea (no size classes there)", () => {
    const r = calc.compute({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vessel: vessel(140, 22),
    });
    expect(r.co2eTeu).toBe(108.3);
  });

  test("a factor file with absolute size classes picks the class from beam and length", () => {
    const data = loadEmissionFactors();
    data.modalities.DEEPSEA.sizeClasses = [
      {
        name: "Feeder",
        teuRange: "<1000",
        maxBeamM: 32.31,
        maxLengthM: 150,
        gCo2eWtwPerTeuKm: 100,
        source: "test",
      },
      {
        name: "Panamax",
        teuRange: "3000-5000",
        maxBeamM: 32.31,
        gCo2eWtwPerTeuKm: 70,
        source: "test",
      },
      {
        name: "Neo-Panamax",
        teuRange: "10000-14500",
        maxBeamM: 51.25,
        gCo2eWtwPerTeuKm: 50,
        source: "test",
      },
      { name: "ULCV", teuRange: ">14500", gCo2eWtwPerTeuKm: 40, source: "test" },
    ];
    const c = new FactorEmissionCalculator(data);
    const absAt = (lengthM: number, beamM: number) =>
      c.explain({ modality: "DEEPSEA", distanceMeters: 1_000_000, vessel: vessel(lengthM, beamM) });
    expect(absAt(140, 22).sizeClass).toBe("Feeder");
    expect(absAt(294, 32.2).sizeClass).toBe("Panamax");
    expect(absAt(366, 51).sizeClass).toBe("Neo-Panamax");
    const ulcv = absAt(399, 59);
    expect([ulcv.sizeClass, ulcv.co2eTeu]).toEqual(["ULCV", 40]);
    // Without a vessel the modality default applies.
    expect(c.compute({ modality: "DEEPSEA", distanceMeters: 1_000_000 }).co2eTeu).toBe(89);
  });
});

describe("battery-electric truck", () => {
  test("ELECTRIC truck: 35 % of the diesel energy at the EU-27 2023 grid (214 g/kWh)", () => {
    const r = calc.compute({ modality: "TRUCK", distanceMeters: 500_000, fuelType: "electric" });
    // 1,027.3 g/TEU-km × 0.35 × (214 / 3.6 = 59.444 g/MJ) / 88.06 g/MJ = 242.716 g/TEU-km × 500 km.
    const teu = (((1027.3 * 0.35 * (214 / 3.6)) / DIESEL) * 500) / 1000;
    expect(r.co2eTeu).toBeCloseTo(teu, 3);
    expect(r.co2eTeu).toBe(121.358);
    expect(r.co2eTon).toBe(12.136);
  });

  test("TRUCK lists ELECTRIC last, after its liquid fuels; BARGE still refuses it", () => {
    expect(calc.allowedFuels("TRUCK")).toEqual(["DIESEL", "HVO", "LNG", "BIO_LNG", "ELECTRIC"]);
    const err = expectError(
      () => calc.compute({ modality: "BARGE", distanceMeters: 0, fuelType: "ELECTRIC" }),
      "fuelType"
    );
    expect(err.detail).toBe(
      'fuelType "ELECTRIC" cannot be used for BARGE; allowed values for BARGE: DIESEL, MGO, HVO, LNG, BIO_LNG.'
    );
  });

  test("rail electric is unchanged by the grid factor (its own published intensity)", () => {
    expect(
      calc.compute({ modality: "RAIL", distanceMeters: 1_000_000, fuelType: "ELECTRIC" }).co2eTeu
    ).toBe(64);
  });
});

describe("hub factors", () => {
  test("maritime container terminal: 10.7 kg CO2e per container ambient, 12.6 temperature-controlled (GLEC v3 Table 3)", () => {
    const h = calc.hub("MARITIME_CONTAINER_TERMINAL");
    expect(h).toBeDefined();
    expect([h!.ambient, h!.temperatureControlled, h!.unit]).toEqual([
      10.7,
      12.6,
      "kg CO2e per container",
    ]);
    expect(calc.hub("NOPE")).toBeUndefined();
  });
});

describe("data file", () => {
  const data = loadEmissionFactors();

  test("every intensity, container type and fuel cites a source", () => {
    const entries: Array<[string, { source?: string }]> = [];
    for (const [m, f] of Object.entries(data.modalities)) {
      for (const [d, i] of Object.entries(f.intensities)) entries.push([`${m}.${d}`, i]);
      entries.push([`${m}.reefer`, { source: f.reeferSource }]);
    }
    for (const [k, v] of Object.entries(data.containerTypes)) entries.push([k, v]);
    for (const [k, v] of Object.entries(data.fuels)) entries.push([k, v]);
    entries.push(["gwp", data.meta.gwp]);
    for (const [name, e] of entries) {
      expect([name, typeof e.source === "string" && e.source.length > 10]).toEqual([name, true]);
    }
  });

  test("GLEC payload assumption: 10 t per TEU everywhere, payload = 10 t × TEU", () => {
    for (const f of Object.values(data.modalities)) expect(f.tonnesPerTeu).toBe(10);
    for (const t of Object.values(data.containerTypes))
      expect(t.payloadTonnes).toBeCloseTo(t.teu * 10, 9);
  });

  test("loadEmissions() is read once and shared", () => {
    expect(loadEmissions()).toBe(calc);
  });
});
