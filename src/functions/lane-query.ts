/**
 * One lane's arguments made into the service's query: places resolved (names through the places
 * look-up), choices checked here so bad rows cost no request. Problems become #VALUE! naming the
 * argument as the function's help names it, short enough for a cell.
 */
import type { RouteApiClient } from "../client/api-client";
import { isApiError } from "../client/errors";
import { PlaceProblem, resolvePlace, ResolvedPlace, suggestFor } from "../client/place-lookup";
import { mayBeName, placeMessage, readPlaceInput } from "../client/place-input";
import type { EmissionsParams } from "../client/types";
import { InputError } from "./excel-errors";
import { optionalText, parseAvoid, parseModality } from "./units";

/** A PlaceProblem as the cell shows it, in the words every surface uses (place-input.ts). */
export function placeError(problem: PlaceProblem, parameter: string): InputError {
  return new InputError(placeMessage(problem, parameter));
}

/** The place of one argument, resolved; #VALUE! naming `parameter` when it is none. */
export async function placeArgument(
  client: RouteApiClient,
  raw: unknown,
  parameter: string,
  cacheOnly: boolean
): Promise<ResolvedPlace> {
  try {
    return await resolvePlace(client, raw, { cacheOnly });
  } catch (error) {
    if (error instanceof PlaceProblem) throw placeError(error, parameter);
    throw error;
  }
}

/**
 * The place when it needs no look-up (a code, coordinates, an id: nearly every cell), without
 * waiting; undefined for a name. #VALUE! naming `parameter` for empty or malformed input.
 */
function placeAtOnce(raw: unknown, parameter: string): ResolvedPlace | undefined {
  // "busan", "genoa": looked up first (resolvePlace), as likely a name as a code.
  if (mayBeName(raw)) return undefined;
  const input = readPlaceInput(raw);
  const typed = raw === null || raw === undefined ? "" : String(raw).trim();
  if (input.kind === "PLACE") return { ...input.place, typed };
  if (input.kind === "EMPTY") throw placeError(new PlaceProblem("empty", typed, ""), parameter);
  if (input.kind === "INVALID")
    throw placeError(new PlaceProblem("invalid", typed, input.problem), parameter);
  return undefined;
}

export interface LaneQuery {
  query: EmissionsParams;
  origin: ResolvedPlace;
  destination: ResolvedPlace;
}

/** The emissions query of one lane (DISTANCE drops the container and fuel; only EMISSIONS passes a shipment). */
export async function laneQuery(
  client: RouteApiClient,
  cells: Record<string, unknown>,
  cacheOnly: boolean
): Promise<LaneQuery> {
  // Choices first: a bad modality costs no look-up.
  const modality = parseModality(cells.modality);
  const shipment = shipmentOf(cells);
  const origin =
    placeAtOnce(cells.origin, "origin") ??
    (await placeArgument(client, cells.origin, "origin", cacheOnly));
  const destination =
    placeAtOnce(cells.destination, "destination") ??
    (await placeArgument(client, cells.destination, "destination", cacheOnly));
  return {
    origin,
    destination,
    query: {
      origin: origin.value,
      destination: destination.value,
      modality,
      vesselInfo: optionalText(cells.vesselInfo),
      avoid: parseAvoid(cells.avoid),
      via: optionalText(cells.via),
      containerType: optionalText(cells.containerType)?.toUpperCase(),
      fuelType: optionalText(cells.fuelType)?.toUpperCase(),
      ...shipment,
    },
  };
}

/** containers / weightTons of a lane (issue 20): numbers, or #VALUE! naming the argument. */
function shipmentOf(cells: Record<string, unknown>): { containers?: number; weightTons?: number } {
  const out: { containers?: number; weightTons?: number } = {};
  for (const name of ["containers", "weightTons"] as const) {
    const text = optionalText(cells[name]);
    if (text === undefined) continue;
    const value = Number(text.replace(",", "."));
    if (!Number.isFinite(value) || value <= 0)
      throw new InputError(`${name} "${text}" is not allowed: use a number above 0`);
    out[name] = value;
  }
  return out;
}

/** `origin KRPUX is not a known UN/LOCODE` (the service's 404 detail for an unknown code or id). */
const UNKNOWN_CODE = /^(origin|destination) "?([^\s"]+)"? is not a known (UN\/LOCODE|terminal id)/;

/**
 * Runs a lane's call; when the service does not know a code the user typed, the error becomes
 * `unknown place "KRPUX" — did you mean KRPUS (Busan)?` from the places look-up.
 */
export async function withSuggestions<T>(
  client: RouteApiClient,
  lane: LaneQuery,
  cacheOnly: boolean,
  call: () => Promise<T>
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const m = isApiError(error) && error.status === 404 ? UNKNOWN_CODE.exec(error.detail) : null;
    if (!m) throw error;
    const place = m[1] === "origin" ? lane.origin : lane.destination;
    // Only what was typed as a code: a name already came from the look-up.
    if (readPlaceInput(place.typed).kind !== "PLACE" || cacheOnly) throw error;
    throw placeError(await suggestFor(client, place.typed.toUpperCase()), m[1]);
  }
}
