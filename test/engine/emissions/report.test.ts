/**
 * The ISO 14083 detail (include=method), factor-set pinning and shipment totals, through the real
 * engine and factor files.
 */
import fc from "fast-check";
import { loadEngine } from "../../../src/data/load-engine";
import { loadFactorSets } from "../../../src/data/emissions";
import { emissionsReport, FactorEmissionCalculator } from "../../../src/engine/emissions";
import { MODALITIES } from "../../../src/engine/types";

const engine = loadEngine();
const sets = loadFactorSets(engine.parts.emissions as FactorEmissionCalculator);

describe("include=method", () => {
  test("CNSHA -> NLRTM: WTT + TTW = WTW to the gram, intensity, method block", () => {
    const r = emissionsReport(
      engine,
      sets,
      { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" },
      { method: true }
    );
    const plain = engine.emissions({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" });
    expect(r.co2eTeu).toBe(plain.co2eTeu);
    expect(r.co2eTon).toBe(plain.co2eTon);
    expect(r.distance).toBe(plain.distance);
    expect(Math.round((r.co2eTeuWtt! + r.co2eTeuTtw!) * 1000)).toBe(Math.round(r.co2eTeu * 1000));
    expect(Math.round((r.co2eTonWtt! + r.co2eTonTtw!) * 1000)).toBe(Math.round(r.co2eTon * 1000));
    // VLSFO: FuelEU WtT 13.2 of 91.39 g CO2e/MJ (GLEC's own split of the lane: 12.1 of 89.0).
    expect(r.co2eTeuWtt! / r.co2eTeu).toBeCloseTo(13.2 / 91.39, 3);
    expect(r.intensity).toEqual({ gCo2ePerTeuKm: 49.9, gCo2ePerTkm: 4.99 });
    expect(r.method).toMatchObject({
      framework: "GLEC v3.0; ISO 14083:2023",
      factorSet: "2026.2",
      tradeLane: "Asia to-from North Europe",
      dataType: "default",
      distanceBasis: "shortest feasible",
      fuelType: "VLSFO",
      containerType: "20DV",
    });
    expect(r.method!.factorSource[0]).toMatch(/GLEC Framework v3\.0.*Table 16/);
  });

  test("land legs: region, distance basis; electric rail is all WTT", () => {
    const rail = emissionsReport(
      engine,
      sets,
      { origin: "USLAX", destination: "USNYC", modality: "RAIL" },
      { method: true }
    );
    expect(rail.method).toMatchObject({ region: "North America", fuelType: "DIESEL" });
    const eu = emissionsReport(
      engine,
      sets,
      { origin: "NLRTM", destination: "DEDUI", modality: "RAIL" },
      { method: true }
    );
    expect(eu.method!.fuelType).toBe("ELECTRIC");
    expect(eu.co2eTeuTtw).toBe(0);
    expect(eu.co2eTeuWtt).toBe(eu.co2eTeu);
    const truck = emissionsReport(
      engine,
      sets,
      { origin: "NLRTM", destination: "ITMIL", modality: "TRUCK" },
      { method: true }
    );
    expect(truck.method!.distanceBasis).toBe("great circle × circuity");
    expect(truck.co2eTeuWtt! / truck.co2eTeu).toBeCloseTo(18.5 / 88.06, 3);
  });

  test("property: for every modality, fuel and box, WTT + TTW equal WTW to the gram and intensity × km = co2eTeu", () => {
    const calc = sets.current;
    const boxes = calc.containerTypeNames();
    fc.assert(
      fc.property(
        fc.constantFrom(...MODALITIES),
        fc.integer({ min: 0, max: 30_000_000 }),
        fc.constantFrom(...boxes),
        fc.nat(20),
        (modality, meters, box, fuelPick) => {
          const fuels = calc.allowedFuels(modality);
          const fuelType = fuels[fuelPick % fuels.length];
          const b = calc.explain({
            modality,
            distanceMeters: meters,
            containerType: box,
            fuelType,
          });
          expect(Math.round((b.co2eTeuWtt + b.co2eTeuTtw) * 1000)).toBe(
            Math.round(b.co2eTeu * 1000)
          );
          expect(Math.round((b.co2eTonWtt + b.co2eTonTtw) * 1000)).toBe(
            Math.round(b.co2eTon * 1000)
          );
          expect(b.co2eTeuWtt).toBeGreaterThanOrEqual(0);
          expect(b.co2eTeuTtw).toBeGreaterThanOrEqual(-0.001);
          // Rounded to the gram: half a gram, plus float noise.
          expect(Math.abs((b.gramsPerTeuKm * meters) / 1e6 - b.co2eTeu)).toBeLessThanOrEqual(
            0.0005 + 1e-9
          );
        }
      ),
      { numRuns: 300 }
    );
  });
});

describe("factorSet pinning", () => {
  test("the current set and an earlier one; the earlier one reproduces its old figures", () => {
    expect(sets.ids()).toEqual(["2026.2", "2026.1"]);
    const q = { origin: "NLRTM", destination: "NGLOS", modality: "DEEPSEA" };
    const now = emissionsReport(engine, sets, q, { method: true });
    const old = emissionsReport(engine, sets, { ...q, factorSet: "2026.1" }, { method: true });
    expect(now.distance).toBe(old.distance);
    // 2026.2: Europe-Africa end-user 125.8; 2026.1: GLEC v3.1 aggregate 89.4 g CO2e/TEU-km.
    expect(now.co2eTeu).toBeCloseTo((125.8 * now.distance) / 1e6, 3);
    expect(old.co2eTeu).toBeCloseTo((89.4 * old.distance) / 1e6, 3);
    expect(old.method!.factorSet).toBe("2026.1");
    expect(old.method!.framework).toMatch(/v3\.1/);
  });

  test("an unknown set is Incorrect Values naming factorSet and the allowed ids", () => {
    expect(() =>
      emissionsReport(engine, sets, {
        origin: "NLRTM",
        destination: "NGLOS",
        modality: "DEEPSEA",
        factorSet: "1999",
      })
    ).toThrow(/factorSet "1999" is not known; allowed values: 2026\.2, 2026\.1/);
  });
});

describe("shipments", () => {
  const q = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" };
  test("containers × TEU × co2eTeu; a part load by weight is tonnes × co2eTon", () => {
    const one = emissionsReport(engine, sets, q);
    expect(one.co2eKg).toBeUndefined();
    const three = emissionsReport(engine, sets, { ...q, containers: "3", containerType: "40HC" });
    expect(three.co2eKg).toBeCloseTo(3 * 2 * three.co2eTeu, 3);
    expect(three.shipment).toEqual({
      containers: 3,
      containerType: "40HC",
      teu: 6,
      basis: "containers",
    });
    const part = emissionsReport(engine, sets, { ...q, weightTons: "4.5" }, { method: true });
    expect(part.co2eKg).toBeCloseTo(4.5 * part.co2eTon, 3);
    expect(part.shipment!.basis).toBe("weight");
    expect(Math.round((part.co2eKgWtt! + part.co2eKgTtw!) * 1000)).toBe(
      Math.round(part.co2eKg! * 1000)
    );
  });

  test("bad containers / weightTons are Incorrect Values naming the parameter", () => {
    expect(() => emissionsReport(engine, sets, { ...q, containers: "2.5" })).toThrow(
      /containers must be a whole number/
    );
    expect(() => emissionsReport(engine, sets, { ...q, weightTons: "-1" })).toThrow(
      /weightTons must be a number from 0.001 to 10000000 tonnes of cargo/
    );
    expect(() => emissionsReport(engine, sets, { ...q, weightTons: "abc" })).toThrow(
      /weightTons must be a number/
    );
  });
});

describe("GLEC worked example", () => {
  test("GLEC v3.0 Module 2 worked example: Hamburg - Shanghai, 21,000 km at the Asia - North Europe lane, 49.9 g CO2e/TEU-km = 1,047.9 kg CO2e per TEU", () => {
    const calc = sets.current;
    const hamburg = engine.parts.places.resolve("DEHAM", "origin");
    const shanghai = engine.parts.places.resolve("CNSHA", "destination");
    const b = calc.explain({
      modality: "DEEPSEA",
      distanceMeters: 21_000_000,
      lane: { from: hamburg, to: shanghai },
    });
    expect(b.lane).toBe("Asia to-from North Europe");
    expect(b.co2eTeu).toBe(1047.9);
    // Per tonne with GLEC's 10 t per TEU default.
    expect(b.co2eTon).toBe(104.79);
  });
});
