/** Resolves origin/destination input to coordinates (PlaceDirectory). */
import { unknownData } from "../errors";
import { PlaceDirectory } from "../route-engine";
import { ResolvedPlace } from "../types";
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

export class PlaceResolver implements PlaceDirectory {
  constructor(
    readonly ports: PortRegistry,
    readonly terminals: TerminalLookup
  ) {}

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
          throw unknownData(
            parameter,
            `${parameter} ${input.locode} (${known.name.slice(0, 40)}): known code, no position; give "lat,lng" instead.`
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
