/**
 * ISO 14083 / GLEC-style default-value calculator: well-to-wheel CO2e of one loaded container for a
 * leg of known distance.
 *
 *   g/TEU-km  = intensity(modality, drive; or trade lane) × ship size-class factor
 *               × WtW(fuel) / WtW(drive's reference fuel) × (1 + reefer uplift, reefers only)
 *   co2eTeu   = g/TEU-km × km / 1000                        kg CO2e per TEU
 *   co2eTon   = co2eTeu × TEU of the box / payload of the box   kg CO2e per tonne of cargo
 *
 * Pure: the factors arrive as data (see src/data/emissions.ts for the loader).
 */
import { EmissionCalculator } from "../route-engine";
import { incorrectValues } from "../errors";
import { MODALITIES, Modality, VesselDimensions } from "../types";
import { ContainerType, ContainerTypes } from "./containers";
import {
  EmissionFactorData,
  HubFactor,
  Intensity,
  ModalityFactors,
  RegionalFactors,
} from "./factor-data";
import { wtwGramsPerMj, wttShareOf } from "./fuels";
import { LaneEnds, TradeLanes } from "./lanes";
import { pickSizeClass } from "./size-class";

export interface EmissionInput {
  modality: Modality;
  distanceMeters: number;
  containerType?: string;
  fuelType?: string;
  vessel?: VesselDimensions;
  /** Where the leg starts and ends, to pick a trade-lane or regional intensity. */
  lane?: LaneEnds;
  /** Vessel type where the modality has several (SHORTSEA: CONTAINER default, RORO). */
  vesselType?: string;
}

/** Every factor that went into one result, for explanations and tests. */
export interface EmissionBreakdown {
  modality: Modality;
  containerType: string;
  teu: number;
  payloadTonnes: number;
  reefer: boolean;
  fuelType: string;
  drive: string;
  sizeClass?: string;
  /** Trade lane whose intensity was used, when one matched. */
  lane?: string;
  /** Regional factor set used (e.g. "North America"), when both ends lie in its region. */
  region?: string;
  /** Vessel type whose intensity was used, when not the default. */
  vesselType?: string;
  /** g CO2e per TEU-km for the drive's reference fuel (lane and size class applied), before fuel and reefer adjustments. */
  baseGramsPerTeuKm: number;
  fuelRatio: number;
  reeferFactor: number;
  /** g CO2e per TEU-km after adjustments. */
  gramsPerTeuKm: number;
  distanceKm: number;
  co2eTeu: number;
  co2eTon: number;
  /** Well-to-tank part of co2eTeu / co2eTon; WTT + TTW equal the WTW figures to the gram. */
  co2eTeuWtt: number;
  co2eTeuTtw: number;
  co2eTonWtt: number;
  co2eTonTtw: number;
  /** WTT share of the fuel's WtW g CO2e per MJ (electricity: 1, it has no tank-to-wheel part). */
  wttShare: number;
  /** The data file's `source` of every factor used, intensity first. */
  sources: string[];
}

/** A hub (transfer) operation's emissions for one box. */
export interface HubEmissions {
  hubType: string;
  containerType: string;
  /** kg CO2e per container moved through the hub. */
  perContainer: number;
  /** kg CO2e per TEU (per container ÷ the box's TEU). */
  perTeu: number;
  /** kg CO2e per tonne of cargo (per container ÷ the box's payload). */
  perTon: number;
  source: string;
}

export class FactorEmissionCalculator implements EmissionCalculator {
  private readonly containers: ContainerTypes;
  private readonly wtwCache = new Map<string, number>();
  private readonly wttCache = new Map<string, number>();
  private readonly lanes = new Map<Modality, TradeLanes>();
  /** Region lookup for regional factors (the regions of the file, no lanes). */
  private readonly regions: TradeLanes;

  constructor(readonly data: EmissionFactorData) {
    this.containers = new ContainerTypes(data.containerTypes);
    this.regions = new TradeLanes(data.regions ?? {}, []);
    for (const m of MODALITIES) {
      const f = data.modalities[m];
      const lanes = f?.lanesOf ? data.modalities[f.lanesOf]?.lanes : f?.lanes;
      if (lanes?.length) this.lanes.set(m, new TradeLanes(data.regions ?? {}, lanes));
    }
    this.checkConsistency();
  }

  compute(input: EmissionInput): { co2eTeu: number; co2eTon: number } {
    const { co2eTeu, co2eTon } = this.explain(input, false);
    return { co2eTeu, co2eTon };
  }

  /** Every factor behind one result; `withSources` false skips the citations (hot paths). */
  explain(input: EmissionInput, withSources = true): EmissionBreakdown {
    const regional = this.regionalFor(input);
    const factors = withRegional(this.modality(input.modality), regional);
    const box = this.containerType(input.containerType);
    const fuelType = this.fuelType(input.modality, factors, input.fuelType);
    const distanceKm = checkDistance(input.distanceMeters) / 1000;

    const drive = factors.fuels[fuelType];
    const vesselType = this.vesselType(input, factors);
    const base = this.intensityFor(input, factors, drive, box.reefer);
    const { sizeClass, lane } = base;
    let { baseGramsPerTeuKm, reeferIncluded } = base;
    if (vesselType && drive === factors.fuels[factors.defaultFuel]) {
      baseGramsPerTeuKm = gramsPerTeuKm(vesselType.factors, factors.tonnesPerTeu);
      reeferIncluded = false;
    }
    const fuelRatio = this.wtw(fuelType, factors.lngEngine) / this.wtw(drive, factors.lngEngine);
    // A published reefer intensity already holds the reefer's extra energy.
    const reeferFactor = box.reefer && !reeferIncluded ? 1 + factors.reeferUplift : 1;
    const adjusted = baseGramsPerTeuKm * fuelRatio * reeferFactor;

    const rawTeu = (adjusted * distanceKm) / 1000;
    const co2eTeu = round(rawTeu);
    const co2eTon = round((rawTeu * box.teu) / box.payloadTonnes);
    const wttShare = this.wttShare(fuelType, factors.lngEngine);
    // WTT rounded to the gram, TTW the rest: the two parts add up to the WTW figure exactly.
    const co2eTeuWtt = round(co2eTeu * wttShare);
    const co2eTonWtt = round(co2eTon * wttShare);
    return {
      modality: input.modality,
      containerType: box.name,
      teu: box.teu,
      payloadTonnes: box.payloadTonnes,
      reefer: box.reefer,
      fuelType,
      drive,
      sizeClass,
      lane,
      region: regional?.name,
      vesselType: vesselType?.name,
      baseGramsPerTeuKm,
      fuelRatio,
      reeferFactor,
      gramsPerTeuKm: adjusted,
      distanceKm,
      co2eTeu,
      co2eTon,
      co2eTeuWtt,
      co2eTeuTtw: round(co2eTeu - co2eTeuWtt),
      co2eTonWtt,
      co2eTonTtw: round(co2eTon - co2eTonWtt),
      wttShare,
      sources: !withSources
        ? []
        : this.sourcesOf(input, factors, regional, fuelType, drive, box, base.lane, vesselType),
    };
  }

  /** WTT part of a fuel's WtW intensity (0..1), with the modality's LNG engine class. */
  wttShare(fuel: string, lngEngine?: string): number {
    const key = `${fuel}|${lngEngine ?? ""}`;
    let v = this.wttCache.get(key);
    if (v === undefined) {
      const f = this.data.fuels[fuel];
      if (!f) throw new Error(`emission-factors: unknown fuel ${fuel}`);
      v = wttShareOf(fuel, f, this.data.meta.gwp, f.methaneSlipPercent ? lngEngine : undefined);
      this.wttCache.set(key, v);
    }
    return v;
  }

  /**
   * Hub (transfer) emissions of one box through a hub of `hubType` (a key of the file's `hubs`):
   * per container as published, or per tonne × the box's payload for hubs given per tonne.
   */
  hubEmissions(hubType: string, containerType?: string): HubEmissions {
    const hub = this.data.hubs?.[hubType];
    if (!hub) {
      throw incorrectValues(
        "hubType",
        `hubType "${hubType}" is not known; allowed values: ${Object.keys(this.data.hubs ?? {}).join(", ")}.`
      );
    }
    const box = this.containerType(containerType);
    const value = box.reefer ? (hub.temperatureControlled ?? hub.ambient) : hub.ambient;
    const perContainer = round(hub.basis === "tonne" ? value * box.payloadTonnes : value);
    return {
      hubType,
      containerType: box.name,
      perContainer,
      perTeu: round(perContainer / box.teu),
      perTon: round(perContainer / box.payloadTonnes),
      source: hub.source,
    };
  }

  /** The citations behind one result: intensity (lane, region, class or type), fuel, box. */
  private sourcesOf(
    input: EmissionInput,
    factors: ModalityFactors,
    regional: RegionalFactors | undefined,
    fuelType: string,
    drive: string,
    box: ContainerType,
    lane: string | undefined,
    vesselType: { name: string; factors: Intensity } | undefined
  ): string[] {
    const out: string[] = [];
    const m = this.data.modalities[input.modality];
    const laneEntry = lane
      ? (m.lanesOf ? this.data.modalities[m.lanesOf].lanes : m.lanes)?.find((l) => l.name === lane)
      : undefined;
    if (vesselType) out.push(vesselType.factors.source);
    else if (laneEntry) out.push(laneEntry.source);
    else out.push(factors.intensities[drive].source);
    if (regional && !out.includes(regional.source)) out.push(regional.source);
    if (input.vessel && factors.sizeClasses?.length) {
      out.push(pickSizeClass(factors.sizeClasses, input.vessel).source);
    }
    const fuel = this.data.fuels[fuelType];
    if (fuel && !out.includes(fuel.source)) out.push(fuel.source);
    if (box.reefer && !out.includes(factors.reeferSource)) out.push(factors.reeferSource);
    return out;
  }

  /** Fuels a modality accepts, default first. */
  allowedFuels(modality: Modality): string[] {
    const f = this.modality(modality);
    return [f.defaultFuel, ...Object.keys(f.fuels).filter((x) => x !== f.defaultFuel)];
  }

  /** Canonical container type names. */
  containerTypeNames(): string[] {
    return Object.keys(this.data.containerTypes);
  }

  /** WtW g CO2e per MJ of a fuel (LNG with the given engine's methane slip). */
  wtw(fuel: string, lngEngine?: string): number {
    const key = `${fuel}|${lngEngine ?? ""}`;
    let v = this.wtwCache.get(key);
    if (v === undefined) {
      const f = this.data.fuels[fuel];
      if (!f) throw new Error(`emission-factors: unknown fuel ${fuel}`);
      v = wtwGramsPerMj(fuel, f, this.data.meta.gwp, f.methaneSlipPercent ? lngEngine : undefined);
      this.wtwCache.set(key, v);
    }
    return v;
  }

  /** The regional factor set whose region holds both ends of the leg, if any. */
  private regionalFor(input: EmissionInput): RegionalFactors | undefined {
    const sets = this.data.modalities[input.modality]?.regional;
    if (!sets?.length || !input.lane) return undefined;
    const a = this.regions.regionOf(input.lane.from);
    if (!a || this.regions.regionOf(input.lane.to) !== a) return undefined;
    return sets.find((r) => r.region === a);
  }

  /** A non-default vessel type asked for by the caller; unknown names are Incorrect Values. */
  private vesselType(
    input: EmissionInput,
    factors: ModalityFactors
  ): { name: string; factors: Intensity } | undefined {
    // "ro-ro", "RoRo", "ro_pax" all name the same type.
    const raw = input.vesselType
      ?.trim()
      .toUpperCase()
      .replace(/[\s_-]+/g, "");
    if (!raw || raw === factors.defaultVesselType) return undefined;
    const known = factors.vesselTypes?.[raw];
    if (known) return { name: raw, factors: known };
    const allowed = [factors.defaultVesselType, ...Object.keys(factors.vesselTypes ?? {})].filter(
      Boolean
    );
    throw incorrectValues(
      "vesselType",
      allowed.length
        ? `vesselType "${input.vesselType}" is not known for ${input.modality}; allowed values: ${allowed.join(", ")}.`
        : `${input.modality} has no vessel types.`
    );
  }

  private modality(modality: Modality): ModalityFactors {
    const f = this.data.modalities[modality];
    if (!f)
      throw incorrectValues(
        "modality",
        `modality "${modality}" is not allowed; allowed values: ${MODALITIES.join(", ")}.`
      );
    return f;
  }

  private containerType(code: string | undefined): ContainerType {
    const v = code?.trim();
    return this.containers.resolve(v ? v : this.data.meta.defaultContainerType);
  }

  private fuelType(modality: Modality, factors: ModalityFactors, raw: string | undefined): string {
    const v = raw
      ?.trim()
      .toUpperCase()
      .replace(/[\s-]+/g, "_");
    if (!v) return factors.defaultFuel;
    if (factors.fuels[v]) return v;
    const allowed = this.allowedFuels(modality).join(", ");
    const why = this.data.fuels[v] ? `cannot be used for ${modality}` : "is not known";
    throw incorrectValues(
      "fuelType",
      `fuelType "${raw}" ${why}; allowed values for ${modality}: ${allowed}.`
    );
  }

  /** Hub (terminal) intensities of the factor file, by name (e.g. MARITIME_CONTAINER_TERMINAL). */
  hub(name: string): HubFactor | undefined {
    return this.data.hubs?.[name];
  }

  /**
   * g/TEU-km of the drive's reference fuel: the drive's intensity, or the trade lane's when the
   * leg matches one (default drive only: lanes are published for the fleet's usual fuel), scaled
   * by the ship's size class when vessel dimensions are known.
   */
  private intensityFor(
    input: EmissionInput,
    factors: ModalityFactors,
    drive: string,
    reefer: boolean
  ): { baseGramsPerTeuKm: number; sizeClass?: string; lane?: string; reeferIncluded: boolean } {
    const isDefaultDrive = drive === factors.fuels[factors.defaultFuel];
    let grams = this.driveGramsPerTeuKm(factors, drive);
    let reeferGrams = isDefaultDrive
      ? factors.intensities[drive].reeferGCo2eWtwPerTeuKm
      : undefined;
    let lane: string | undefined;
    const lanes = this.lanes.get(input.modality);
    if (input.lane && lanes && isDefaultDrive) {
      const hit = lanes.find(input.lane);
      if (hit) {
        grams = hit.gCo2eWtwPerTeuKm;
        reeferGrams = hit.reeferGCo2eWtwPerTeuKm;
        lane = hit.name;
      }
    }
    const reeferIncluded = reefer && reeferGrams !== undefined;
    if (reeferIncluded) grams = reeferGrams as number;
    let sizeClass: string | undefined;
    if (input.vessel && factors.sizeClasses?.length) {
      const c = pickSizeClass(factors.sizeClasses, input.vessel);
      if (c.relativeIntensity !== undefined) {
        grams *= c.relativeIntensity;
        sizeClass = c.name;
      } else if (isDefaultDrive) {
        grams = gramsPerTeuKm(c, factors.tonnesPerTeu);
        sizeClass = c.name;
      }
    }
    return { baseGramsPerTeuKm: grams, sizeClass, lane, reeferIncluded };
  }

  /** A drive's own g/TEU-km, resolving intensities given relative to another drive's energy use. */
  private driveGramsPerTeuKm(factors: ModalityFactors, drive: string): number {
    const i = factors.intensities[drive];
    if (i.relativeTo === undefined) return gramsPerTeuKm(i, factors.tonnesPerTeu);
    const ref = factors.intensities[i.relativeTo];
    if (!ref || ref.relativeTo !== undefined || i.energyRatio === undefined) {
      throw new Error(
        `emission-factors: drive ${drive} must name an absolute drive in relativeTo and an energyRatio`
      );
    }
    const wtwRatio = this.wtw(drive, factors.lngEngine) / this.wtw(i.relativeTo, factors.lngEngine);
    return gramsPerTeuKm(ref, factors.tonnesPerTeu) * i.energyRatio * wtwRatio;
  }

  /** Fails fast on a data file that names fuels or drives it does not define. */
  private checkConsistency(): void {
    for (const m of MODALITIES) {
      const f = this.data.modalities[m];
      if (!f) throw new Error(`emission-factors: modality ${m} missing`);
      if (!f.fuels[f.defaultFuel])
        throw new Error(`emission-factors: ${m} default fuel ${f.defaultFuel} not in its fuels`);
      for (const [fuel, drive] of Object.entries(f.fuels)) {
        if (!this.data.fuels[fuel])
          throw new Error(`emission-factors: ${m} lists unknown fuel ${fuel}`);
        if (!f.intensities[drive])
          throw new Error(
            `emission-factors: ${m} fuel ${fuel} maps to drive ${drive} without intensity`
          );
        if (!this.data.fuels[drive])
          throw new Error(`emission-factors: ${m} drive ${drive} is not a fuel`);
        this.wtw(fuel, f.lngEngine);
      }
      for (const drive of Object.keys(f.intensities)) this.driveGramsPerTeuKm(f, drive);
      for (const c of f.sizeClasses ?? []) {
        if (c.relativeIntensity === undefined) gramsPerTeuKm(c, f.tonnesPerTeu);
      }
      for (const v of Object.values(f.vesselTypes ?? {})) gramsPerTeuKm(v, f.tonnesPerTeu);
      for (const r of f.regional ?? []) {
        if (!this.data.regions?.[r.region])
          throw new Error(
            `emission-factors: ${m} regional ${r.name} names unknown region ${r.region}`
          );
        if (r.defaultFuel && !f.fuels[r.defaultFuel])
          throw new Error(
            `emission-factors: ${m} regional ${r.name} default fuel not in its fuels`
          );
        for (const [drive, i] of Object.entries(r.intensities)) {
          if (!f.intensities[drive])
            throw new Error(`emission-factors: ${m} regional ${r.name} drive ${drive} unknown`);
          gramsPerTeuKm(i, f.tonnesPerTeu);
        }
      }
    }
    this.containers.resolve(this.data.meta.defaultContainerType);
  }
}

/** The modality's factors with a regional set's default fuel and intensities laid over them. */
function withRegional(f: ModalityFactors, r: RegionalFactors | undefined): ModalityFactors {
  if (!r) return f;
  return {
    ...f,
    defaultFuel: r.defaultFuel ?? f.defaultFuel,
    intensities: { ...f.intensities, ...r.intensities },
  };
}

function gramsPerTeuKm(
  i: Pick<Intensity, "gCo2eWtwPerTeuKm" | "gCo2eWtwPerTkm" | "source">,
  tonnesPerTeu: number
): number {
  if (i.gCo2eWtwPerTeuKm !== undefined) return i.gCo2eWtwPerTeuKm;
  if (i.gCo2eWtwPerTkm !== undefined) return i.gCo2eWtwPerTkm * tonnesPerTeu;
  throw new Error(
    `emission-factors: intensity without gCo2eWtwPerTeuKm or gCo2eWtwPerTkm (${i.source})`
  );
}

function checkDistance(meters: number): number {
  if (typeof meters !== "number" || !Number.isFinite(meters) || meters < 0) {
    throw incorrectValues(
      "distance",
      `distance must be a finite number of metres ≥ 0, got ${String(meters)}.`
    );
  }
  return meters;
}

/** kg to the gram: more digits would claim a precision the default factors do not have. */
function round(kg: number): number {
  return Math.round(kg * 1000) / 1000;
}
