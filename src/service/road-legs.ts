/**
 * `--road-engine osrm=URL`: before a request runs, the TRUCK legs it names (a query's or a body's
 * origin/destination with modality TRUCK: distance, emissions, path, batch items, chain legs) are
 * fetched from OSRM, so the engine, synchronous and pure, finds them in OsrmRoadLegs. Places that
 * do not resolve are left to the route handler, which reports them.
 */
import type { FastifyInstance } from "fastify";
import type { RouteEngine } from "../engine/route-engine";
import type { LatLng } from "../engine/types";
import type { OsrmRoadLegs } from "../data/osrm";

/** Objects looked at per request (a batch's items, a chain's legs), and how deep. */
const MAX_LEGS = 1000;
const MAX_DEPTH = 4;

export function fetchRoadLegsFirst(
  app: FastifyInstance,
  engine: RouteEngine,
  legs: OsrmRoadLegs
): void {
  app.addHook("preHandler", async (request) => {
    const pairs: Array<[LatLng, LatLng]> = [];
    for (const leg of truckLegs([request.query, request.body])) {
      try {
        const a = engine.parts.places.resolve(leg.origin, "origin");
        const b = engine.parts.places.resolve(leg.destination, "destination");
        pairs.push([
          { lat: a.lat, lng: a.lng },
          { lat: b.lat, lng: b.lng },
        ]);
      } catch {
        // The handler reports the bad place.
      }
    }
    if (pairs.length) await legs.prefetch(pairs);
  });
}

/** Every {origin, destination, modality: TRUCK} in the values, at most MAX_LEGS. */
export function truckLegs(values: unknown[]): Array<{ origin: string; destination: string }> {
  const out: Array<{ origin: string; destination: string }> = [];
  const visit = (v: unknown, depth: number) => {
    if (out.length >= MAX_LEGS || depth > MAX_DEPTH || !v || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    if (
      typeof o.origin === "string" &&
      typeof o.destination === "string" &&
      typeof o.modality === "string" &&
      o.modality.trim().toUpperCase() === "TRUCK"
    )
      out.push({ origin: o.origin, destination: o.destination });
    for (const key of Object.keys(o)) if (typeof o[key] === "object") visit(o[key], depth + 1);
  };
  for (const v of values) visit(v, 0);
  return out;
}
