/**
 * First and last mile: how the origin reaches stops and stops reach the destination. A place that
 * is itself a stop (its LOCODE, or a terminal of it) needs no truck; otherwise, and in addition to
 * that, stops within the trucking limit are reached by road when TRUCK is allowed, measured with
 * the engine's TRUCK distance (great-circle distance first, as a cheap lower bound). A stop is
 * reached at the nearest of its LOCODE point and the terminals its services call at (all its
 * terminals when the calls name none): a port spread over several sites (Shanghai's Yangshan
 * island and Waigaoqiao, 90 km apart) is entered where the road is shortest.
 */
import { greatCircleMeters } from "../geo/geodesy";
import { LatLng, ResolvedPlace } from "../types";
import { Geography } from "./model";
import { Network, Stop } from "./network";
import { Access } from "./search/mc-csa";

export { greatCircleMeters };

/** Entries kept per network and geography before the cache starts afresh. */
const CACHE_ENTRIES = 4096;
/** Per network and geography: the entries of a place and trucking limit with every stop usable. */
const cache = new WeakMap<Network, WeakMap<Geography, Map<string, Access[]>>>();

/**
 * The ways between `place` and the network's stops. Routing the truck legs is most of a query's
 * time outside the search, and the same places come up again and again: the answer with every stop
 * usable is cached per network, geography, place and trucking limit, and the stops the query
 * excludes are filtered out of it (that gives the same entries, in the same order).
 */
export function accessOptions(
  net: Network,
  place: ResolvedPlace,
  options: { maxTruckKm: number; truckAllowed: boolean; stopUsable: Uint8Array },
  geo: Geography
): Access[] {
  let byGeo = cache.get(net);
  if (!byGeo) cache.set(net, (byGeo = new WeakMap()));
  let entries = byGeo.get(geo);
  if (!entries) byGeo.set(geo, (entries = new Map()));
  const key = [
    place.kind,
    place.locode ?? "",
    place.terminalId ?? "",
    place.name ?? "",
    place.lat,
    place.lng,
    options.maxTruckKm,
    options.truckAllowed,
  ].join("|");
  let all = entries.get(key);
  if (!all) {
    const usable = new Uint8Array(net.stops.length).fill(1);
    all = computeAccess(net, place, { ...options, stopUsable: usable }, geo);
    if (entries.size >= CACHE_ENTRIES) entries.clear();
    entries.set(key, all);
  }
  return all.filter((a) => options.stopUsable[a.stop]);
}

function computeAccess(
  net: Network,
  place: ResolvedPlace,
  options: { maxTruckKm: number; truckAllowed: boolean; stopUsable: Uint8Array },
  geo: Geography
): Access[] {
  const out: Access[] = [];
  const own =
    place.locode !== undefined && place.kind !== "GEO"
      ? net.stopByLocode.get(place.locode)
      : undefined;
  if (own !== undefined && options.stopUsable[own])
    out.push({ stop: own, truck: false, meters: 0, minutes: 0, grams: 0 });
  if (!options.truckAllowed || options.maxTruckKm <= 0) return out;
  const limit = options.maxTruckKm * 1000;
  const called = calledTerminals(net);
  for (const s of net.stops) {
    if (s.index === own || !options.stopUsable[s.index]) continue;
    const meters = shortestTruckMeters(place, entryPoints(s, called.get(s.index), geo), limit, geo);
    if (meters === undefined) continue;
    out.push({
      stop: s.index,
      truck: true,
      meters,
      minutes: Math.max(1, Math.round((meters / 1000 / net.rules.truckKmh) * 60)),
      grams: Math.round(
        geo.emissionsKgPerTeu("TRUCK", meters, { from: place, to: { lat: s.lat, lng: s.lng } }) *
          1000
      ),
    });
  }
  return out;
}

/** The stop's LOCODE point and its terminals: those its services call at, when known. */
function entryPoints(stop: Stop, called: Set<string> | undefined, geo: Geography): LatLng[] {
  const terminals = geo.terminalPoints?.(stop.locode) ?? [];
  const served = terminals.filter((t) => called?.has(t.id));
  return [{ lat: stop.lat, lng: stop.lng }, ...(served.length ? served : terminals)];
}

/** Per network, built once: a network is immutable once compiled. */
const calledByNetwork = new WeakMap<Network, Map<number, Set<string>>>();

/** Terminal ids that the network's services call at, per stop. */
function calledTerminals(net: Network): Map<number, Set<string>> {
  const cached = calledByNetwork.get(net);
  if (cached) return cached;
  const out = new Map<number, Set<string>>();
  for (const p of net.patterns)
    for (const c of p.calls) {
      if (!c.terminal) continue;
      const set = out.get(c.stop) ?? new Set<string>();
      set.add(c.terminal.id);
      out.set(c.stop, set);
    }
  calledByNetwork.set(net, out);
  return out;
}

/** Road metres to the nearest entry point within `limit`, or undefined when none is in reach. */
function shortestTruckMeters(
  place: LatLng,
  points: LatLng[],
  limit: number,
  geo: Geography
): number | undefined {
  let best: number | undefined;
  for (const p of points) {
    const bound = best === undefined ? limit : Math.min(limit, best);
    if (greatCircleMeters(place, p) > bound) continue;
    let meters: number;
    try {
      meters = Math.round(geo.distance(place, p, "TRUCK"));
    } catch {
      continue; // no road between them (another landmass)
    }
    if (meters <= limit && (best === undefined || meters < best)) best = meters;
  }
  return best;
}
