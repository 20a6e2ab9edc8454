/**
 * Shape of data/emission-factors.json. Every number in the file carries a `source` (and often a
 * `note`); the engine only reads the numbers, the citations are for people.
 */
import { Modality } from "../types";

export interface Cited {
  source: string;
  note?: string;
  /** false when the figure could not be checked against the cited publication. */
  confirmed?: boolean;
}

/**
 * A well-to-wheel intensity for a loaded container, given per TEU-km or per tonne-km, or derived
 * from another drive of the same modality by relative energy use (e.g. a battery-electric truck
 * needs 35 % of a diesel truck's energy): base(relativeTo) × energyRatio × WtW(this drive) / WtW(relativeTo).
 */
export interface Intensity extends Cited {
  /** g CO2e per TEU-km, well-to-wheel. */
  gCo2eWtwPerTeuKm?: number;
  /** g CO2e per tonne-km, well-to-wheel; converted with the modality's tonnes per TEU. */
  gCo2eWtwPerTkm?: number;
  /** Published intensity for reefer boxes (g CO2e per TEU-km, WTW); replaces the flat reefer uplift. */
  reeferGCo2eWtwPerTeuKm?: number;
  /** Drive (key of `intensities`) whose energy use this one is expressed against. */
  relativeTo?: string;
  /** Energy per km of this drive ÷ energy per km of `relativeTo`. */
  energyRatio?: number;
}

/**
 * Ship size class, picked from vessel dimensions. Either absolute (an intensity that replaces the
 * modality's) or relative (`relativeIntensity` multiplies the modality's or trade lane's intensity).
 */
export interface SizeClass extends Cited {
  name: string;
  /** Nominal capacity range the class stands for (documentation only). */
  teuRange: string;
  /** The class applies when the beam is at most this (m); omitted for the open-ended top class. */
  maxBeamM?: number;
  /** ... and the length overall is at most this (m); omitted when only the beam decides. */
  maxLengthM?: number;
  /** Class intensity ÷ fleet-average intensity. */
  relativeIntensity?: number;
  /** Absolute alternative: g CO2e per TEU-km, well-to-wheel. */
  gCo2eWtwPerTeuKm?: number;
  gCo2eWtwPerTkm?: number;
}

/** A region as a polygon of [lng, lat] vertices (no antimeridian crossing). */
export interface Region extends Cited {
  polygon: Array<[number, number]>;
}

/** A trade lane between two regions (either direction) with its own intensity for the default drive. */
export interface TradeLane extends Cited {
  name: string;
  between: [string, string];
  gCo2eWtwPerTeuKm: number;
  /** The lane's reefer intensity, when published; replaces the flat reefer uplift. */
  reeferGCo2eWtwPerTeuKm?: number;
}

/** Default GHG intensity of a hub (terminal) operation, ISO 14083 "hub operation category". */
export interface HubFactor extends Cited {
  description: string;
  unit: string;
  /** Whether the values are per container handled (default) or per tonne of cargo. */
  basis?: "container" | "tonne";
  /** Ambient (dry) cargo. */
  ambient: number;
  /** Temperature-controlled cargo, when published. */
  temperatureControlled?: number;
}

/**
 * Intensities that replace the modality's own when both ends of the leg lie in `region` (e.g. North
 * American rail: diesel, at the Class I railroads' fuel efficiency).
 */
export interface RegionalFactors extends Cited {
  name: string;
  /** A key of the file's `regions`. */
  region: string;
  /** Default fuel in this region (when no fuelType is given); the modality's otherwise. */
  defaultFuel?: string;
  /** Replaces the modality's intensity of these drives. */
  intensities: Record<string, Intensity>;
}

/** A vessel type with its own intensity (e.g. ro-ro next to the container feeder default). */
export interface VesselTypeFactors extends Intensity {
  description: string;
}

export interface ModalityFactors extends Cited {
  /** Fuel the default intensity assumes; used when fuelType is omitted. */
  defaultFuel: string;
  /**
   * Fuels this modality can burn, each mapped to the drive whose energy use it shares (the key of
   * `intensities`). E.g. HVO → DIESEL: same engine and energy per km, different WtW per MJ.
   */
  fuels: Record<string, string>;
  /** Intensity per drive (DIESEL, ELECTRIC, VLSFO…), each valid for that drive's reference fuel. */
  intensities: Record<string, Intensity>;
  /** Tonnes of cargo per loaded TEU behind the per-tonne / per-TEU conversion. */
  tonnesPerTeu: number;
  /** Relative extra emissions of a reefer box (0.25 = +25 %). */
  reeferUplift: number;
  reeferSource: string;
  /** For LNG: which FuelEU engine class (methane slip) this modality's ships/vehicles use. */
  lngEngine?: string;
  /** Size classes chosen from vessel dimensions, smallest first. */
  sizeClasses?: SizeClass[];
  sizeClassesNote?: string;
  /** Trade lanes between `regions`; a lane's intensity replaces the default drive's intensity. */
  lanes?: TradeLane[];
  /** Use another modality's lane list (SHORTSEA shares the GLEC container lanes with DEEPSEA). */
  lanesOf?: Modality;
  /** Regional intensities, chosen from the leg's ends (first match wins). */
  regional?: RegionalFactors[];
  /**
   * Vessel types other than the default (container) one, chosen by the caller (`vesselType`);
   * the intensity is for the default fuel and replaces the default drive's.
   */
  vesselTypes?: Record<string, VesselTypeFactors>;
  defaultVesselType?: string;
}

export interface ContainerTypeFactors extends Cited {
  /** Canonical name, e.g. "20DV". */
  description: string;
  /** ISO 6346 size-type codes and common trade aliases, e.g. ["22G1", "20GP"]. */
  aliases: string[];
  teu: number;
  /** Default cargo payload of the box, tonnes. */
  payloadTonnes: number;
  reefer: boolean;
}

/**
 * A fuel's well-to-wake GHG intensity per MJ. Liquid/gaseous fuels are described the FuelEU
 * Annex II way (LCV, WtT per MJ, TtW emission factors per gram of fuel); electricity by a grid
 * factor per kWh.
 */
export interface FuelFactors extends Cited {
  description: string;
  /** Lower calorific value, MJ per gram. */
  lcvMjPerG?: number;
  /** Well-to-tank, g CO2e per MJ. */
  wttGco2ePerMj?: number;
  /** Tank-to-wake emission factors, g gas per g fuel. */
  cfCo2?: number;
  cfCh4?: number;
  cfN2o?: number;
  /** Biogenic CO2 counts as zero at combustion (ISO 14083 / FuelEU treatment of sustainable biofuels). */
  biogenicCo2?: boolean;
  /** Methane slip (% of fuel mass) by engine class, for LNG-type fuels. */
  methaneSlipPercent?: Record<string, number>;
  /** For electricity: g CO2e per kWh at the point of use, well-to-wheel (incl. upstream and losses). */
  gCo2ePerKwh?: number;
  /** For fuels given directly as a WtW intensity (when no component split is published). */
  wtwGco2ePerMj?: number;
}

export interface EmissionFactorData {
  meta: {
    scope: string;
    gwp: { ch4: number; n2o: number; source: string };
    defaultContainerType: string;
    /** Version of this factor set (what `factorSet=` pins). */
    factorSet?: string;
    /** Framework(s) the set follows, for the method block, e.g. "GLEC v3.0; ISO 14083:2023". */
    framework?: string;
    [key: string]: unknown;
  };
  modalities: Record<Modality, ModalityFactors>;
  containerTypes: Record<string, ContainerTypeFactors>;
  fuels: Record<string, FuelFactors>;
  /** Regions trade lanes refer to, by name. */
  regions?: Record<string, Region>;
  /** Hub (terminal) emission intensities, for transfer legs; not used by `compute`. */
  hubs?: Record<string, HubFactor>;
}
