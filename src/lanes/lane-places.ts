/**
 * A lane sheet's places read as the add-in reads them: the same grammar (client/place-input.ts:
 * codes, names, decimal commas, "busan" as a name), the same choice among a name's matches
 * (client/place-lookup.ts's pickMatch) and the same words for a problem. Only the look-up differs:
 * the engine's place index in process, where the add-in asks /places.
 */
import { isRouteSheetsError } from "../engine/errors";
import type { RouteEngine } from "../engine/route-engine";
import { pickMatch, PlaceProblem, unknownPlace } from "../client/place-lookup";
import { mayBeName, placeMessage, readPlaceInput } from "../client/place-input";
import type { PlaceMatch } from "../client/types";

/** A place argument the sheet's row cannot use; `message` fits a cell and names the argument. */
export class LaneInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "LaneInputError";
  }
}

/** `origin KRPUX is not a known UN/LOCODE` (the engine's detail for an unknown code or id). */
const UNKNOWN_CODE =
  /^(origin|destination|via) "?([^\s"]+)"? is not a known (UN\/LOCODE|terminal id)/;

/** How many matches a name's look-up weighs (as the add-in asks /places for). */
const LOOKUP_LIMIT = 5;

/** Resolves the places of a sheet, each distinct text looked up once. */
export class LanePlaces {
  private readonly names = new Map<string, string | PlaceProblem>();

  constructor(private readonly engine: RouteEngine) {}

  /**
   * The place text the engine takes ("NLRTM", "51.95,4.05", a terminal id) for what a cell holds;
   * LaneInputError naming `parameter` when it is none.
   */
  place(raw: string, parameter: string): string {
    const typed = raw.trim();
    const input = readPlaceInput(raw);
    switch (input.kind) {
      case "PLACE":
        // "busan", "genoa": looked up first (which finds "krpus" as KRPUS too); else the code.
        if (mayBeName(typed)) {
          const named = this.named(typed, typed);
          if (typeof named === "string") return named;
        }
        return input.place.value;
      case "EMPTY":
        throw new LaneInputError(
          placeMessage({ kind: "empty", typed, message: "is required" }, parameter)
        );
      case "INVALID":
        throw new LaneInputError(
          placeMessage({ kind: "invalid", typed, message: input.problem }, parameter)
        );
      case "NAME": {
        const known = this.named(typed, input.text);
        if (known instanceof PlaceProblem) throw new LaneInputError(placeMessage(known, parameter));
        return known;
      }
    }
  }

  /** The place a name stands for (pickMatch over the look-up), or the problem; once per text. */
  private named(typed: string, text: string): string | PlaceProblem {
    let known = this.names.get(typed);
    if (known === undefined) {
      try {
        known = pickMatch(typed, this.lookup(text)).value;
      } catch (error) {
        if (!(error instanceof PlaceProblem)) throw error;
        known = error;
      }
      this.names.set(typed, known);
    }
    return known;
  }

  /**
   * The engine's error for a code it does not know, as the functions word it:
   * `unknown place "KRPUX" — did you mean KRPUS (Busan)?`; undefined for any other error.
   */
  suggestion(error: unknown, typed: Record<string, string | undefined>): string | undefined {
    if (!isRouteSheetsError(error) || error.kind !== "unknown-data") return undefined;
    const m = UNKNOWN_CODE.exec(error.detail);
    const text = m ? typed[m[1]]?.trim() : undefined;
    if (!m || !text || readPlaceInput(text).kind !== "PLACE") return undefined;
    const code = text.toUpperCase();
    return placeMessage(unknownPlace(code, this.lookup(code)), m[1]);
  }

  private lookup(text: string): PlaceMatch[] {
    return this.engine.places(text, LOOKUP_LIMIT) as PlaceMatch[];
  }
}
