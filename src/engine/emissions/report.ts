/**
 * What /emissions, /batch, /chain, the lane sheet and the functions answer for one leg: the WTW
 * figures, and on request the ISO 14083 detail (WTT/TTW split, intensity, method block) and the
 * totals of a shipment (several boxes, or a part load by weight). All of them come from one
 * calculator call with the leg's own ends, so every surface gives the same number for the same leg.
 */
import { decimalNumber, wholeNumber } from "../parameters";
import { parseModality, RouteEngine } from "../route-engine";
import { DistanceResult, LatLng, Modality, ResolvedPlace, VesselDimensions } from "../types";
import { EmissionBreakdown, FactorEmissionCalculator } from "./calculator";
import { FactorSets, factorSetId, frameworkOf } from "./factor-sets";

/** Parameters of a shipment, as they arrive from a query string or a cell. */
export interface ShipmentInput {
  containers?: string | number;
  weightTons?: string | number;
}

export interface Shipment {
  containers: number;
  containerType: string;
  teu: number;
  /** Cargo mass of the shipment (t), when given. */
  weightTons?: number;
  /** How co2eKg was formed: boxes × TEU × co2eTeu, or tonnes × co2eTon (a part load). */
  basis: "containers" | "weight";
}

export interface MethodBlock {
  framework: string;
  /** The factor file's `source` of each factor used, intensity first. */
  factorSource: string[];
  factorSet: string;
  tradeLane?: string;
  region?: string;
  dataType: "default";
  distanceBasis: string;
  modality: Modality;
  containerType: string;
  fuelType: string;
  sizeClass?: string;
  vesselType?: string;
}

export interface LegEmissionFields {
  co2eTeu: number;
  co2eTon: number;
  co2eKg?: number;
  shipment?: Shipment;
  co2eTeuWtt?: number;
  co2eTeuTtw?: number;
  co2eTonWtt?: number;
  co2eTonTtw?: number;
  co2eKgWtt?: number;
  co2eKgTtw?: number;
  intensity?: { gCo2ePerTeuKm: number; gCo2ePerTkm: number };
  method?: MethodBlock;
}

export interface LegInput {
  modality: Modality;
  distanceMeters: number;
  from: LatLng;
  to: LatLng;
  containerType?: string;
  fuelType?: string;
  vessel?: VesselDimensions;
}

/** The one emission computation of a leg: the calculator with the leg's own ends. */
export function legBreakdown(
  calc: FactorEmissionCalculator,
  leg: LegInput,
  withSources = true
): EmissionBreakdown {
  return calc.explain(
    {
      modality: leg.modality,
      distanceMeters: leg.distanceMeters,
      containerType: leg.containerType,
      fuelType: leg.fuelType,
      vessel: leg.vessel,
      lane: { from: leg.from, to: leg.to },
    },
    withSources
  );
}

const MAX_CONTAINERS = 100_000;
const MAX_WEIGHT_TONS = 10_000_000;

/** The lightest cargo a shipment total is given for: 1 kg (lighter rounds to 0 kg CO2e). */
const MIN_WEIGHT_TONS = 0.001;

/** Parses containers / weightTons; undefined when neither is given (one box, no totals). */
export function parseShipment(input: ShipmentInput): { containers?: number; weightTons?: number } {
  const containers = wholeNumber(input.containers, "containers", {
    min: 1,
    max: MAX_CONTAINERS,
    unit: "boxes",
  });
  const weightTons = decimalNumber(input.weightTons, "weightTons", {
    min: MIN_WEIGHT_TONS,
    max: MAX_WEIGHT_TONS,
    unit: "tonnes of cargo",
  });
  return { containers, weightTons };
}

/**
 * The answer fields of one leg. `shipment` (from parseShipment) adds co2eKg: with containers,
 * boxes × TEU per box × co2eTeu (GLEC's container defaults are per TEU whatever the weight);
 * with weightTons only, a part load: tonnes × co2eTon (tonne-km allocation, ISO 14083).
 */
export function legEmissionFields(
  b: EmissionBreakdown,
  calc: FactorEmissionCalculator,
  options: {
    method?: boolean;
    shipment?: { containers?: number; weightTons?: number };
    distanceBasis: string;
  }
): LegEmissionFields {
  const out: LegEmissionFields = { co2eTeu: b.co2eTeu, co2eTon: b.co2eTon };
  const s = options.shipment;
  let share: { kg: number; wtt: number } | undefined;
  if (s && (s.containers !== undefined || s.weightTons !== undefined)) {
    const byWeight = s.containers === undefined;
    const containers = s.containers ?? 1;
    const kg = byWeight
      ? round((s.weightTons as number) * b.co2eTon)
      : round(containers * b.teu * b.co2eTeu);
    out.co2eKg = kg;
    out.shipment = {
      containers,
      containerType: b.containerType,
      teu: round(containers * b.teu),
      ...(s.weightTons !== undefined ? { weightTons: s.weightTons } : {}),
      basis: byWeight ? "weight" : "containers",
    };
    share = { kg, wtt: round(kg * b.wttShare) };
  }
  if (options.method) {
    out.co2eTeuWtt = b.co2eTeuWtt;
    out.co2eTeuTtw = b.co2eTeuTtw;
    out.co2eTonWtt = b.co2eTonWtt;
    out.co2eTonTtw = b.co2eTonTtw;
    if (share) {
      out.co2eKgWtt = share.wtt;
      out.co2eKgTtw = round(share.kg - share.wtt);
    }
    out.intensity = {
      gCo2ePerTeuKm: round(b.gramsPerTeuKm),
      gCo2ePerTkm: round((b.gramsPerTeuKm * b.teu) / b.payloadTonnes),
    };
    out.method = methodBlock(b, calc, options.distanceBasis);
  }
  return out;
}

const SEA: ReadonlySet<Modality> = new Set(["DEEPSEA", "SHORTSEA"]);
const NO_MATCH = "none (modality default)";

export function methodBlock(
  b: EmissionBreakdown,
  calc: FactorEmissionCalculator,
  distanceBasis: string
): MethodBlock {
  const where = SEA.has(b.modality)
    ? { tradeLane: b.lane ?? NO_MATCH }
    : { region: b.region ?? NO_MATCH };
  return {
    framework: frameworkOf(calc),
    factorSource: b.sources,
    factorSet: factorSetId(calc),
    ...where,
    dataType: "default",
    distanceBasis,
    modality: b.modality,
    containerType: b.containerType,
    fuelType: b.fuelType,
    ...(b.sizeClass ? { sizeClass: b.sizeClass } : {}),
    ...(b.vesselType ? { vesselType: b.vesselType } : {}),
  };
}

/** How the distance of a leg was measured (ISO 14083 distance basis), by modality and router. */
export function distanceBasisOf(
  engine: RouteEngine,
  modality: Modality,
  from: LatLng,
  to: LatLng
): string {
  switch (modality) {
    case "DEEPSEA":
    case "SHORTSEA":
      return "shortest feasible";
    case "BARGE":
      return "network";
    case "TRUCK":
    case "RAIL":
      // The router's own basis: a road or rail network, OSRM, or great circle × circuity.
      return engine.distanceBetween(from, to, modality).basis ?? "great circle × circuity";
  }
}

export interface EmissionsReportQuery extends ShipmentInput {
  origin?: string;
  destination?: string;
  modality?: string;
  vesselInfo?: string;
  avoid?: string;
  containerType?: string;
  fuelType?: string;
  factorSet?: string;
}

export interface EmissionsReport extends LegEmissionFields {
  distance: number;
  /** What callers adding more (passages, time, ECA, ETS) need; not part of the answer. */
  context: {
    route: DistanceResult;
    origin: ResolvedPlace;
    destination: ResolvedPlace;
    modality: Modality;
    vessel?: VesselDimensions;
    /** Tank-to-wheel part of co2eTeu (kg), for the EU ETS share. */
    co2eTeuTtw: number;
    /** The box: TEU and default payload (t). */
    box: { teu: number; payloadTonnes: number };
  };
}

/**
 * /emissions: validates everything before routing (bad input is Incorrect Values even without a
 * route), routes through the engine and computes the leg with its own ends.
 */
export function emissionsReport(
  engine: RouteEngine,
  sets: FactorSets,
  query: EmissionsReportQuery,
  options: { method?: boolean } = {}
): EmissionsReport {
  const calc = sets.get(query.factorSet);
  // Same validation order as RouteEngine.emissions: bad emission input is reported before routing.
  // The modality first, as the service's parameter check names it first: a lane with several bad
  // values gets the same message from the CLI and from the service (the task pane's footprint).
  const modality = parseModality(query.modality);
  const shipment = parseShipment(query);
  const vessel = query.vesselInfo?.trim()
    ? engine.parts.vessels.resolve(query.vesselInfo, "vesselInfo")
    : undefined;
  const containerType = blank(query.containerType);
  const fuelType = blank(query.fuelType);
  calc.compute({ modality, distanceMeters: 0, containerType, fuelType, vessel });
  const { result, origin, destination } = engine.resolveAndRoute(query);
  const from = { lat: origin.lat, lng: origin.lng };
  const to = { lat: destination.lat, lng: destination.lng };
  const b = legBreakdown(
    calc,
    {
      modality,
      distanceMeters: result.distance,
      from,
      to,
      containerType,
      fuelType,
      vessel,
    },
    options.method === true
  );
  const fields = legEmissionFields(b, calc, {
    method: options.method,
    shipment,
    distanceBasis: options.method ? distanceBasisOf(engine, modality, from, to) : "",
  });
  const { co2eTeu, co2eTon, ...rest } = fields;
  return {
    co2eTeu,
    co2eTon,
    distance: result.distance,
    ...rest,
    context: {
      route: result,
      origin,
      destination,
      modality,
      vessel,
      co2eTeuTtw: b.co2eTeuTtw,
      box: { teu: b.teu, payloadTonnes: b.payloadTonnes },
    },
  };
}

function blank(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
