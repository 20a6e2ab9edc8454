/**
 * The body of an /emissions answer (also a batch item's): the spec's fields, then the extensions
 * asked for (passages, shipment totals, include=method, include=time, include=eca with the EU ETS
 * share). One engine computation for all of them.
 */
import { loadFactorSets } from "../../data/emissions";
import { loadEcaAreas, loadEtsRules, loadServiceSpeeds } from "../../data/voyage";
import {
  emissionsReport,
  EmissionsReportQuery,
  FactorEmissionCalculator,
} from "../../engine/emissions";
import { DistanceQuery, RouteEngine } from "../../engine/route-engine";
import {
  DistanceResult,
  LatLng,
  Modality,
  ResolvedPlace,
  VesselDimensions,
} from "../../engine/types";
import { EtsEnd, etsShare, parseYear, transitTime } from "../../engine/voyage";
import { IncludeValue } from "../schemas";
import { measureEca } from "./eca-memo";

/** The factor sets beside the engine's own calculator (the current set). */
export function factorSetsOf(engine: RouteEngine) {
  const current = engine.parts.emissions;
  return loadFactorSets(current instanceof FactorEmissionCalculator ? current : undefined);
}

/** Voyage options of the query string (extensions). */
export interface VoyageQuery {
  speedKnots?: string | number;
  portHours?: string | number;
  year?: string | number;
}

export function emissionsBody(
  engine: RouteEngine,
  query: EmissionsReportQuery & VoyageQuery,
  include: ReadonlySet<IncludeValue>,
  now: Date = new Date()
): Record<string, unknown> {
  const r = emissionsReport(engine, factorSetsOf(engine), query, {
    method: include.has("method"),
  });
  const { co2eTeu, co2eTon, distance, context, ...rest } = r;
  const passages = include.has("passages") ? { passages: context.route.passages } : {};
  const body: Record<string, unknown> = { co2eTeu, co2eTon, distance, ...passages, ...rest };
  // include=method also names the ends as resolved and the box the figures assume: what a
  // report (the pane's footprint export) needs to state the leg without another call.
  if (include.has("method"))
    Object.assign(body, {
      places: { origin: placeOf(context.origin), destination: placeOf(context.destination) },
      box: context.box,
    });
  Object.assign(body, voyageExtras(context, query, include, now));
  if (include.has("eca")) {
    const year = parseYear(query.year, now.getUTCFullYear());
    const ets = etsShare(
      loadEtsRules(),
      context.modality,
      etsEndOf(engine, context.origin),
      etsEndOf(engine, context.destination),
      year
    );
    const coveredTeu = round(context.co2eTeuTtw * ets.coveredShare);
    body.ets = {
      ...ets,
      basis: "tank-to-wake",
      co2eTeuCovered: coveredTeu,
      ...(typeof body.co2eKg === "number" && body.shipment
        ? {
            co2eKgCovered: round(
              (context.co2eTeuTtw / (co2eTeu || 1)) * (body.co2eKg as number) * ets.coveredShare
            ),
          }
        : {}),
    };
  }
  return body;
}

/** include=time and include=eca for a routed leg (distance and emissions answers alike). */
export function voyageExtras(
  ctx: { route: DistanceResult; modality: Modality; vessel?: VesselDimensions },
  query: VoyageQuery,
  include: ReadonlySet<IncludeValue>,
  now: Date = new Date()
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (include.has("time")) {
    out.time = transitTime(ctx.route.distance, ctx.modality, loadServiceSpeeds(), {
      speedKnots: query.speedKnots,
      portHours: query.portHours,
      vessel: ctx.vessel,
      // A truck's driving-time rules are those of where it runs: the route's ends tell.
      lane: ctx.modality === "TRUCK" ? routeEnds(ctx.route) : undefined,
    });
  }
  if (include.has("eca")) {
    const year = parseYear(query.year, now.getUTCFullYear());
    // A past or future year is looked at on its last day; the current year today.
    const asOf = year === now.getUTCFullYear() ? now.toISOString().slice(0, 10) : `${year}-12-31`;
    const sea = ctx.modality === "DEEPSEA" || ctx.modality === "SHORTSEA";
    out.eca = sea
      ? measureEca(loadEcaAreas(), ctx.route.path, ctx.route.distance, asOf)
      : { distanceInside: 0, share: 0, areas: [], asOf };
  }
  return out;
}

/** The first and last points of a route (undefined for an empty path). */
function routeEnds(route: DistanceResult): { from: LatLng; to: LatLng } | undefined {
  const path = route.path;
  return path.length ? { from: path[0], to: path[path.length - 1] } : undefined;
}

/** include=time / include=eca on /distance: routes once (cached) and adds the blocks. */
export function distanceExtras(
  engine: RouteEngine,
  query: DistanceQuery & VoyageQuery,
  include: ReadonlySet<IncludeValue>
): Record<string, unknown> {
  if (!include.has("time") && !include.has("eca")) return {};
  const { result } = engine.resolveAndRoute(query);
  const modality = query.modality!.trim().toUpperCase() as Modality;
  const vessel = query.vesselInfo?.trim()
    ? engine.parts.vessels.resolve(query.vesselInfo, "vesselInfo")
    : undefined;
  return voyageExtras({ route: result, modality, vessel }, query, include);
}

/** Within this distance a bare point is taken to be the nearest code's port (its country's rules). */
const ETS_PORT_METERS = 50_000;

/**
 * The port's country (from its LOCODE) and position: outermost regions are known by either. A bare
 * point takes the nearest code's country, so coordinates answer as the same lane given by code.
 */
function etsEndOf(engine: RouteEngine, p: ResolvedPlace): EtsEnd {
  const locode = p.locode ?? engine.parts.places.nearestCode?.(p, ETS_PORT_METERS);
  return { country: locode?.slice(0, 2).toUpperCase(), locode, lat: p.lat, lng: p.lng };
}

function placeOf(p: ResolvedPlace): Record<string, unknown> {
  return {
    kind: p.kind,
    ...(p.locode ? { locode: p.locode } : {}),
    ...(p.terminalId ? { terminalId: p.terminalId } : {}),
    ...(p.name ? { name: p.name } : {}),
    lat: p.lat,
    lng: p.lng,
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
