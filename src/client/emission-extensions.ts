/**
 * Typed calls of the emission extensions (issue 20): the transport chain (/chain), transit time
 * (include=time on /distance) and the EU ETS share (include=eca on /emissions). Batched and cached
 * by the client like the other calls.
 */
import type { ChainHub, ChainLeg, ChainTotal } from "../engine/emissions/chain";
import type { CallOptions, RouteApiClient } from "./api-client";
import { ApiError, unavailable } from "./errors";
import type { DistanceParams, EmissionsParams, Query } from "./types";

function unexpected(expected: string): ApiError {
  return unavailable(`Unexpected answer from the service: expected ${expected}`);
}

export const CHAIN_PATH = "/route-information/api/chain";

export interface ChainParams {
  /** Comma-separated places (";" when one is "lat,lng"). */
  points: string;
  /** Comma-separated modalities, one per leg. */
  modalities: string;
  containerType?: string;
  containers?: number;
  weightTons?: number;
  factorSet?: string;
}

/** The fields of the service's chain answer (the engine's ChainResult, one shape) the add-in reads. */
type Figures = "co2eTeu" | "co2eTon" | "co2eKg";
export interface ChainAnswer {
  legs: Array<Pick<ChainLeg, "leg" | "origin" | "destination" | "modality" | "distance" | Figures>>;
  hubs: Array<Pick<ChainHub, "after" | "point" | "hubType" | Figures>>;
  total: Pick<ChainTotal, "distance" | Figures>;
}

export async function chain(
  client: RouteApiClient,
  params: ChainParams,
  options: CallOptions = {}
): Promise<ChainAnswer> {
  const body = (await client.raw({ path: CHAIN_PATH, query: { ...params } }, options)) as
    ChainAnswer | null | undefined;
  if (!body || !Array.isArray(body.legs) || !Array.isArray(body.hubs) || !body.total)
    throw unexpected("a chain with legs, hubs and total");
  return body;
}

export interface DurationParams extends DistanceParams {
  speedKnots?: number;
  portHours?: number;
}

/** Transit time in days (include=time on /distance). */
export function durationDays(
  client: RouteApiClient,
  params: DurationParams,
  options: CallOptions = {}
): Promise<number> {
  return includedFigure(client, "distance", { ...params, include: "time" }, options, {
    block: "time",
    field: "days",
    expected: "a time block with days",
  });
}

export interface EtsParams extends EmissionsParams {
  year?: number;
}

/** kg CO2e per TEU the EU ETS covers (include=eca on /emissions). */
export function etsCoveredKgPerTeu(
  client: RouteApiClient,
  params: EtsParams,
  options: CallOptions = {}
): Promise<number> {
  return includedFigure(client, "emissions", { ...params, include: "eca" }, options, {
    block: "ets",
    field: "co2eTeuCovered",
    expected: "an ets block with co2eTeuCovered",
  });
}

/** One number of a block that include= adds to a /distance or /emissions answer. */
async function includedFigure(
  client: RouteApiClient,
  type: "distance" | "emissions",
  query: Query,
  options: CallOptions,
  want: { block: string; field: string; expected: string }
): Promise<number> {
  const body = (await client.raw(
    { type, path: `/route-information/api/${type}`, query },
    options
  )) as Record<string, Record<string, unknown> | undefined> | null;
  const value = body?.[want.block]?.[want.field];
  if (typeof value !== "number") throw unexpected(want.expected);
  return value;
}
