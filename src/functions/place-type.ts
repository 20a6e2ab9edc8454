/**
 * The add-in's reading of a place: the service's own grammar (engine/places/place-grammar.ts, one
 * module for both), its problems turned into #VALUE! naming the parameter.
 */
import { placeProblem, PlaceForm, placeText, readPlace } from "../engine/places/place-grammar";
import { InputError } from "./excel-errors";

export type PlaceType = "LOCODE" | "TERMINAL" | "GEO";

export interface DetectedPlace {
  /** The value as it is sent: LOCODE upper-cased, uuid lower-cased, coordinates as numbers. */
  value: string;
  type: PlaceType;
}

function detected(place: PlaceForm): DetectedPlace {
  return { value: placeText(place), type: place.kind };
}

/** The detected place, or undefined when the text is none of the three forms. */
export function detectPlace(raw: unknown): DetectedPlace | undefined {
  const reading = readPlace(raw);
  return reading.kind === "LOCODE" || reading.kind === "TERMINAL" || reading.kind === "GEO"
    ? detected(reading)
    : undefined;
}

/** Like detectPlace, but a #VALUE! naming the parameter and the allowed forms when unrecognised. */
export function requirePlace(raw: unknown, parameter: string): DetectedPlace {
  const reading = readPlace(raw);
  if (reading.kind === "LOCODE" || reading.kind === "TERMINAL" || reading.kind === "GEO")
    return detected(reading);
  throw new InputError(placeProblem(reading, parameter, raw));
}
