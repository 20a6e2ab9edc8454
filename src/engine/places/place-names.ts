/**
 * A place typed as a name ("Antwerpen", "Sao Paulo", "Portland") resolved through the place search
 * and the shared choice (name-choice.ts): the one place, or an error short enough for a cell
 * naming the candidates. For callers that take names as well as codes (`lanes`, the add-in's
 * service calls); codes, terminal ids and coordinates go through PlaceResolver as before.
 */
import { incorrectValues, unknownData } from "../errors";
import { ResolvedPlace } from "../types";
import { chooseByName } from "./name-choice";
import type { PlaceMatch } from "./place-search";

/** Results read to decide: enough to see a name's rivals. */
const CANDIDATES = 5;

export function resolvePlaceName(
  finder: { search(query: string, limit: number): PlaceMatch[] },
  typed: string,
  parameter: string
): ResolvedPlace {
  const choice = chooseByName(typed, finder.search(typed, CANDIDATES));
  if (choice.kind !== "one")
    throw choice.kind === "ambiguous"
      ? incorrectValues(parameter, choice.problem)
      : unknownData(parameter, choice.problem);
  const m = choice.match;
  const place: ResolvedPlace =
    m.kind === "terminal" && m.terminalId
      ? {
          kind: "TERMINAL",
          terminalId: m.terminalId,
          locode: m.locode,
          name: m.name,
          lat: m.lat,
          lng: m.lng,
        }
      : m.locode
        ? { kind: "LOCODE", locode: m.locode, name: m.name, lat: m.lat, lng: m.lng }
        : // A town without a code (data/places-towns.csv): its position, under its name.
          { kind: "GEO", name: m.name, lat: m.lat, lng: m.lng };
  if (m.subdivision) place.subdivision = m.subdivision;
  if (m.region) place.region = m.region;
  return place;
}
