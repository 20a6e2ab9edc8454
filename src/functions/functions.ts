/**
 * The ROUTE.* custom functions. custom-functions-metadata-plugin reads these JSDoc blocks into
 * functions.json and appends the CustomFunctions.associate calls. All are non-volatile; optional
 * arguments arrive as null. The work happens in route-functions.ts.
 *
 * Per-lane arguments are matrices (`any[][]`, `Modality[][]`…), so a range spills one answer per
 * row and a single cell still works; the `@customenum` enums give Excel's AutoComplete the
 * allowed values (any other text still reaches the function, which names the allowed values).
 * Each wrapper hands its arguments on as one record named as here (function-types.ts).
 */
import { sharedClient } from "../client/shared";
import { createRouteFunctions } from "./route-functions";
import { createEmissionFunctions } from "./emission-functions";

const route = createRouteFunctions(sharedClient);

/**
 * Transport mode of a lane.
 * @customenum {string}
 */
enum Modality {
  /** Ocean container shipping along shipping lanes and canals (default). */
  DEEPSEA = "DEEPSEA",
  /** Coastal and short-sea shipping. */
  SHORTSEA = "SHORTSEA",
  /** Inland waterway barge. */
  BARGE = "BARGE",
  /** Rail. */
  RAIL = "RAIL",
  /** Road. */
  TRUCK = "TRUCK",
}

/**
 * Distance unit.
 * @customenum {string}
 */
enum DistanceUnit {
  /** Kilometres (default). */
  km = "km",
  /** Nautical miles (1,852 m). */
  nm = "nm",
  /** Statute miles. */
  mi = "mi",
  /** Metres. */
  m = "m",
}

/**
 * What the emissions are per.
 * @customenum {string}
 */
enum Per {
  /** kg CO2e per twenty-foot equivalent unit (default). */
  TEU = "TEU",
  /** kg CO2e per tonne of cargo. */
  TON = "TON",
}

/**
 * Order of route options.
 * @customenum {string}
 */
enum Sort {
  /** Shortest door-to-door time first (default). */
  LEAD_TIME = "LEAD_TIME",
  /** Least CO2e per TEU first. */
  EMISSIONS = "EMISSIONS",
  /** Fewest transfers first. */
  TRANSFERS = "TRANSFERS",
  /** Earliest departure first. */
  DEPARTURE = "DEPARTURE",
  /** Earliest arrival first. */
  ARRIVAL = "ARRIVAL",
}

/**
 * Fuel (allowed values depend on the modality).
 * @customenum {string}
 */
enum FuelType {
  /** Very low sulphur fuel oil (sea default). */
  VLSFO = "VLSFO",
  /** Heavy fuel oil. */
  HFO = "HFO",
  /** Marine gas oil. */
  MGO = "MGO",
  /** Liquefied natural gas. */
  LNG = "LNG",
  /** Bio-LNG. */
  BIO_LNG = "BIO_LNG",
  /** Methanol. */
  METHANOL = "METHANOL",
  /** Bio-methanol. */
  BIO_METHANOL = "BIO_METHANOL",
  /** Hydrotreated vegetable oil. */
  HVO = "HVO",
  /** Diesel (barge and truck default). */
  DIESEL = "DIESEL",
  /** Electric (rail default). */
  ELECTRIC = "ELECTRIC",
}

/**
 * ISO container type, named as the trade writes it (the build drops the quotes TypeScript needs).
 * @customenum {string}
 */
enum ContainerType {
  /** 20 ft dry van. */
  "20DV" = "20DV",
  /** 40 ft dry van. */
  "40DV" = "40DV",
  /** 40 ft high cube. */
  "40HC" = "40HC",
  /** 45 ft high cube. */
  "45HC" = "45HC",
  /** 20 ft reefer. */
  "20RF" = "20RF",
  /** 40 ft reefer. */
  "40RF" = "40RF",
  /** 20 ft open top. */
  "20OT" = "20OT",
  /** 40 ft open top. */
  "40OT" = "40OT",
  /** 20 ft flat rack. */
  "20FR" = "20FR",
  /** 40 ft flat rack. */
  "40FR" = "40FR",
  /** 20 ft tank. */
  "20TK" = "20TK",
}

/**
 * Distance of the route between two places for one modality (sea routes follow shipping lanes and canals). Ranges spill one answer per row.
 * @customfunction DISTANCE
 * @helpurl https://localhost:3000/help/ROUTE.DISTANCE#ROUTE.DISTANCE
 * @cancelable
 * @param origin From: a UN/LOCODE (NLRTM), a name (Rotterdam), "lat,lng" (51.95,4.05 or 51,95;4,05) or a terminal; a cell or a range.
 * @param destination To: a UN/LOCODE (CNSHA), a name (Shanghai), "lat,lng" or a terminal (NLRTM Euromax); a cell or a range.
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param [unit] Unit of the result: km (default), nm, mi or m.
 * @param [avoid] Passages the sea route must avoid, e.g. "SUEZ,PANAMA" (round the Cape).
 * @param [via] Waypoints the route must pass, in order: a passage or cape (CAPE_OF_GOOD_HOPE, SUEZ, PANAMA…) or a place, e.g. "CAPE_OF_GOOD_HOPE" next to the route through Suez.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns The distance in the chosen unit, one per lane.
 */
export async function distance(
  origin: any[][],
  destination: any[][],
  modality?: Modality[][],
  vesselInfo?: any[][],
  unit?: DistanceUnit,
  avoid?: string[][],
  via?: string[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return asMatrix(
    await route.distance(
      { origin, destination, modality, vesselInfo, unit, avoid, via },
      invocation
    )
  );
}

/**
 * Well-to-wheel CO2-equivalent emissions of a trip, in kg CO2e per TEU or per tonne of cargo. Ranges spill one answer per row.
 * @customfunction EMISSIONS
 * @helpurl https://localhost:3000/help/ROUTE.EMISSIONS#ROUTE.EMISSIONS
 * @cancelable
 * @param origin From: a UN/LOCODE (NLRTM), a name (Rotterdam), "lat,lng" (51.95,4.05 or 51,95;4,05) or a terminal; a cell or a range.
 * @param destination To: a UN/LOCODE (CNSHA), a name (Shanghai), "lat,lng" or a terminal (NLRTM Euromax); a cell or a range.
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [per] TEU (default) or TON.
 * @param [containerType] Container type, e.g. 20DV or 40HC.
 * @param [fuelType] Fuel type, e.g. VLSFO, HFO, MGO, LNG.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param [avoid] Passages the sea route must avoid, e.g. "SUEZ,PANAMA".
 * @param [containers] Number of boxes of containerType in the shipment: the result is then the shipment's total kg CO2e.
 * @param [weightTons] Cargo mass of the shipment in tonnes (a part load without containers): the result is then the shipment's total kg CO2e.
 * @param [via] Waypoints the route must pass, in order: a passage or cape (CAPE_OF_GOOD_HOPE, SUEZ, PANAMA…) or a place, e.g. "CAPE_OF_GOOD_HOPE" next to the route through Suez.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns kg CO2e per TEU or per tonne (or for the shipment), one per lane.
 */
export async function emissions(
  origin: any[][],
  destination: any[][],
  modality?: Modality[][],
  per?: Per[][],
  containerType?: ContainerType[][],
  fuelType?: FuelType[][],
  vesselInfo?: any[][],
  avoid?: string[][],
  containers?: any[][],
  weightTons?: any[][],
  via?: string[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return asMatrix(
    await route.emissions(
      {
        origin,
        destination,
        modality,
        per,
        containerType,
        fuelType,
        vesselInfo,
        avoid,
        containers,
        weightTons,
        via,
      },
      invocation
    )
  );
}

/**
 * The canals and straits a route passes, in route order, e.g. "MALACCA, BAB_EL_MANDEB, SUEZ, GIBRALTAR"; "none" when it uses none. Ranges spill one answer per row.
 * @customfunction PASSAGES
 * @helpurl https://localhost:3000/help/ROUTE.PASSAGES#ROUTE.PASSAGES
 * @cancelable
 * @param origin From: a UN/LOCODE (NLRTM), a name (Rotterdam), "lat,lng" (51.95,4.05 or 51,95;4,05) or a terminal; a cell or a range.
 * @param destination To: a UN/LOCODE (CNSHA), a name (Shanghai), "lat,lng" or a terminal (NLRTM Euromax); a cell or a range.
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param [avoid] Passages the sea route must avoid, e.g. "SUEZ,PANAMA".
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns The passages as text, one per lane.
 */
export async function passages(
  origin: any[][],
  destination: any[][],
  modality?: Modality[][],
  vesselInfo?: any[][],
  avoid?: string[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return asMatrix(
    await route.passages({ origin, destination, modality, vesselInfo, avoid }, invocation)
  );
}

/**
 * Lanes in full: distance (km, nm), kg CO2e per TEU and per tonne, passages and modality. Where Excel has data types, one card per lane whose fields formulas read (=A2.Distance); elsewhere a header and one row per lane.
 * @customfunction LANE
 * @helpurl https://localhost:3000/help/ROUTE.LANE#ROUTE.LANE
 * @cancelable
 * @param origin From: a UN/LOCODE (NLRTM), a name (Rotterdam), "lat,lng" (51.95,4.05 or 51,95;4,05) or a terminal; a cell or a range.
 * @param destination To: a UN/LOCODE (CNSHA), a name (Shanghai), "lat,lng" or a terminal (NLRTM Euromax); a cell or a range.
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param [avoid] Passages the sea route must avoid, e.g. "SUEZ,PANAMA".
 * @param [containerType] Container type, e.g. 20DV or 40HC.
 * @param [fuelType] Fuel type, e.g. VLSFO, HFO, MGO, LNG.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns A card per lane, or a header row and a row per lane.
 */
export async function lane(
  origin: any[][],
  destination: any[][],
  modality?: Modality[][],
  vesselInfo?: any[][],
  avoid?: string[][],
  containerType?: ContainerType[][],
  fuelType?: FuelType[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return route.lane(
    { origin, destination, modality, vesselInfo, avoid, containerType, fuelType },
    invocation
  );
}

/**
 * Terminals at a location: spills one row per terminal with name, locode and id.
 * @customfunction TERMINALS
 * @helpurl https://localhost:3000/help/ROUTE.TERMINALS#ROUTE.TERMINALS
 * @param locode The location: a UN/LOCODE (NLRTM) or a name (Rotterdam).
 * @param [name] Part of a terminal name to match; all terminals when empty.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Rows of name, locode, id.
 */
export async function terminals(
  locode: string,
  name?: string,
  invocation?: CustomFunctions.Invocation
): Promise<string[][]> {
  return (await route.terminals({ locode, name }, invocation)) as string[][];
}

/**
 * Operators known to the route optimizer: spills one row per operator with name, SCAC and id.
 * @customfunction OPERATORS
 * @helpurl https://localhost:3000/help/ROUTE.OPERATORS#ROUTE.OPERATORS
 * @param [search] Part of a name or SCAC to match; all operators when empty.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Rows of name, SCAC, id.
 */
export async function operators(
  search?: string,
  invocation?: CustomFunctions.Invocation
): Promise<string[][]> {
  return (await route.operators({ search }, invocation)) as string[][];
}

/**
 * Multimodal routings: one row per distinct routing (same legs, services and transfer ports) with its next departure in the window, how often it sails, departures in the window, ports, modalities, operators, lead time (days), transfers, kg CO2e per TEU, latest drop-off and earliest pick-up (dates), under a header row.
 * @customfunction OPTIONS
 * @helpurl https://localhost:3000/help/ROUTE.OPTIONS#ROUTE.OPTIONS
 * @cancelable
 * @param origin From: a UN/LOCODE (NLRTM), a name (Rotterdam), "lat,lng" (51.95,4.05 or 51,95;4,05) or a terminal; a cell or a range.
 * @param destination To: a UN/LOCODE (CNSHA), a name (Shanghai), "lat,lng" or a terminal (NLRTM Euromax); a cell or a range.
 * @param [modalities] Modalities to consider, comma-separated: DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK (default all).
 * @param [maxTransfers] Largest number of transfers.
 * @param [sort] LEAD_TIME (default), EMISSIONS, TRANSFERS, DEPARTURE or ARRIVAL.
 * @param [top] How many routings to show (default 5).
 * @param [minDeparture] Earliest departure: a date cell, 2026-12-01 or 01.12.2026 (default: the service's window).
 * @param [maxDeparture] Latest departure: a date cell, 2026-12-01 or 01.12.2026.
 * @param [header] FALSE to leave out the header row above the routings (default TRUE).
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns One row per distinct routing.
 */
export async function options(
  origin: any,
  destination: any,
  modalities?: string,
  maxTransfers?: number,
  sort?: Sort,
  top?: number,
  minDeparture?: any,
  maxDeparture?: any,
  header?: boolean,
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return route.options(
    {
      origin,
      destination,
      modalities,
      maxTransfers,
      sort,
      top,
      minDeparture,
      maxDeparture,
      header,
    },
    invocation
  );
}

/** Excel declared a matrix result: a plain value (plain arguments) becomes one cell. */
function asMatrix(result: unknown): any[][] {
  return Array.isArray(result) ? (result as any[][]) : [[result]];
}

// ---- Emission extensions (issue 20): implementations in emission-functions.ts -----------------

const emission = createEmissionFunctions(sharedClient);

/**
 * Door-to-door transport chain (ISO 14083): one row per leg and per hub (transfer point), then a total row: element, from, to, modality or hub type, km, kg CO2e per TEU, per tonne, for the shipment.
 * @customfunction CHAIN
 * @helpurl https://localhost:3000/help/ROUTE.CHAIN#ROUTE.CHAIN
 * @cancelable
 * @param points The places in order: a range of cells, or a text such as "CNCTU,CNSHA,NLRTM,DEDUI".
 * @param modalities One modality per leg: a range, or a text such as "RAIL,DEEPSEA,BARGE".
 * @param [containerType] Container type, e.g. 20DV (default) or 40HC.
 * @param [containers] Number of boxes in the shipment (default 1).
 * @param [weightTons] Cargo mass of the shipment in tonnes (a part load).
 * @param [header] TRUE for a header row above the rows (default FALSE).
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Rows: each leg and hub, then the total.
 */
export async function chain(
  points: any[][],
  modalities: any[][],
  containerType?: ContainerType,
  containers?: number,
  weightTons?: number,
  header?: boolean,
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return emission.chain(
    { points, modalities, containerType, containers, weightTons, header },
    invocation
  );
}

/**
 * Transit time without a schedule, in days: distance at the default service speed of the modality (and vessel class), or at speedKnots, plus port time. Ranges spill one answer per row.
 * @customfunction DURATION
 * @helpurl https://localhost:3000/help/ROUTE.DURATION#ROUTE.DURATION
 * @cancelable
 * @param origin From: a UN/LOCODE, a terminal id or "lat,lng"; a cell or a range.
 * @param destination To: a UN/LOCODE, a terminal id or "lat,lng"; a cell or a range.
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [speedKnots] Service speed in knots instead of the default (DEEPSEA 16, SHORTSEA 14).
 * @param [portHours] Port time in hours added to the transit time (default 0).
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789 (sets the vessel class's speed).
 * @param [avoid] Passages the sea route must avoid, e.g. "SUEZ,PANAMA".
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Days, one per lane.
 */
export async function duration(
  origin: any[][],
  destination: any[][],
  modality?: Modality[][],
  speedKnots?: any[][],
  portHours?: any[][],
  vesselInfo?: any[][],
  avoid?: string[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return asMatrix(
    await emission.duration(
      { origin, destination, modality, speedKnots, portHours, vesselInfo, avoid },
      invocation
    )
  );
}

/**
 * EU ETS cost of a sea leg per TEU: the tank-to-wake CO2e the EU ETS covers (intra-EU 100 %, EU to or from non-EU 50 %, times the year's phase-in) times your carbon price per tonne. Ranges spill one answer per row.
 * @customfunction ETS
 * @helpurl https://localhost:3000/help/ROUTE.ETS#ROUTE.ETS
 * @cancelable
 * @param origin From: a UN/LOCODE or a terminal id; a cell or a range.
 * @param destination To: a UN/LOCODE or a terminal id; a cell or a range.
 * @param carbonPrice Price of one EU allowance (one tonne CO2e), e.g. 70 (EUR).
 * @param [modality] DEEPSEA (default) or SHORTSEA; other modalities are outside the maritime ETS (0).
 * @param [containerType] Container type, e.g. 20DV or 40HC.
 * @param [year] Year of the phase-in (40 % 2024, 70 % 2025, 100 % from 2026); default this year.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Cost per TEU in the carbon price's currency, one per lane.
 */
export async function ets(
  origin: any[][],
  destination: any[][],
  carbonPrice: any[][],
  modality?: Modality[][],
  containerType?: ContainerType[][],
  year?: any[][],
  invocation?: CustomFunctions.CancelableInvocation
): Promise<any[][]> {
  return asMatrix(
    await emission.ets(
      { origin, destination, carbonPrice, modality, containerType, year },
      invocation
    )
  );
}
