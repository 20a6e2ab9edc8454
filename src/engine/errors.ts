/**
 * Domain errors. Their titles are the "Type" column of the interface's error catalogue, so the
 * HTTP layer and the add-in can map them without string matching on messages.
 */
export type ProblemTitle =
  | "Incorrect Values"
  | "Type Required"
  | "No Key"
  | "Over Limit"
  | "Free Tier Not Allowed"
  | "Invalid Key"
  | "Inactive"
  | "Unknown Data"
  | "Not Found"
  | "Too Many Requests"
  | "System Error"
  | "Service Unavailable";

export const STATUS_OF: Record<ProblemTitle, number> = {
  "Incorrect Values": 400,
  "Type Required": 400,
  "No Key": 401,
  "Over Limit": 402,
  "Free Tier Not Allowed": 402,
  "Invalid Key": 403,
  Inactive: 403,
  "Unknown Data": 404,
  "Not Found": 404,
  "Too Many Requests": 429,
  "System Error": 500,
  "Service Unavailable": 503,
};

export class RouteSheetsError extends Error {
  readonly status: number;
  constructor(
    readonly title: ProblemTitle,
    /** Human-readable: names the parameter and, for bad input, the allowed values. */
    readonly detail: string,
    /** The query parameter at fault, when there is one. */
    readonly parameter?: string
  ) {
    super(detail);
    this.name = "RouteSheetsError";
    this.status = STATUS_OF[title];
  }
}

/** Malformed or out-of-range input: 400 Incorrect Values. */
export function incorrectValues(parameter: string, detail: string): RouteSheetsError {
  return new RouteSheetsError("Incorrect Values", detail, parameter);
}

/** Well-formed input that names nothing we know (LOCODE, terminal, vessel): 404 Unknown Data. */
export function unknownData(parameter: string, detail: string): RouteSheetsError {
  return new RouteSheetsError("Unknown Data", detail, parameter);
}

/** Valid places with no route between them for the modality: 404 Not Found. */
export function routeNotFound(detail: string): RouteSheetsError {
  return new RouteSheetsError("Not Found", detail);
}

export function isRouteSheetsError(e: unknown): e is RouteSheetsError {
  return e instanceof RouteSheetsError;
}
