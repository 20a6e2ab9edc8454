/** Resolves origin/destination input to coordinates (PlaceDirectory). */
import { unknownData } from "../errors";
import { PlaceDirectory } from "../route-engine";
import { greatCircleMeters } from "../geo/geodesy";
import { LatLng, Port, ResolvedPlace } from "../types";
import { parsePlaceInput, PLACE_FORMS } from "./parse-place";
import { PlaceDetails, PortRegistry } from "./port-registry";

/** What the resolver needs of the terminal registry. */
export interface TerminalLookup {
  byId(
    id: string
  ): { id: string; name: string; locode: string; lat: number; lng: number } | undefined;
}

/** What an answer says of a code besides its position (the population only ranks names). */
function facts(d: PlaceDetails): Partial<ResolvedPlace> {
  const out: Partial<ResolvedPlace> = {};
  if (d.functions) out.functions = d.functions;
  if (d.subdivision) out.subdivision = d.subdivision;
  if (d.region) out.region = d.region;
  if (d.position) out.position = d.position;
  return out;
}

/**
 * An error made without a stack trace: "known code, no position" is an answer about the data,
 * thrown for 7 % of the list's codes, and capturing the stack was most of its cost (bench:places:
 * the look-up p99 came from these codes).
 */
function withoutStack<E>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

export class PlaceResolver implements PlaceDirectory {
  /** Every placed code, sorted by latitude: built on the first nearest-code question only. */
  private byLatitude?: Port[];

  constructor(
    readonly ports: PortRegistry,
    readonly terminals: TerminalLookup
  ) {}

  nearestCode(p: LatLng, maxMeters: number): string | undefined {
    const list = (this.byLatitude ??= this.ports.all().sort((a, b) => a.lat - b.lat));
    // Only codes within maxMeters of latitude can be within maxMeters (1 degree >= 110.5 km).
    const band = maxMeters / 110_500;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid].lat < p.lat - band) lo = mid + 1;
      else hi = mid;
    }
    let best: string | undefined;
    let bestMeters = maxMeters;
    for (let i = lo; i < list.length && list[i].lat <= p.lat + band; i++) {
      const d = greatCircleMeters(p, list[i]);
      if (d <= bestMeters) [best, bestMeters] = [list[i].locode, d];
    }
    return best;
  }

  resolve(value: string, parameter: string): ResolvedPlace {
    const input = parsePlaceInput(value, parameter);
    switch (input.kind) {
      case "GEO":
        return { kind: "GEO", lat: input.lat, lng: input.lng };
      case "LOCODE": {
        const { port, known, details } = this.ports.lookup(input.locode);
        if (port)
          return {
            kind: "LOCODE",
            locode: port.locode,
            name: port.name,
            lat: port.lat,
            lng: port.lng,
            ...(details && facts(details)),
          };
        if (known) {
          // Short enough for a cell: the code, its name, and what to give instead.
          throw withoutStack(() =>
            unknownData(
              parameter,
              `${parameter} ${input.locode} (${known.name.slice(0, 40)}): known code, no position; give "lat,lng" instead.`
            )
          );
        }
        throw unknownData(
          parameter,
          `${parameter} ${input.locode} is not a known UN/LOCODE; ${PLACE_FORMS}.`
        );
      }
      case "TERMINAL": {
        const t = this.terminals.byId(input.id);
        if (!t)
          throw unknownData(
            parameter,
            `${parameter} ${input.id} is not a known terminal id; ${PLACE_FORMS}.`
          );
        return {
          kind: "TERMINAL",
          terminalId: t.id,
          locode: t.locode,
          name: t.name,
          lat: t.lat,
          lng: t.lng,
        };
      }
    }
  }
}
