/**
 * The route optimizer (RouteOptimizer): validates a raw query, finds the Pareto-optimal journeys
 * over departure, arrival, transfers and emissions with the multi-criteria connection scan, and
 * returns them as sorted route options.
 */
import { ResolvedPlace } from "../types";
import { accessOptions } from "./access";
import { buildConstraints } from "./filters";
import { Geography, ScheduleParameters } from "./model";
import { Network, toMinutes } from "./network";
import { parseQuery, ParsedQuery, QueryDefaults } from "./query";
import { sortOptions, toRouteOption } from "./records";
import { searchJourneys, SearchSpec } from "./search/mc-csa";
import { Operator, RawQuery, RouteOptimizer, RouteSearchResult, SearchOptions } from "./types";

export interface OptimizerOptions {
  network: Network;
  geography: Geography;
  /** Resolves a LOCODE / terminal id / `lat,lng` (the engine's PlaceDirectory). */
  resolvePlace(value: string, parameter: string): ResolvedPlace;
  parameters: ScheduleParameters;
  /** "Now" for default departure windows; the current time when absent. */
  now?: () => Date;
  /**
   * Rebuilds the timetable for a new "now". With it, a long-running optimizer re-expands its weekly
   * services once the clock is `refreshDays` past the last build, so the horizon never runs out.
   */
  rebuild?: (now: Date) => Network;
  refreshDays?: number;
}

const DAY_MS = 86_400_000;

/** A query made ready for the search (see ScheduleOptimizer.plan). */
export interface SearchPlan {
  network: Network;
  origin: ResolvedPlace;
  destination: ResolvedPlace;
  spec: SearchSpec;
}

export class ScheduleOptimizer implements RouteOptimizer {
  private net: Network;
  private builtAt: number;

  constructor(private readonly o: OptimizerOptions) {
    this.net = o.network;
    this.builtAt = (o.now ? o.now() : new Date()).getTime();
  }

  get network(): Network {
    if (this.o.rebuild) {
      const now = this.o.now ? this.o.now() : new Date();
      if (now.getTime() - this.builtAt > (this.o.refreshDays ?? 7) * DAY_MS) {
        this.net = this.o.rebuild(now);
        this.builtAt = now.getTime();
      }
    }
    return this.net;
  }

  operators(): Operator[] {
    return this.network.operators.map((op) => ({ id: op.id, name: op.name, scac: op.scac }));
  }

  defaults(): QueryDefaults {
    const d = this.o.parameters.defaults;
    return {
      now: toMinutes(this.o.now ? this.o.now() : new Date()),
      departureWindowDays: d.departureWindowDays.value,
      searchHorizonDays: d.searchHorizonDays.value,
      maxFirstMileTruckingKm: d.maxFirstMileTruckingKm.value,
      maxLastMileTruckingKm: d.maxLastMileTruckingKm.value,
    };
  }

  search(raw: RawQuery, options: SearchOptions = {}): RouteSearchResult {
    const q = parseQuery(raw, this.defaults());
    return this.searchParsed(q, options);
  }

  searchParsed(q: ParsedQuery, options: SearchOptions = {}): RouteSearchResult {
    const plan = this.plan(q, options);
    if (!plan) return { results: [] };
    const net = plan.network;
    const journeys = searchJourneys(net, plan.spec);
    const { origin, destination } = plan;
    const results = journeys.map((j) => toRouteOption(net, j, origin, destination));
    return { results: sortOptions(results, q.sort) };
  }

  /**
   * What the search gets for a query: the resolved places and the search spec (access, egress,
   * windows, constraint masks); undefined when no route can exist (same place at both ends, an
   * excluded end, no stop in reach, a required LOCODE without a usable stop).
   */
  plan(q: ParsedQuery, options: SearchOptions = {}): SearchPlan | undefined {
    const net = this.network;
    const origin = this.o.resolvePlace(q.origin.value, "origin");
    const destination = this.o.resolvePlace(q.destination.value, "destination");
    // Same place at both ends: nothing to route (a loop back to the origin is no answer).
    if (
      (origin.locode !== undefined && origin.locode === destination.locode) ||
      (origin.lat === destination.lat && origin.lng === destination.lng)
    ) {
      return undefined;
    }
    const c = buildConstraints(net, q);
    const endpoints = [origin.locode, destination.locode].filter(
      (l): l is string => l !== undefined
    );
    if (endpoints.some((l) => c.excludedLocodes.has(l))) return undefined;

    const truckAllowed = q.modalities.has("TRUCK");
    const access = accessOptions(
      net,
      origin,
      { maxTruckKm: q.maxFirstMileTruckingKm, truckAllowed, stopUsable: c.stopUsable },
      this.o.geography
    );
    const egress = accessOptions(
      net,
      destination,
      { maxTruckKm: q.maxLastMileTruckingKm, truckAllowed, stopUsable: c.stopUsable },
      this.o.geography
    );
    if (!access.length || !egress.length) return undefined;

    let initialBits = 0;
    for (const l of endpoints) initialBits |= c.locodeBits.get(l) ?? 0;
    // A required LOCODE without a usable stop can never be on the route.
    const requiredStops = q.allRequiredLocodes
      .filter((l) => !endpoints.includes(l))
      .map((l) => ({
        bit: c.locodeBits.get(l) ?? 0,
        stops: net.stops.filter((s) => s.locode === l && c.stopUsable[s.index]).map((s) => s.index),
      }));
    if (requiredStops.some((r) => r.stops.length === 0)) return undefined;
    const spec: SearchSpec = {
      access,
      egress,
      minDeparture: q.minDeparture,
      maxDeparture: q.maxDeparture,
      maxArrival: q.maxArrival,
      maxTransfers: q.maxTransfers,
      maxGrams: q.maxEmission === Infinity ? Infinity : Math.floor(q.maxEmission * 1000),
      maxLeadMinutes: q.maxLeadMinutes,
      tripAllowed: c.tripAllowed,
      patternAllowed: c.patternAllowed,
      stopUsable: c.stopUsable,
      stopBits: c.stopBits,
      patternBits: c.patternBits,
      initialBits,
      fullBits: c.fullBits,
      directSeaOnly: q.directSeaOnly,
      requiredStops,
      deadline: options.deadline,
      cancelled: options.cancelled,
    };
    return { network: net, origin, destination, spec };
  }
}
