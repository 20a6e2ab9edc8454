/**
 * Well-to-tank shares per fuel pinned against the factor table (issue 30, a test a mutant passed:
 * WTT + TTW = WTW holds by construction, so it cannot catch a wrong share). Each share is worked
 * out here from data/emission-factors.json with FuelEU's formula, per modality's LNG engine class,
 * and the two that matter most are pinned as numbers.
 */
import * as fs from "fs";
import * as path from "path";
import { loadEmissions } from "../../../src/data/emissions";

const table = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../../data/emission-factors.json"), "utf8")
);
const calculator = loadEmissions();

interface Fuel {
  lcvMjPerG?: number;
  wttGco2ePerMj?: number;
  wtwGco2ePerMj?: number;
  gCo2ePerKwh?: number;
  cfCo2?: number;
  cfCh4?: number;
  cfN2o?: number;
  biogenicCo2?: boolean;
  methaneSlipPercent?: Record<string, number>;
}

/** FuelEU Annex I: WtT ÷ (WtT + TtW per g ÷ LCV), slipped methane at GWP CH4. */
function expectedShare(fuel: Fuel, engine: string | undefined): number {
  if (fuel.gCo2ePerKwh !== undefined) return 1;
  const { ch4, n2o } = table.meta.gwp;
  let wtw = fuel.wtwGco2ePerMj;
  if (wtw === undefined) {
    const slipTable = fuel.methaneSlipPercent;
    const slip = slipTable ? (slipTable[engine ?? Object.keys(slipTable)[0]] ?? 0) / 100 : 0;
    const burnt =
      (fuel.biogenicCo2 ? 0 : fuel.cfCo2!) + (fuel.cfCh4 ?? 0) * ch4 + (fuel.cfN2o ?? 0) * n2o;
    wtw = fuel.wttGco2ePerMj! + ((1 - slip) * burnt + slip * ch4) / fuel.lcvMjPerG!;
  }
  return Math.min(1, fuel.wttGco2ePerMj! / wtw);
}

test("every fuel of every modality: the calculator's WTT share is the table's", () => {
  let checked = 0;
  for (const [modality, m] of Object.entries(table.modalities) as [
    string,
    { fuels: string[] | Record<string, unknown>; lngEngine?: string },
  ][]) {
    const fuels = Array.isArray(m.fuels) ? m.fuels : Object.keys(m.fuels);
    for (const name of fuels) {
      const fuel = table.fuels[name] as Fuel | undefined;
      if (!fuel) continue;
      const r = calculator.explain({
        modality: modality as never,
        distanceMeters: 1_000_000,
        fuelType: name,
      });
      expect({ modality, name, share: r.wttShare }).toEqual({
        modality,
        name,
        share: expect.closeTo(expectedShare(fuel, m.lngEngine), 9),
      });
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(10);
});

test("deep-sea LNG (Otto slow-speed slip) and VLSFO: pinned, and not the same", () => {
  const share = (fuelType: string) =>
    calculator.explain({ modality: "DEEPSEA", distanceMeters: 1_000_000, fuelType }, false)
      .wttShare;
  // VLSFO: 13.2 / (13.2 + (3.151 + 0.00005·25 + 0.00018·298) / 0.041) = 0.1444
  expect(share("VLSFO")).toBeCloseTo(0.1444, 4);
  // LNG, 1.7 % slip: 18.5 / (18.5 + (0.983·(2.75 + 0.00011·298) + 0.017·25) / 0.0491) = 0.2232
  expect(share("LNG")).toBeCloseTo(0.2232, 4);
  expect(Math.abs(share("LNG") - share("VLSFO"))).toBeGreaterThan(0.05);
});
