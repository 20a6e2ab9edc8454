/**
 * via=: force a route through named waypoints (a passage, a cape) or places (LOCODE, terminal,
 * "lat,lng"), composed from ordinary routes origin → via₁ → … → destination. The routers are not
 * touched: each piece is a normal (cached) route of the engine, so "Suez or Cape" are two calls
 * differing only in via=. The engine hands in what this needs (its waypoints, a place resolver, a
 * leg function with the query's modality, vessel and avoid bound), not itself: no import cycle.
 */
import { incorrectValues } from "../errors";
import { passageKey, passageOf, splitVia } from "../passage-grammar";
import { DistanceResult, LatLng } from "../types";

/** Named sea waypoints (data/waypoints.json), upper-case names. */
export type Waypoints = Readonly<Record<string, LatLng>>;

const MAX_VIA = 5;

/** Resolves a place name for via= (throws when it is none). */
export type ViaResolver = (name: string) => LatLng;

/** One piece of a via route: the engine's (cached) route between two stops. */
export type ViaLeg = (from: LatLng, to: LatLng) => DistanceResult;

/** The via points of a query: waypoint names first, then any place `resolve` knows. */
export function parseVia(
  waypoints: Waypoints,
  resolve: ViaResolver,
  raw: string | undefined
): LatLng[] {
  const v = raw?.trim();
  if (!v) return [];
  // One grammar with avoid (passage-grammar.ts): pieces apart by ; | or commas.
  const names = splitVia(v);
  if (names.length > MAX_VIA)
    throw incorrectValues("via", `via holds at most ${MAX_VIA} waypoints, got ${names.length}.`);
  return names.map((name) => {
    // "Suez Canal", "Bab el Mandeb", "cape of good hope": passages and waypoints as avoid reads them.
    const key = passageOf(name) ?? passageKey(name);
    const w = waypoints[key];
    if (w) return { lat: w.lat, lng: w.lng };
    try {
      const p = resolve(name.trim());
      return { lat: p.lat, lng: p.lng };
    } catch {
      throw incorrectValues(
        "via",
        `via "${name.trim().slice(0, 40)}" is neither a waypoint nor a place; allowed values: ${Object.keys(waypoints).join(", ")}, a UN/LOCODE, a terminal UUID or "lat,lng" (separate several by ";").`
      );
    }
  });
}

/** The route through the via points: distances added, passages in order, paths joined. */
export function routeVia(
  leg: ViaLeg,
  origin: LatLng,
  destination: LatLng,
  via: readonly LatLng[]
): DistanceResult {
  const stops = [origin, ...via, destination];
  const pieces: DistanceResult[] = [];
  for (let i = 1; i < stops.length; i++) pieces.push(leg(stops[i - 1], stops[i]));
  const passages: DistanceResult["passages"] = [];
  for (const p of pieces) {
    for (const name of p.passages) if (passages[passages.length - 1] !== name) passages.push(name);
  }
  return {
    distance: pieces.reduce((t, p) => t + p.distance, 0),
    passages,
    get path(): LatLng[] {
      const out: LatLng[] = [];
      for (const p of pieces) out.push(...(out.length ? p.path.slice(1) : p.path));
      return out;
    },
  };
}
