/**
 * EU ETS for maritime transport: which share of a sea leg's emissions the ETS covers (intra-EU/EEA
 * 100 %, EU–non-EU 50 %), times the phase-in of the year, applied to the leg's tank-to-wake part
 * (the ETS counts direct emissions). Countries come from the ports' UN/LOCODEs.
 */
import { incorrectValues } from "../errors";
import { Modality } from "../types";

export interface EtsRules {
  shares: { intraEu: { value: number }; euNonEu: { value: number } };
  phaseIn: { byYear: Record<string, number> };
  countries: { members: string[] };
}

export interface EtsShare {
  scope: "intra-EU" | "EU–non-EU" | "outside" | "not a sea leg";
  /** 1, 0.5 or 0. */
  share: number;
  year: number;
  /** Surrender obligation of the year (0.4 for 2024, 0.7 for 2025, 1 from 2026; 0 before 2024). */
  phaseIn: number;
  /** share × phaseIn: the part of the leg's tank-to-wake emissions paid for with allowances. */
  coveredShare: number;
  originCountry?: string;
  destinationCountry?: string;
}

const SEA: ReadonlySet<Modality> = new Set(["DEEPSEA", "SHORTSEA"]);
const MIN_YEAR = 2000;
const MAX_YEAR = 2100;

export function parseYear(raw: string | number | undefined, fallback: number): number {
  if (raw === undefined || raw === null || (typeof raw === "string" && raw.trim() === ""))
    return fallback;
  const n = typeof raw === "number" ? raw : Number(raw.trim());
  if (!Number.isInteger(n) || n < MIN_YEAR || n > MAX_YEAR)
    throw incorrectValues(
      "year",
      `year must be a whole year from ${MIN_YEAR} to ${MAX_YEAR}, got ${String(raw).slice(0, 20)}.`
    );
  return n;
}

export function etsShare(
  rules: EtsRules,
  modality: Modality,
  originCountry: string | undefined,
  destinationCountry: string | undefined,
  year: number
): EtsShare {
  const phaseIn = phaseInOf(rules, year);
  const base = { year, phaseIn, originCountry, destinationCountry };
  if (!SEA.has(modality)) return { scope: "not a sea leg", share: 0, coveredShare: 0, ...base };
  const members = new Set(rules.countries.members);
  const a = originCountry !== undefined && members.has(originCountry);
  const b = destinationCountry !== undefined && members.has(destinationCountry);
  const share = a && b ? rules.shares.intraEu.value : a || b ? rules.shares.euNonEu.value : 0;
  const scope = a && b ? "intra-EU" : a || b ? "EU–non-EU" : "outside";
  return { scope, share, coveredShare: round(share * phaseIn), ...base };
}

/** The phase-in of the latest listed year not after `year` (0 before the first). */
function phaseInOf(rules: EtsRules, year: number): number {
  let best = 0;
  let bestYear = -Infinity;
  for (const [y, v] of Object.entries(rules.phaseIn.byYear)) {
    const n = Number(y);
    if (n <= year && n > bestYear) {
      best = v;
      bestYear = n;
    }
  }
  return best;
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
