/**
 * Where ports are, for the route map. The interface has no place lookup, so the bundle carries the
 * service's own port points (data/ports-overlay.csv, compiled in by webpack's DefinePlugin as
 * `__ROUTE_SHEETS_PORTS__`); places learned at run time (e.g. typed `lat,lng` origins) can be added.
 */
import type { CoordinateLookup, LngLat } from "./map";

declare const __ROUTE_SHEETS_PORTS__: Record<string, LngLat> | undefined;

/** The table compiled into the bundle; empty outside webpack (unit tests pass their own). */
export function bundledPorts(): Record<string, LngLat> {
  return typeof __ROUTE_SHEETS_PORTS__ !== "undefined" ? __ROUTE_SHEETS_PORTS__ : {};
}

/** A lookup over a LOCODE table plus extra places. */
export function coordinateLookup(
  table: Record<string, LngLat>,
  extra: Map<string, LngLat> = new Map()
): CoordinateLookup {
  return (place) => extra.get(place) ?? table[place];
}
