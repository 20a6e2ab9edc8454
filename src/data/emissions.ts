/** Reads data/emission-factors.json and builds the engine's emission calculator. */
import fs from "node:fs";
import path from "node:path";
import { EmissionFactorData, FactorEmissionCalculator, FactorSets } from "../engine/emissions";

export { FactorEmissionCalculator, FactorSets };

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

/** data/emission-factor-sets/: earlier factor sets, one whole factor file each. */
export const EARLIER_FACTOR_SETS_DIR = path.resolve(__dirname, "../../data/emission-factor-sets");

let earlier: FactorEmissionCalculator[] | undefined;
const setsByCurrent = new WeakMap<FactorEmissionCalculator, FactorSets>();

/** The current calculator (the shipped one unless given) with the earlier sets beside it. */
export function loadFactorSets(current: FactorEmissionCalculator = loadEmissions()): FactorSets {
  let sets = setsByCurrent.get(current);
  if (sets) return sets;
  earlier ??= fs.existsSync(EARLIER_FACTOR_SETS_DIR)
    ? fs
        .readdirSync(EARLIER_FACTOR_SETS_DIR)
        .filter((f) => f.endsWith(".json"))
        .sort()
        .reverse()
        .map((f) => loadEmissions(path.join(EARLIER_FACTOR_SETS_DIR, f)))
    : [];
  sets = new FactorSets(current, earlier);
  setsByCurrent.set(current, sets);
  return sets;
}
