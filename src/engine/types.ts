/** Shared vocabulary of the engine. */

export const MODALITIES = ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"] as const;
export type Modality = (typeof MODALITIES)[number];

export interface LatLng {
  lat: number;
  lng: number;
}

/** What a user typed for origin/destination, classified but not yet looked up. */
export type PlaceInput =
  | { kind: "LOCODE"; locode: string }
  | { kind: "TERMINAL"; id: string }
  | { kind: "GEO"; lat: number; lng: number };

export type PlaceKind = PlaceInput["kind"];

/** A place resolved to coordinates. */
export interface ResolvedPlace extends LatLng {
  kind: PlaceKind;
  /** The LOCODE of the port/location, or of the terminal's port. Absent for bare coordinates. */
  locode?: string;
  /** Set when the input was a terminal id. */
  terminalId?: string;
  name?: string;
  /** UN/LOCODE places: what the code list says of it (function classifier, subdivision). */
  functions?: string;
  subdivision?: string;
  region?: string;
  /** How the position was found when it is not the place's own ("parent place CNSGH"). */
  position?: string;
}

export interface Port extends LatLng {
  locode: string;
  name: string;
  /** ISO 3166-1 alpha-2, the first two letters of the LOCODE. */
  country: string;
  /** Where the coordinates come from. */
  source: string;
}

export interface Terminal extends LatLng {
  id: string;
  name: string;
  locode: string;
  modalities: Modality[];
  source?: string;
}

/** Canonical names of the straits and canals the sea network labels. */
export const PASSAGES = [
  "SUEZ",
  "PANAMA",
  "KIEL",
  "CORINTH",
  "BOSPORUS",
  "MALACCA",
  "SUNDA",
  "GIBRALTAR",
  "DOVER",
  "BAB_EL_MANDEB",
  "HORMUZ",
  "MAGELLAN",
  "NORTHWEST",
  "NORTHEAST",
  "BERING",
] as const;
export type Passage = (typeof PASSAGES)[number];

/** Vessel dimensions in centimetres, as `vesselInfo` carries them. */
export interface VesselDimensions {
  lengthCm: number;
  widthCm: number;
  draughtCm: number;
}

export interface Vessel extends VesselDimensions {
  imo: string;
  mmsi: string;
  name: string;
}

/**
 * How a distance was computed: along a network (sea lanes, waterways, rail corridors: "network";
 * a named road or rail network; a road engine) or, where no network data covers the trip,
 * estimated as the great circle times a circuity factor (by distance band and terrain).
 */
export const ROUTE_BASES = [
  "network",
  "great circle × circuity",
  "road network (OSRM)",
  "road network (US freeways)",
  "rail network (North American Class I)",
] as const;
export type RouteBasis = (typeof ROUTE_BASES)[number];

export interface DistanceResult {
  /** Metres. */
  distance: number;
  /** RAIL/TRUCK: how the distance was computed (see RouteBasis); absent for sea and barge. */
  basis?: RouteBasis;
  /** Passages the sea route uses, in order (empty for land modes). */
  passages: Passage[];
  /** The route's polyline, for maps. */
  path: LatLng[];
  /**
   * Sea routes: metres each input point was moved onto the sea network (its connector to the
   * nearest network point it joined; 0 when the route runs straight from the point itself).
   */
  snapDistance?: { origin: number; destination: number };
}

export interface EmissionsResult {
  /** kg CO2e per TEU for the whole trip (well-to-wheel). */
  co2eTeu: number;
  /** kg CO2e per tonne of cargo for the whole trip (well-to-wheel). */
  co2eTon: number;
  /** Metres. */
  distance: number;
}
