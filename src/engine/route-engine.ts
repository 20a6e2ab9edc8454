/**
 * The engine's front door: validates a distance/emissions/terminal query, resolves its places and
 * dispatches to the router of its modality. Pure: every data set arrives through the constructor
 * (see src/data/load-engine.ts for the loader that reads the files).
 */
import { ByteLru, PATH_POINT_BYTES, RESULT_BYTES } from "./byte-lru";
import { wholeNumber } from "./parameters";
import { incorrectValues, routeNotFound } from "./errors";
import { greatCircleMeters } from "./geo/geodesy";
import { avoidProblem, passageOf, readAvoid, splitVia } from "./passage-grammar";
import type { PlaceMatch } from "./places/place-search";
import { parseVia, routeVia, Waypoints } from "./voyage/via";
import {
  DistanceResult,
  EmissionsResult,
  LatLng,
  MODALITIES,
  Modality,
  Passage,
  ResolvedPlace,
  RouteBasis,
  Terminal,
  VesselDimensions,
} from "./types";

export interface PlaceDirectory {
  /** Resolves a LOCODE, terminal UUID or `lat,lng`; throws Incorrect Values / Unknown Data naming `parameter`. */
  resolve(value: string, parameter: string): ResolvedPlace;
  /** The code placed nearest to `p` within `maxMeters`: the country of a bare point, for rules that go by country. */
  nearestCode?(p: LatLng, maxMeters: number): string | undefined;
}

export interface TerminalDirectory {
  /** Terminals of a LOCODE, best name match first; all of them when `name` is empty. */
  search(locode: string, name?: string): Terminal[];
}

/** Place look-up by code or name as a user types (src/engine/places/place-search.ts). */
export interface PlaceFinder {
  search(query: string, limit: number): PlaceMatch[];
  /** Builds the search index now (the service does before it listens), not at the first search. */
  prepare?(): void;
  /** True once the index is built. */
  readonly ready?: boolean;
}

export interface RoutedPath {
  meters: number;
  path: LatLng[];
  /** How a RAIL/TRUCK route was computed; sea and barge routers (always networks) leave it out. */
  basis?: RouteBasis;
  /**
   * RAIL/TRUCK: metres an end was moved to its landside because the modality cannot reach it
   * (not part of `meters`); absent when neither end was moved.
   */
  snapDistance?: SnapDistance;
}

export interface SeaRouter {
  route(
    from: LatLng,
    to: LatLng,
    options: { closed: ReadonlySet<Passage> }
  ): (RoutedPath & { passages: Passage[]; snapDistance?: SnapDistance }) | null;
}

/** Metres each end of a sea route was moved onto the network. */
export type SnapDistance = { origin: number; destination: number };

export interface BargeRouter {
  route(from: LatLng, to: LatLng): RoutedPath | null;
}

export interface OverlandRouter {
  route(from: LatLng, to: LatLng, modality: "RAIL" | "TRUCK"): RoutedPath | null;
}

export interface VesselResolver {
  /** Parses `length,width,draught` (cm), `IMO1234567` or `MMSI123456789`; throws naming `parameter`. */
  resolve(vesselInfo: string, parameter: string): VesselDimensions;
  /**
   * Passages closed to this vessel; without one, to the modality's default vessel (SHORTSEA: a
   * feeder that fits the Kiel Canal; DEEPSEA: the vessel class of the lane's trade, e.g. an
   * Asia-Europe ULCV that fits no Panama lock, else a large container ship, Kiel closed).
   */
  closedPassages(
    vessel: VesselDimensions | undefined,
    modality?: "DEEPSEA" | "SHORTSEA",
    lane?: { from: LatLng; to: LatLng }
  ): Set<Passage>;
}

export interface EmissionCalculator {
  compute(input: {
    modality: Modality;
    distanceMeters: number;
    containerType?: string;
    fuelType?: string;
    vessel?: VesselDimensions;
    /** Optional: the leg's resolved ends, so a calculator can pick a trade-lane intensity. */
    lane?: { from: LatLng; to: LatLng };
  }): { co2eTeu: number; co2eTon: number };
}

export interface EngineParts {
  places: PlaceDirectory;
  terminals: TerminalDirectory;
  sea: SeaRouter;
  barge: BargeRouter;
  overland: OverlandRouter;
  vessels: VesselResolver;
  emissions: EmissionCalculator;
  /** Optional: engines built without a place index answer no look-ups. */
  finder?: PlaceFinder;
  /** Named sea waypoints for via= (data/waypoints.json); none when absent. */
  waypoints?: Waypoints;
}

export interface DistanceQuery {
  origin?: string;
  destination?: string;
  modality?: string;
  vesselInfo?: string;
  /** Extension: comma-separated passage names to avoid. */
  avoid?: string;
  /** Extension: waypoints the route must pass (names of data/waypoints.json or places). */
  via?: string;
}

export interface EmissionsQuery extends DistanceQuery {
  containerType?: string;
  fuelType?: string;
}

/**
 * Budget of the distance cache (byte-lru.ts): about 65,000 distances without paths, fewer with
 * paths read. With the sea router's own cache and its remembered ports, the engine's caches stay
 * within the ceiling docs/deploy.md states, however many distinct lanes it answers.
 */
export const DISTANCE_CACHE_BYTES = 32 * 2 ** 20;
/** Namesakes closer than this are one place under two codes (as the add-in's look-up says). */
const SAME_PLACE_METRES = 100_000;
/** Longest place look-up query, in characters. */
export const PLACE_QUERY_MAX = 200;

export interface EngineOptions {
  /** Budget of the distance cache; DISTANCE_CACHE_BYTES by default. */
  distanceCacheBytes?: number;
}

export class RouteEngine {
  private readonly distanceCache: ByteLru<string, DistanceResult>;

  constructor(
    readonly parts: EngineParts,
    options: EngineOptions = {}
  ) {
    this.distanceCache = new ByteLru(options.distanceCacheBytes ?? DISTANCE_CACHE_BYTES);
  }

  terminals(terminalLocode: string | undefined, terminalName?: string): Terminal[] {
    const locode = normaliseLocodeParam(terminalLocode, "terminalLocode");
    return this.parts.terminals.search(locode, terminalName?.trim() || undefined);
  }

  /**
   * Places whose code or name matches `query`, best first. Throws Incorrect Values naming `query`
   * (missing, blank, over 200 characters) or `limit` (not a whole number 1..20; default 5).
   */
  places(query: string | undefined, limit?: string | number): PlaceMatch[] {
    const text = query?.trim() ?? "";
    if (!text || text.length > PLACE_QUERY_MAX) {
      throw incorrectValues(
        "query",
        `query ${text ? `is ${text.length} characters long` : "is required"}: a UN/LOCODE, a place, port or terminal name (1 to ${PLACE_QUERY_MAX} characters), e.g. Rotterdam or NLRTM Euromax.`
      );
    }
    const n = wholeNumber(limit, "limit", { min: 1, max: 20, unit: "results (default 5)" }) ?? 5;
    return this.parts.finder ? this.parts.finder.search(text, n) : [];
  }

  /** Builds the place index now, so that no request pays for it (issue 31: before listening). */
  preparePlaces(): void {
    this.parts.finder?.prepare?.();
  }

  /** True when a place look-up will not build the index first. */
  get placesReady(): boolean {
    return this.parts.finder?.ready ?? true;
  }

  /**
   * A via place: a code, terminal id or "lat,lng" as origin and destination take them, else a
   * name the place look-up matches exactly ("Singapore"), the look-up's ranking choosing among
   * namesakes abroad; namesakes in one country (Portland) are refused, as the add-in refuses them.
   */
  private viaPlace(name: string): LatLng {
    try {
      return this.parts.places.resolve(name, "via");
    } catch (error) {
      const exact = (this.parts.finder?.search(name, 5) ?? []).filter(
        (m) => m.match === "exact" && m.kind !== "terminal"
      );
      const first = exact[0];
      if (!first) throw error;
      const rival = exact.find(
        (m) =>
          m.locode !== first.locode &&
          m.country === first.country &&
          greatCircleMeters(m, first) >= SAME_PLACE_METRES
      );
      if (rival) throw error;
      return { lat: first.lat, lng: first.lng };
    }
  }

  distance(query: DistanceQuery): DistanceResult {
    return this.resolveAndRoute(query).result;
  }

  /** Validates and resolves a distance query, keeping the resolved ends for callers that need them. */
  resolveAndRoute(query: DistanceQuery): {
    result: DistanceResult;
    origin: ResolvedPlace;
    destination: ResolvedPlace;
  } {
    const modality = parseModality(query.modality);
    const origin = this.parts.places.resolve(required(query.origin, "origin"), "origin");
    const destination = this.parts.places.resolve(
      required(query.destination, "destination"),
      "destination"
    );
    const vessel = query.vesselInfo?.trim()
      ? this.parts.vessels.resolve(query.vesselInfo, "vesselInfo")
      : undefined;
    const avoid = parseAvoid(query.avoid);
    refuseViaAvoided(query.via, avoid);
    const via = parseVia(this.parts.waypoints ?? {}, (name) => this.viaPlace(name), query.via);
    return {
      result: via.length
        ? routeVia(
            (a, b) => this.distanceBetween(a, b, modality, vessel, avoid),
            origin,
            destination,
            via
          )
        : this.distanceBetween(origin, destination, modality, vessel, avoid),
      origin,
      destination,
    };
  }

  emissions(query: EmissionsQuery): EmissionsResult {
    const modality = parseModality(query.modality);
    const vessel = query.vesselInfo?.trim()
      ? this.parts.vessels.resolve(query.vesselInfo, "vesselInfo")
      : undefined;
    // Validate the emission parameters before routing, so bad input is reported as such.
    this.parts.emissions.compute({
      modality,
      distanceMeters: 0,
      containerType: blankToUndefined(query.containerType),
      fuelType: blankToUndefined(query.fuelType),
      vessel,
    });
    const { result, origin, destination } = this.resolveAndRoute(query);
    const { distance } = result;
    const { co2eTeu, co2eTon } = this.parts.emissions.compute({
      modality,
      distanceMeters: distance,
      containerType: blankToUndefined(query.containerType),
      fuelType: blankToUndefined(query.fuelType),
      vessel,
      lane: {
        from: { lat: origin.lat, lng: origin.lng },
        to: { lat: destination.lat, lng: destination.lng },
      },
    });
    return { co2eTeu, co2eTon, distance };
  }

  /** Distance between resolved places; cached because lane sheets repeat lanes a lot. */
  distanceBetween(
    origin: LatLng,
    destination: LatLng,
    modality: Modality,
    vessel?: VesselDimensions,
    avoid: Passage[] = []
  ): DistanceResult {
    const key = [
      origin.lat,
      origin.lng,
      destination.lat,
      destination.lng,
      modality,
      vessel ? `${vessel.lengthCm}x${vessel.widthCm}x${vessel.draughtCm}` : "",
      avoid.join("+"),
    ].join("|");
    const hit = this.distanceCache.get(key);
    if (hit) return hit;
    const computed = this.computeDistance(origin, destination, modality, vessel, avoid);
    // Kept without the router's route: its path is asked of the router again when first read
    // (the router's cache or the same search gives the same points), then kept and counted.
    let path: LatLng[] | undefined;
    // The ends as plain points: the resolved places (names, codes) are not kept alive.
    const a = { lat: origin.lat, lng: origin.lng };
    const b = { lat: destination.lat, lng: destination.lng };
    const result = withPath(computed, () => {
      if (!path) {
        path = this.computeDistance(a, b, modality, vessel, avoid).path;
        this.distanceCache.grew(key, path.length * PATH_POINT_BYTES);
      }
      return path;
    });
    this.distanceCache.set(key, result, RESULT_BYTES);
    return result;
  }

  private computeDistance(
    origin: LatLng,
    destination: LatLng,
    modality: Modality,
    vessel: VesselDimensions | undefined,
    avoid: Passage[]
  ): DistanceResult {
    switch (modality) {
      case "DEEPSEA":
      case "SHORTSEA": {
        const closed = this.parts.vessels.closedPassages(vessel, modality, {
          from: origin,
          to: destination,
        });
        for (const p of avoid) closed.add(p);
        const r = this.parts.sea.route(origin, destination, { closed });
        if (!r)
          throw routeNotFound(
            `No ${modality} sea route between origin and destination${describeClosed(closed)}.`
          );
        return routed(r, r.passages, r.snapDistance);
      }
      case "BARGE": {
        const r = this.parts.barge.route(origin, destination);
        if (!r)
          throw routeNotFound(
            "No BARGE route: origin and destination are not both on the inland-waterway network."
          );
        return routed(r, []);
      }
      case "RAIL":
      case "TRUCK": {
        const r = this.parts.overland.route(origin, destination, modality);
        if (!r)
          throw routeNotFound(
            `No ${modality} route: origin and destination are not on the same landmass.`
          );
        return routed(r, [], r.snapDistance);
      }
    }
  }
}

/**
 * The result of a routed path, its polyline read only when asked for: the sea router keeps paths
 * packed (compact-route.ts), and a lane sheet that wants distances never unpacks them.
 */
function routed(r: RoutedPath, passages: Passage[], snapDistance?: SnapDistance): DistanceResult {
  return withPath(
    {
      distance: round(r.meters),
      passages,
      // RAIL/TRUCK say how they were computed; sea and barge routes always follow their networks.
      basis: r.basis,
      snapDistance: snapDistance && {
        origin: round(snapDistance.origin),
        destination: round(snapDistance.destination),
      },
    },
    () => r.path
  );
}

/**
 * A result whose path comes from `path` when read: an object literal (its getter and fields in
 * one fast-mode shape, the fields in the order answers have always serialised in).
 */
function withPath(
  d: Pick<DistanceResult, "distance" | "passages" | "basis" | "snapDistance">,
  path: () => LatLng[]
): DistanceResult {
  return {
    distance: d.distance,
    passages: d.passages,
    ...(d.basis ? { basis: d.basis } : {}),
    get path(): LatLng[] {
      return path();
    },
    ...(d.snapDistance && { snapDistance: d.snapDistance }),
  };
}

function round(meters: number): number {
  return Math.round(meters);
}

function describeClosed(closed: ReadonlySet<Passage>): string {
  return closed.size ? ` with ${[...closed].join(", ")} closed` : "";
}

function required(value: string | undefined, parameter: string): string {
  if (value === undefined || value.trim() === "") {
    throw incorrectValues(
      parameter,
      `${parameter} is required: a UN/LOCODE (e.g. NLRTM), a terminal UUID or "lat,lng".`
    );
  }
  return value;
}

function blankToUndefined(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === "" ? undefined : v.trim();
}

export function parseModality(value: string | undefined, parameter = "modality"): Modality {
  const v = value?.trim().toUpperCase();
  if (!v)
    throw incorrectValues(
      parameter,
      `${parameter} is required; allowed values: ${MODALITIES.join(", ")}.`
    );
  if (!(MODALITIES as readonly string[]).includes(v)) {
    throw incorrectValues(
      parameter,
      `${parameter} "${value}" is not allowed; allowed values: ${MODALITIES.join(", ")}.`
    );
  }
  return v as Modality;
}

/**
 * A passage named in both via and avoid: the route cannot pass through what it avoids. Each via
 * piece is read by the grammar avoid uses (passage-grammar.ts), so "Suez Canal" and SUEZ, or
 * "Strait of Hormuz" and hormuz, are the same passage.
 */
function refuseViaAvoided(via: string | undefined, avoid: readonly Passage[]): void {
  if (!via || avoid.length === 0) return;
  for (const piece of splitVia(via)) {
    const passage = passageOf(piece);
    if (passage && avoid.includes(passage))
      throw incorrectValues(
        "via",
        `via "${piece.slice(0, 40)}" conflicts with avoid ${passage}: both name one passage; drop it from via or from avoid.`
      );
  }
}

/** `avoid` read by the one grammar the add-in and `lanes` use too (passage-grammar.ts). */
export function parseAvoid(value: string | undefined): Passage[] {
  const reading = readAvoid(value);
  if (reading.kind === "UNKNOWN") throw incorrectValues("avoid", avoidProblem(reading.item));
  return reading.passages;
}

function normaliseLocodeParam(value: string | undefined, parameter: string): string {
  const v = (value ?? "").replace(/\s+/g, "").toUpperCase();
  if (!v)
    throw incorrectValues(
      parameter,
      `${parameter} is required: a 5-character UN/LOCODE such as NLRTM.`
    );
  if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(v)) {
    throw incorrectValues(
      parameter,
      `${parameter} "${value}" is not a UN/LOCODE: 2-letter country code + 3 letters/digits 2-9, e.g. NLRTM.`
    );
  }
  return v;
}
