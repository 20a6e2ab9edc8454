/**
 * Well-to-wake GHG intensity of a fuel per MJ, the way FuelEU Maritime (Regulation (EU) 2023/1805,
 * Annex I) combines the Annex II factors:
 *
 *   TtW per g fuel = (1 − slip) × (Cf_CO2 + Cf_CH4·GWP_CH4 + Cf_N2O·GWP_N2O) + slip × GWP_CH4
 *   WtW per MJ     = WtT per MJ + TtW per g fuel ÷ LCV
 *
 * The slipped share is unburnt methane, hence `slip × GWP_CH4`.
 */
import { FuelFactors } from "./factor-data";

const MJ_PER_KWH = 3.6;

export interface Gwp {
  ch4: number;
  n2o: number;
}

/** g CO2e per MJ, well-to-wake. `engine` picks the methane slip class for LNG-type fuels. */
export function wtwGramsPerMj(name: string, fuel: FuelFactors, gwp: Gwp, engine?: string): number {
  if (fuel.gCo2ePerKwh !== undefined) return fuel.gCo2ePerKwh / MJ_PER_KWH;
  if (fuel.wtwGco2ePerMj !== undefined) return fuel.wtwGco2ePerMj;
  const { lcvMjPerG, wttGco2ePerMj, cfCo2 } = fuel;
  if (lcvMjPerG === undefined || wttGco2ePerMj === undefined || cfCo2 === undefined) {
    throw new Error(`emission-factors: fuel ${name} lacks lcvMjPerG / wttGco2ePerMj / cfCo2`);
  }
  const slip = methaneSlipFraction(name, fuel, engine);
  const combusted =
    (fuel.biogenicCo2 ? 0 : cfCo2) + (fuel.cfCh4 ?? 0) * gwp.ch4 + (fuel.cfN2o ?? 0) * gwp.n2o;
  const ttwPerGram = (1 - slip) * combusted + slip * gwp.ch4;
  return wttGco2ePerMj + ttwPerGram / lcvMjPerG;
}

/**
 * The well-to-tank share of a fuel's WtW intensity: WtT per MJ ÷ WtW per MJ. Electricity has no
 * tank-to-wheel emissions (ISO 14083 counts its generation as WTT), so its share is 1.
 */
export function wttShareOf(name: string, fuel: FuelFactors, gwp: Gwp, engine?: string): number {
  if (fuel.gCo2ePerKwh !== undefined) return 1;
  if (fuel.wttGco2ePerMj === undefined) {
    throw new Error(`emission-factors: fuel ${name} lacks wttGco2ePerMj for the WTT/TTW split`);
  }
  const wtw = wtwGramsPerMj(name, fuel, gwp, engine);
  return wtw > 0 ? Math.min(1, fuel.wttGco2ePerMj / wtw) : 0;
}

function methaneSlipFraction(name: string, fuel: FuelFactors, engine: string | undefined): number {
  const table = fuel.methaneSlipPercent;
  if (!table) return 0;
  const key = engine ?? Object.keys(table)[0];
  const percent = table[key];
  if (percent === undefined) {
    throw new Error(`emission-factors: fuel ${name} has no methane slip for engine ${key}`);
  }
  return percent / 100;
}
