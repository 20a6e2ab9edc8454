/**
 * EU ETS for maritime transport: which share of a sea leg's emissions the ETS covers (intra-EU/EEA
 * 100 %, EU–non-EU 50 %), times the phase-in of the year, applied to the leg's tank-to-wake part
 * (the ETS counts direct emissions). Countries come from the ports' UN/LOCODEs.
 */
import { greatCircleMeters } from "../geo/geodesy";
import { wholeNumber } from "../parameters";
import { Modality } from "../types";

export interface EtsRules {
  shares: { intraEu: { value: number }; euNonEu: { value: number } };
  phaseIn: { byYear: Record<string, number> };
  countries: {
    members: string[];
    /** Country codes of territories under a Member State's jurisdiction (RE -> FR). */
    jurisdiction?: { byCountryCode: Record<string, string> };
  };
  /** Article 12 derogation: voyages within one Member State touching an outermost region. */
  outermostRegions?: {
    untilYear: number;
    regions: Array<{
      name: string;
      memberState: string;
      countryCodes?: string[];
      /** [minLng, minLat, maxLng, maxLat] */
      boxes?: Array<[number, number, number, number]>;
    }>;
  };
  /** Ports whose container stops are not ports of call (Implementing Regulation (EU) 2023/2297). */
  neighbouringTranshipmentPorts?: {
    ports: Array<{ name: string; locodes: string[]; lat: number; lng: number; radiusKm: number }>;
  };
}

/** One end of a leg: its LOCODE's country, and where it is (for regions known by position). */
export interface EtsEnd {
  country?: string;
  locode?: string;
  lat?: number;
  lng?: number;
}

export type EtsScope =
  | "intra-EU"
  | "EU–non-EU"
  | "outside"
  | "not a sea leg"
  | "outermost region (derogation)"
  | "EU–neighbouring transhipment port"
  | "neighbouring transhipment port–non-EU";

export interface EtsShare {
  scope: EtsScope;
  /** 1, 0.5 or 0. */
  share: number;
  year: number;
  /** Surrender obligation of the year (0.4 for 2024, 0.7 for 2025, 1 from 2026; 0 before 2024). */
  phaseIn: number;
  /** share × phaseIn: the part of the leg's tank-to-wake emissions paid for with allowances. */
  coveredShare: number;
  originCountry?: string;
  destinationCountry?: string;
  /** The outermost region or neighbouring transhipment port that decided the scope. */
  note?: string;
}

const SEA: ReadonlySet<Modality> = new Set(["DEEPSEA", "SHORTSEA"]);
const MIN_YEAR = 2000;
const MAX_YEAR = 2100;

export function parseYear(raw: string | number | undefined, fallback: number): number {
  return wholeNumber(raw, "year", { min: MIN_YEAR, max: MAX_YEAR }) ?? fallback;
}

export function etsShare(
  rules: EtsRules,
  modality: Modality,
  origin: string | EtsEnd | undefined,
  destination: string | EtsEnd | undefined,
  year: number
): EtsShare {
  const [o, d] = [endOf(origin), endOf(destination)];
  const phaseIn = phaseInOf(rules, year);
  const base = { year, phaseIn, originCountry: o.country, destinationCountry: d.country };
  const out = (scope: EtsScope, share: number, note?: string): EtsShare => ({
    scope,
    share,
    coveredShare: round(share * phaseIn),
    ...base,
    ...(note ? { note } : {}),
  });
  if (!SEA.has(modality)) return out("not a sea leg", 0);
  const a = memberStateOf(rules, o);
  const b = memberStateOf(rules, d);
  if (a && b) {
    const region = outermostRegionOf(rules, o) ?? outermostRegionOf(rules, d);
    const until = rules.outermostRegions?.untilYear ?? 0;
    if (region && a === b && year <= until)
      return out(
        "outermost region (derogation)",
        0,
        `${region}: voyages within one Member State touching an outermost region are exempt until ${until}`
      );
    return out("intra-EU", rules.shares.intraEu.value);
  }
  const ntp = transhipmentPortOf(rules, a ? d : o);
  if (a || b)
    return ntp
      ? out(
          "EU–neighbouring transhipment port",
          rules.shares.euNonEu.value,
          `${ntp} is not a port of call: the voyage runs on to the next port of call (50 % when that is outside the EU/EEA, 100 % when it is inside; see etsVoyageShares)`
        )
      : out("EU–non-EU", rules.shares.euNonEu.value);
  const ntpEnd = transhipmentPortOf(rules, o) ?? transhipmentPortOf(rules, d);
  return ntpEnd
    ? out(
        "neighbouring transhipment port–non-EU",
        0,
        `${ntpEnd} is not a port of call: when the container's voyage continues to or comes from an EU/EEA port, it is 50 % (see etsVoyageShares)`
      )
    : out("outside", 0);
}

/**
 * The shares of consecutive sea legs of one container's trip: a stop at a neighbouring container
 * transhipment port (Tanger Med, East Port Said) is not a port of call, so the legs through it
 * form one voyage, whose share is decided by its first and last real ports of call. Other stops
 * end a voyage. Non-sea legs keep their own (zero) share.
 */
export function etsVoyageShares(
  rules: EtsRules,
  legs: ReadonlyArray<{ modality: Modality; origin: EtsEnd; destination: EtsEnd }>,
  year: number
): EtsShare[] {
  const out: EtsShare[] = [];
  let i = 0;
  while (i < legs.length) {
    let j = i;
    // Extend the voyage while its sea leg ends at a transhipment port and a sea leg follows.
    while (
      SEA.has(legs[j].modality) &&
      j + 1 < legs.length &&
      SEA.has(legs[j + 1].modality) &&
      transhipmentPortOf(rules, legs[j].destination) !== undefined
    )
      j++;
    const voyage = etsShare(rules, legs[i].modality, legs[i].origin, legs[j].destination, year);
    for (let k = i; k <= j; k++)
      out.push(
        j > i
          ? {
              ...voyage,
              note: `one voyage ${legs[i].origin.locode ?? "origin"} → ${legs[j].destination.locode ?? "destination"} through a neighbouring transhipment port (not a port of call)`,
            }
          : etsShare(rules, legs[k].modality, legs[k].origin, legs[k].destination, year)
      );
    i = j + 1;
  }
  return out;
}

function endOf(x: string | EtsEnd | undefined): EtsEnd {
  if (x === undefined) return {};
  if (typeof x === "string") return { country: x };
  return { ...x, country: x.country ?? x.locode?.slice(0, 2).toUpperCase() };
}

/** The Member State (or EEA state) whose jurisdiction the end's port is under, if any. */
function memberStateOf(rules: EtsRules, end: EtsEnd): string | undefined {
  // A bare point has no country, but one in an outermost region's box is under its state.
  if (!end.country) {
    const name = outermostRegionOf(rules, end);
    return rules.outermostRegions?.regions.find((r) => r.name === name)?.memberState;
  }
  const state = rules.countries.jurisdiction?.byCountryCode[end.country] ?? end.country;
  return rules.countries.members.includes(state) ? state : undefined;
}

function outermostRegionOf(rules: EtsRules, end: EtsEnd): string | undefined {
  for (const r of rules.outermostRegions?.regions ?? []) {
    if (end.country && r.countryCodes?.includes(end.country)) return r.name;
    if (end.lat === undefined || end.lng === undefined) continue;
    if (end.country && end.country !== r.memberState) continue;
    const { lat, lng } = end as { lat: number; lng: number };
    if (r.boxes?.some(([x0, y0, x1, y1]) => lng >= x0 && lng <= x1 && lat >= y0 && lat <= y1))
      return r.name;
  }
  return undefined;
}

function transhipmentPortOf(rules: EtsRules, end: EtsEnd): string | undefined {
  for (const p of rules.neighbouringTranshipmentPorts?.ports ?? []) {
    if (end.locode && p.locodes.includes(end.locode.toUpperCase())) return p.name;
    if (end.locode || end.lat === undefined || end.lng === undefined) continue;
    if (greatCircleMeters(end as { lat: number; lng: number }, p) <= p.radiusKm * 1000)
      return p.name;
  }
  return undefined;
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
