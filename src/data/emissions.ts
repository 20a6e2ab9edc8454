/** Reads data/emission-factors.json and builds the engine's emission calculator. */
import fs from "node:fs";
import path from "node:path";
import { EmissionFactorData, FactorEmissionCalculator } from "../engine/emissions";

export { FactorEmissionCalculator };

/** data/emission-factors.json (same relative place from src/data and dist/data). */
export const EMISSION_FACTORS_FILE = path.resolve(__dirname, "../../data/emission-factors.json");

export function loadEmissionFactors(file: string = EMISSION_FACTORS_FILE): EmissionFactorData {
  return JSON.parse(fs.readFileSync(file, "utf8")) as EmissionFactorData;
}

let cached: FactorEmissionCalculator | undefined;

/** The calculator over the shipped factors (read once), or over another factor file. */
export function loadEmissions(file?: string): FactorEmissionCalculator {
  if (file) return new FactorEmissionCalculator(loadEmissionFactors(file));
  cached ??= new FactorEmissionCalculator(loadEmissionFactors());
  return cached;
}
