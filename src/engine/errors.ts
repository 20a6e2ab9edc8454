/**
 * Domain errors: the engine says what went wrong, never how a transport reports it. The service
 * maps each kind to its HTTP catalogue (src/service/problem.ts); the lanes CLI to its own labels.
 */
export type ErrorKind =
  /** Malformed or out-of-range input; `parameter` names it and the detail the allowed values. */
  | "bad-value"
  /** Well-formed input that names nothing the engine knows (LOCODE, terminal, vessel). */
  | "unknown-data"
  /** Valid places with no route between them for the modality. */
  | "no-route";

export const ERROR_KINDS: readonly ErrorKind[] = ["bad-value", "unknown-data", "no-route"];

export class RouteSheetsError extends Error {
  constructor(
    readonly kind: ErrorKind,
    /** Human-readable: names the parameter and, for bad input, the allowed values. */
    readonly detail: string,
    /** The query parameter at fault, when there is one. */
    readonly parameter?: string
  ) {
    super(detail);
    this.name = "RouteSheetsError";
  }
}

/** Malformed or out-of-range input. */
export function incorrectValues(parameter: string, detail: string): RouteSheetsError {
  return new RouteSheetsError("bad-value", detail, parameter);
}

/** Well-formed input that names nothing we know (LOCODE, terminal, vessel). */
export function unknownData(parameter: string, detail: string): RouteSheetsError {
  return new RouteSheetsError("unknown-data", detail, parameter);
}

/** Valid places with no route between them for the modality. */
export function routeNotFound(detail: string): RouteSheetsError {
  return new RouteSheetsError("no-route", detail);
}

export function isRouteSheetsError(e: unknown): e is RouteSheetsError {
  return e instanceof RouteSheetsError;
}
