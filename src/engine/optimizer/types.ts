/** Records of the route-optimizer interface (service-interface.md §2), as the engine produces them. */
import { Modality } from "../types";

export interface Operator {
  id: string;
  name: string;
  scac: string;
}

export interface LegOperator extends Operator {
  serviceCodes: string[];
  collaboratingOperators: Operator[];
}

export interface TerminalRef {
  id: string;
  name: string;
}

export interface Leg {
  origin: string;
  originTerminals: TerminalRef[];
  destination: string;
  destinationTerminals: TerminalRef[];
  modality: Modality;
  operators: LegOperator[];
  departureDate: string;
  arrivalDate: string;
  distanceInMeters: number;
  emissionsInKgCo2e: number;
  vessel?: { name: string; imo: string; mmsi: string };
}

export interface RouteOption {
  id: string;
  leadTimeInMinutes: number;
  latestDropOff: string;
  earliestPickup: string;
  emissionsInKgCo2e: number;
  transfers: number;
  transferEmissionsInKgCo2e: number;
  truckToOriginInMeters: number;
  truckToDestinationInMeters: number;
  legs: Leg[];
}

export interface RouteSearchResult {
  results: RouteOption[];
}

/** Every query parameter of GET /route-optimizer/api/external (service-interface.md §4.4), in its order. */
export const ROUTE_SEARCH_PARAMETERS = [
  "origin",
  "originType",
  "destination",
  "destinationType",
  "modalities",
  "minDeparture",
  "maxDeparture",
  "maxArrival",
  "maxTransfers",
  "allRequiredOperators",
  "anyRequiredOperators",
  "excludedOperators",
  "anyRequiredLocodes",
  "allRequiredLocodes",
  "excludedLocodes",
  "maxFirstMileTruckingKm",
  "maxLastMileTruckingKm",
  "sort",
  "directSeaOnly",
  "maxEmission",
  "maxLeadTime",
] as const;

/** Raw query parameters as the HTTP layer receives them: repeated keys arrive as arrays. */
export type RawQuery = Record<string, string | string[] | undefined>;

export interface SearchOptions {
  /** Date.now() after which the search gives up with SearchBudgetExceeded. */
  deadline?: number;
  /** Checked beside the deadline: true once the caller gave up (its client left). */
  cancelled?: () => boolean;
}

export interface RouteOptimizer {
  /** Validates the raw query (throws RouteSheetsError naming the parameter) and searches. */
  search(query: RawQuery, options?: SearchOptions): RouteSearchResult;
  operators(): Operator[];
}
