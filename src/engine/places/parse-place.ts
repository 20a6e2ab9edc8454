/**
 * The service's reading of a place: the shared grammar (place-grammar.ts) with its problems
 * turned into Incorrect Values naming the parameter. No lookups here.
 */
import { incorrectValues } from "../errors";
import { PlaceInput } from "../types";
import { placeProblem, readPlace } from "./place-grammar";

export { LOCODE_PATTERN, PLACE_FORMS, isUuid, normaliseLocode } from "./place-grammar";

/** Classifies `value` or throws Incorrect Values naming `parameter` and the allowed forms. */
export function parsePlaceInput(value: string, parameter: string): PlaceInput {
  const reading = readPlace(value);
  switch (reading.kind) {
    case "LOCODE":
    case "TERMINAL":
    case "GEO":
      return reading;
    default:
      throw incorrectValues(parameter, placeProblem(reading, parameter, value));
  }
}
