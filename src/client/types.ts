/** Requests and answers of the service interface (docs/service.md and the service's /openapi.json). */
import type { Operator, RouteSearchResult } from "../engine/optimizer/types";

export type { Operator, RouteOption, RouteSearchResult, Leg } from "../engine/optimizer/types";

export interface DistanceParams {
  origin: string;
  destination: string;
  modality: string;
  vesselInfo?: string;
  /** Comma-separated passages to avoid (extension), e.g. "SUEZ,PANAMA". */
  avoid?: string;
  /** Waypoints the route must pass, in order (extension), e.g. "CAPE_OF_GOOD_HOPE". */
  via?: string;
}

export interface EmissionsParams extends DistanceParams {
  containerType?: string;
  fuelType?: string;
  /** Extension: boxes in the shipment (answer carries co2eKg). */
  containers?: number;
  /** Extension: cargo tonnes of the shipment (answer carries co2eKg). */
  weightTons?: number;
}

/** Extension `GET /route-information/api/path`: the distance query's routed path. */
export interface RoutePathParams {
  origin: string;
  destination: string;
  modality: string;
  vesselInfo?: string;
  /** Comma-separated passages to avoid (extension). */
  avoid?: string;
}

export interface TerminalsParams {
  terminalLocode: string;
  terminalName?: string;
}

export interface RouteOptionsParams {
  origin: string;
  originType: "LOCODE" | "TERMINAL" | "GEO";
  destination: string;
  destinationType: "LOCODE" | "TERMINAL" | "GEO";
  modalities?: string[];
  maxTransfers?: number;
  sort?: string;
  [extra: string]: string | number | boolean | string[] | undefined;
}

export interface DistanceAnswer {
  /** Metres. */
  distance: number;
}

export interface EmissionsAnswer {
  co2eTeu: number;
  co2eTon: number;
  distance: number;
  /** kg CO2e of the shipment, when containers or weightTons were asked for. */
  co2eKg?: number;
}

/** Emissions with the canals and straits of the route, in route order (extension `include=passages`). */
export interface LaneAnswer extends EmissionsAnswer {
  passages: string[];
}

/** Extension `GET /account`: the calling key's account (free). */
export interface AccountInfo {
  name: string;
  tier: "free" | "paid";
  active: boolean;
  optimizerAccess: boolean;
  credits: { routeInformation: number; routeOptimizer: number };
  rateLimit: { perSecond: number; burst: number };
}

/** The routed path as a GeoJSON Feature: [lng, lat] points from origin to destination. */
export interface RoutePathAnswer {
  type: "Feature";
  geometry: { type: "LineString"; coordinates: [number, number][] };
  properties: { distance: number; modality: string; passages: string[] };
}

export interface TerminalRecord {
  id: string;
  name: string;
  locode: string;
}

export type OperatorRecord = Operator;
export type RouteOptionsAnswer = RouteSearchResult;

/** Extension `GET /route-information/api/places`: names and codes looked up (free). */
export interface PlacesParams {
  query: string;
  /** 1..20, default 5. */
  limit?: number;
}

export interface PlaceMatch {
  kind: "port" | "terminal" | "place";
  /** The place's UN/LOCODE (a terminal's: its port's). */
  locode?: string;
  name: string;
  country?: string;
  /** The country's subdivision (state, province) when the look-up knows it: tells namesakes apart. */
  subdivision?: string;
  /** The subdivision's name ("Oregon"): how an ambiguity names the candidates. */
  region?: string;
  /** Inhabitants, where known: ranks places of one name. */
  population?: number;
  lat?: number;
  lng?: number;
  /** Terminals only: the id the other endpoints accept. */
  terminalId?: string;
  modalities?: string[];
  /** `exact`: a code, name or alias equal after case/accent folding; `fuzzy`: prefix, word or edit distance. */
  match: "exact" | "fuzzy";
  /** 0..1, best first. */
  score: number;
}

/**
 * The service's own reading of a name as origin or destination (the same choice `lanes` makes):
 * one place, or ambiguous/unknown with a message of at most 100 characters.
 */
export type PlaceChoice =
  | { kind: "one"; locode?: string; terminalId?: string }
  | { kind: "ambiguous" | "unknown"; message: string };

export interface PlacesAnswer {
  query: string;
  results: PlaceMatch[];
  /** Absent from a service that predates it: the client then chooses among `results` itself. */
  choice?: PlaceChoice;
}

/** Calls the batch extension can carry. */
export type BatchableType = "distance" | "emissions" | "terminals";

export const PATHS = {
  distance: "/route-information/api/distance",
  emissions: "/route-information/api/emissions",
  terminals: "/route-information/api/terminals",
  batch: "/route-information/api/batch",
  path: "/route-information/api/path",
  account: "/account",
  places: "/route-information/api/places",
  routeOptions: "/route-optimizer/api/external",
  operators: "/route-optimizer/api/external/operators",
} as const;

/** Query values; arrays become repeated keys. */
export type QueryValue = string | number | boolean | string[] | undefined | null;
export type Query = Record<string, QueryValue>;

/** One call as the client queues it. */
export interface ApiCall {
  /** Batchable calls name their batch type; the others only a path. */
  type?: BatchableType;
  path: string;
  query: Query;
  /** Never answered from or kept in the cache (balances change with every call). */
  fresh?: boolean;
}
