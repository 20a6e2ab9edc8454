/**
 * A door-to-door transport chain (ISO 14083): legs between consecutive points, each computed like
 * /emissions (the leg's own ends pick the trade lane or region), and a hub operation at every
 * transfer point (GLEC hub default factors by hub type), summed into the chain total.
 */
import { EtsEnd, EtsRules, EtsShare, etsVoyageShares } from "../voyage/ets";
import { incorrectValues, isRouteSheetsError } from "../errors";
import { parseModality, RouteEngine } from "../route-engine";
import { LatLng, Modality, ResolvedPlace } from "../types";
import { FactorSets, factorSetId, hubTypeFor } from "./factor-sets";
import {
  distanceBasisOf,
  legBreakdown,
  legEmissionFields,
  LegEmissionFields,
  parseShipment,
  ShipmentInput,
} from "./report";

export const MAX_CHAIN_POINTS = 12;

export interface ChainQuery extends ShipmentInput {
  /** Comma-separated places (LOCODE, terminal UUID, "lat,lng" needs `;` between points). */
  points?: string;
  /** Comma-separated modalities, one per leg (points − 1). */
  modalities?: string;
  containerType?: string;
  factorSet?: string;
}

export interface ChainLeg extends LegEmissionFields {
  leg: number;
  origin: string;
  destination: string;
  modality: Modality;
  distance: number;
  /** The port terminal the leg starts or ends at, when the port's own point has no route. */
  originTerminal?: { id: string; name: string };
  destinationTerminal?: { id: string; name: string };
  /** include=eca: the EU ETS share of the leg (its voyage's, through transhipment ports). */
  ets?: EtsShare & { basis: "tank-to-wake"; co2eTeuCovered: number };
}

export interface ChainHub {
  /** The hub sits between leg `after` and leg `after + 1` (1-based legs). */
  after: number;
  point: string;
  hubType: string;
  co2eTeu: number;
  co2eTon: number;
  co2eKg?: number;
  /** kg CO2e per container handled (the published unit, or per tonne × payload). */
  perContainer: number;
  source: string;
}

export interface ChainTotal {
  distance: number;
  co2eTeu: number;
  co2eTon: number;
  co2eKg?: number;
  /** Hub emissions (kg CO2e per TEU) by hub type. */
  hubsByType: Record<string, number>;
  legs: number;
  hubs: number;
  factorSet: string;
}

export interface ChainResult {
  legs: ChainLeg[];
  hubs: ChainHub[];
  total: ChainTotal;
}

/** Splits `points`: commas between places, or semicolons when a point is "lat,lng". */
export function splitPoints(raw: string | undefined): string[] {
  const v = raw?.trim() ?? "";
  if (!v) {
    throw incorrectValues(
      "points",
      `points is required: ${2}–${MAX_CHAIN_POINTS} places separated by commas (UN/LOCODEs or terminal UUIDs), or by semicolons when a place is "lat,lng".`
    );
  }
  const parts = (v.includes(";") ? v.split(";") : v.split(",")).map((x) => x.trim());
  if (parts.some((x) => x === "") || parts.length < 2 || parts.length > MAX_CHAIN_POINTS) {
    throw incorrectValues(
      "points",
      `points must list 2 to ${MAX_CHAIN_POINTS} places separated by commas (semicolons when a place is "lat,lng"), got ${parts.length}.`
    );
  }
  return parts;
}

export function parseChainModalities(raw: string | undefined, legs: number): Modality[] {
  const parts = (raw ?? "")
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (parts.length !== legs) {
    throw incorrectValues(
      "modalities",
      `modalities must give one modality per leg: ${legs} for ${legs + 1} points, got ${parts.length}.`
    );
  }
  return parts.map((m) => parseModality(m, "modalities"));
}

export function chainEmissions(
  engine: RouteEngine,
  sets: FactorSets,
  query: ChainQuery,
  options: {
    method?: boolean;
    /** EU ETS share of each leg for `year` (include=eca): legs through a neighbouring
     * transhipment port are one voyage (etsVoyageShares). */
    ets?: { rules: EtsRules; year: number };
  } = {}
): ChainResult {
  const calc = sets.get(query.factorSet);
  const names = splitPoints(query.points);
  const modalities = parseChainModalities(query.modalities, names.length - 1);
  const shipment = parseShipment(query);
  const containerType = query.containerType?.trim() || undefined;
  // Bad box or modality is Incorrect Values before anything is routed.
  for (const m of modalities) calc.compute({ modality: m, distanceMeters: 0, containerType });
  const places = names.map((n) => engine.parts.places.resolve(n, "points"));
  const label = (i: number) => places[i].locode ?? names[i];

  const ttw: number[] = [];
  const legs: ChainLeg[] = modalities.map((modality, i) => {
    const routed = routeLeg(engine, places[i], places[i + 1], modality);
    const { from, to, distance } = routed;
    const b = legBreakdown(
      calc,
      { modality, distanceMeters: distance, from, to, containerType },
      options.method === true
    );
    ttw.push(b.co2eTeuTtw);
    const fields = legEmissionFields(b, calc, {
      method: options.method,
      shipment,
      distanceBasis: options.method ? distanceBasisOf(engine, modality, from, to) : "",
    });
    return {
      leg: i + 1,
      origin: label(i),
      destination: label(i + 1),
      modality,
      distance,
      ...(routed.originTerminal ? { originTerminal: routed.originTerminal } : {}),
      ...(routed.destinationTerminal ? { destinationTerminal: routed.destinationTerminal } : {}),
      ...fields,
    };
  });

  if (options.ets) {
    const end = (p: ResolvedPlace): EtsEnd => ({
      country: p.locode?.slice(0, 2).toUpperCase(),
      locode: p.locode,
      lat: p.lat,
      lng: p.lng,
    });
    const shares = etsVoyageShares(
      options.ets.rules,
      legs.map((l, i) => ({
        modality: l.modality,
        origin: end(places[i]),
        destination: end(places[i + 1]),
      })),
      options.ets.year
    );
    legs.forEach((l, i) => {
      l.ets = {
        ...shares[i],
        basis: "tank-to-wake",
        co2eTeuCovered: round(ttw[i] * shares[i].coveredShare),
      };
    });
  }

  const hubs: ChainHub[] = [];
  for (let i = 1; i < modalities.length; i++) {
    const h = calc.hubEmissions(hubTypeFor(modalities[i - 1], modalities[i]), containerType);
    const hub: ChainHub = {
      after: i,
      point: label(i),
      hubType: h.hubType,
      co2eTeu: h.perTeu,
      co2eTon: h.perTon,
      perContainer: h.perContainer,
      source: h.source,
    };
    if (legs[0].co2eKg !== undefined) {
      hub.co2eKg =
        shipment.containers === undefined
          ? round((shipment.weightTons as number) * h.perTon)
          : round(shipment.containers * h.perContainer);
    }
    hubs.push(hub);
  }

  const sum = (xs: number[]) => round(xs.reduce((t, x) => t + x, 0));
  const hubsByType: Record<string, number> = {};
  for (const h of hubs) hubsByType[h.hubType] = round((hubsByType[h.hubType] ?? 0) + h.co2eTeu);
  const total: ChainTotal = {
    distance: legs.reduce((t, l) => t + l.distance, 0),
    co2eTeu: sum([...legs.map((l) => l.co2eTeu), ...hubs.map((h) => h.co2eTeu)]),
    co2eTon: sum([...legs.map((l) => l.co2eTon), ...hubs.map((h) => h.co2eTon)]),
    hubsByType,
    legs: legs.length,
    hubs: hubs.length,
    factorSet: factorSetId(calc),
  };
  if (legs[0].co2eKg !== undefined) {
    total.co2eKg = sum([...legs.map((l) => l.co2eKg!), ...hubs.map((h) => h.co2eKg!)]);
  }
  return { legs, hubs, total };
}

interface LegEnd extends LatLng {
  terminal?: { id: string; name: string };
}

/**
 * Routes one leg between the points; when a port's own point has no route for the modality (rail
 * does not reach Shanghai's Yangshan island, where the CNSHA point lies), the port's terminals are
 * tried in turn, so the leg runs to the terminal the modality can reach. Other errors pass.
 */
function routeLeg(
  engine: RouteEngine,
  a: ResolvedPlace,
  b: ResolvedPlace,
  modality: Modality
): {
  from: LatLng;
  to: LatLng;
  distance: number;
  originTerminal?: LegEnd["terminal"];
  destinationTerminal?: LegEnd["terminal"];
} {
  const ends = (p: ResolvedPlace): LegEnd[] => {
    const own: LegEnd = { lat: p.lat, lng: p.lng };
    if (p.kind !== "LOCODE" || !p.locode) return [own];
    const terminals = engine.parts.terminals.search(p.locode);
    const serving = terminals.filter((t) => t.modalities.includes(modality));
    return [
      own,
      ...[...serving, ...terminals.filter((t) => !serving.includes(t))].map((t) => ({
        lat: t.lat,
        lng: t.lng,
        terminal: { id: t.id, name: t.name },
      })),
    ];
  };
  let first: unknown;
  const froms = ends(a);
  const tos = ends(b);
  for (const from of froms) {
    for (const to of tos) {
      try {
        const { distance } = engine.distanceBetween(point(from), point(to), modality);
        return {
          from: point(from),
          to: point(to),
          distance,
          ...(from.terminal ? { originTerminal: from.terminal } : {}),
          ...(to.terminal ? { destinationTerminal: to.terminal } : {}),
        };
      } catch (e) {
        if (!isRouteSheetsError(e) || e.kind !== "no-route") throw e;
        first ??= e;
      }
    }
  }
  throw first;
}

function point(p: LatLng): LatLng {
  return { lat: p.lat, lng: p.lng };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
