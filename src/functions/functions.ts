/**
 * The ROUTE.* custom functions. custom-functions-metadata-plugin reads these JSDoc blocks into
 * functions.json and appends the CustomFunctions.associate calls. All are non-volatile; optional
 * arguments arrive as null. The work happens in route-functions.ts.
 */
import { sharedClient } from "../client/shared";
import { createRouteFunctions } from "./route-functions";

const route = createRouteFunctions(sharedClient);

/**
 * Distance of the route between two places for one modality (sea routes follow shipping lanes and canals).
 * @customfunction DISTANCE
 * @helpurl https://github.com/route-sheets/route-sheets/blob/main/README.md#routedistance
 * @param origin From: a UN/LOCODE (NLRTM), a terminal id or "lat,lng".
 * @param destination To: a UN/LOCODE (CNSHA), a terminal id or "lat,lng".
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param [unit] Unit of the result: m, km (default), nm or mi.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns The distance in the chosen unit.
 */
export async function distance(
  origin: string,
  destination: string,
  modality?: string,
  vesselInfo?: string,
  unit?: string,
  invocation?: CustomFunctions.Invocation
): Promise<number> {
  // A preview returns a message instead of a number; Excel shows it as text.
  return (await route.distance(
    origin,
    destination,
    modality,
    vesselInfo,
    unit,
    invocation
  )) as number;
}

/**
 * Well-to-wheel CO2-equivalent emissions of a trip, in kg CO2e per TEU or per tonne of cargo.
 * @customfunction EMISSIONS
 * @helpurl https://github.com/route-sheets/route-sheets/blob/main/README.md#routeemissions
 * @param origin From: a UN/LOCODE (NLRTM) or "lat,lng".
 * @param destination To: a UN/LOCODE (CNSHA) or "lat,lng".
 * @param [modality] DEEPSEA (default), SHORTSEA, BARGE, RAIL or TRUCK.
 * @param [per] TEU (default) or TON.
 * @param [containerType] Container type, e.g. 20GP or 40HC.
 * @param [fuelType] Fuel type, e.g. HFO, VLSFO, MGO, LNG.
 * @param [vesselInfo] Vessel: "length,width,draught" in cm, IMO1234567 or MMSI123456789.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns kg CO2e per TEU or per tonne.
 */
export async function emissions(
  origin: string,
  destination: string,
  modality?: string,
  per?: string,
  containerType?: string,
  fuelType?: string,
  vesselInfo?: string,
  invocation?: CustomFunctions.Invocation
): Promise<number> {
  return (await route.emissions(
    origin,
    destination,
    modality,
    per,
    containerType,
    fuelType,
    vesselInfo,
    invocation
  )) as number;
}

/**
 * Terminals at a location: spills one row per terminal with name, locode and id.
 * @customfunction TERMINALS
 * @helpurl https://github.com/route-sheets/route-sheets/blob/main/README.md#routeterminals
 * @param locode UN/LOCODE of the location, e.g. NLRTM.
 * @param [name] Part of a terminal name to match; all terminals when empty.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Rows of name, locode, id.
 */
export async function terminals(
  locode: string,
  name?: string,
  invocation?: CustomFunctions.Invocation
): Promise<string[][]> {
  return (await route.terminals(locode, name, invocation)) as string[][];
}

/**
 * Operators known to the route optimizer: spills one row per operator with name, SCAC and id.
 * @customfunction OPERATORS
 * @helpurl https://github.com/route-sheets/route-sheets/blob/main/README.md#routeoperators
 * @param [search] Part of a name or SCAC to match; all operators when empty.
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns Rows of name, SCAC, id.
 */
export async function operators(
  search?: string,
  invocation?: CustomFunctions.Invocation
): Promise<string[][]> {
  return (await route.operators(search, invocation)) as string[][];
}

/**
 * Multimodal route options: spills one row per option with lead time (days), transfers, total kg CO2e, modalities, operators, earliest pickup and latest drop-off.
 * @customfunction OPTIONS
 * @helpurl https://github.com/route-sheets/route-sheets/blob/main/README.md#routeoptions
 * @param origin From: a UN/LOCODE, a terminal id or "lat,lng".
 * @param destination To: a UN/LOCODE, a terminal id or "lat,lng".
 * @param [modalities] Modalities to consider, comma-separated: DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK (default all).
 * @param [maxTransfers] Largest number of transfers.
 * @param [sort] Sort order of the options, as the service names it.
 * @param [top] How many options to show (default 5).
 * @param invocation Invocation context (formula value preview spends no credit).
 * @returns One summary row per route option.
 */
export async function options(
  origin: string,
  destination: string,
  modalities?: string,
  maxTransfers?: number,
  sort?: string,
  top?: number,
  invocation?: CustomFunctions.Invocation
): Promise<any[][]> {
  return route.options(origin, destination, modalities, maxTransfers, sort, top, invocation);
}
