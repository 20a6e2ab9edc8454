/**
 * First and last mile: how the origin reaches stops and stops reach the destination. A place that
 * is itself a stop (its LOCODE, or a terminal of it) needs no truck; otherwise, and in addition to
 * that, stops within the trucking limit are reached by road when TRUCK is allowed, measured with
 * the engine's TRUCK distance (great-circle distance first, as a cheap lower bound).
 */
import { greatCircleMeters } from "../geo/geodesy";
import { ResolvedPlace } from "../types";
import { Geography } from "./model";
import { Network } from "./network";
import { Access } from "./search/mc-csa";

export { greatCircleMeters };

export function accessOptions(
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
  for (const s of net.stops) {
    if (s.index === own || !options.stopUsable[s.index]) continue;
    if (greatCircleMeters(place, s) > limit) continue;
    let meters: number;
    try {
      meters = Math.round(geo.distance(place, s, "TRUCK"));
    } catch {
      continue; // no road between them (another landmass)
    }
    if (meters > limit) continue;
    out.push({
      stop: s.index,
      truck: true,
      meters,
      minutes: Math.max(1, Math.round((meters / 1000 / net.rules.truckKmh) * 60)),
      grams: Math.round(geo.emissionsKgPerTeu("TRUCK", meters) * 1000),
    });
  }
  return out;
}
