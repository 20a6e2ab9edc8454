/**
 * RFC 9457 problem details with the titles of the interface's error catalogue: the catalogue
 * (title → status), the mapping of the engine's error kinds onto it, and the service's own error.
 */
import { ErrorKind, RouteSheetsError } from "../engine/errors";

/** The "Type" column of the interface's error catalogue (the client keeps the same list). */
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

/** What each engine error kind is in the catalogue. */
export const TITLE_OF_KIND: Record<ErrorKind, ProblemTitle> = {
  "bad-value": "Incorrect Values",
  "unknown-data": "Unknown Data",
  "no-route": "Not Found",
};

/**
 * An error the HTTP layer raises itself (auth, credits, limits, validation, store trouble), with
 * its catalogue title and any response headers (Retry-After).
 */
export class ServiceProblem extends Error {
  readonly status: number;
  constructor(
    readonly title: ProblemTitle,
    readonly detail: string,
    readonly parameter?: string,
    readonly headers: Record<string, string> = {}
  ) {
    super(detail);
    this.name = "ServiceProblem";
    this.status = STATUS_OF[title];
  }
}

export interface Problem {
  /** URI reference `<problemTypeBase><slug>`, e.g. `/problems/incorrect-values`. */
  type: string;
  title: ProblemTitle;
  status: number;
  detail: string;
  /** Only on 500s: `urn:request:<requestId>`. */
  instance?: string;
  /** Only on 500s: the id under which the failure is logged. */
  requestId?: string;
}

export const PROBLEM_TITLES = Object.keys(STATUS_OF) as ProblemTitle[];

export const PROBLEM_MEANING: Record<ProblemTitle, string> = {
  "Incorrect Values":
    "A query parameter or body field is missing, malformed or not one of the allowed values; detail names it and the allowed values.",
  "Type Required":
    "A batch item has no valid `type` (distance, emissions or terminals); nothing was computed or charged.",
  "No Key": "The x-api-key header is missing.",
  "Over Limit": "The credit pool of the account is exhausted; more credits must be added.",
  "Free Tier Not Allowed": "Free accounts may call terminals and distance only.",
  "Invalid Key": "The x-api-key is not known, or has no access to the route optimizer.",
  Inactive: "The account of the key is deactivated.",
  "Unknown Data": "A well-formed LOCODE, terminal id or vessel the service does not know.",
  "Not Found": "No route exists between the places for the modality, or the path does not exist.",
  "Too Many Requests":
    "The key exceeded its rate limit; wait Retry-After seconds, back off exponentially.",
  "System Error":
    "Server-side failure; the response carries the request id under which it is logged.",
  "Service Unavailable":
    "The service is busy (all search threads taken, database locked by another process) or shutting down; retry after Retry-After seconds.",
};

export function slugOf(title: ProblemTitle): string {
  return title.toLowerCase().replace(/\s+/g, "-");
}

export function titleOfSlug(slug: string): ProblemTitle | undefined {
  return PROBLEM_TITLES.find((t) => slugOf(t) === slug);
}

export function problem(base: string, title: ProblemTitle, detail: string): Problem {
  return { type: base + slugOf(title), title, status: STATUS_OF[title], detail };
}

/** The catalogue title of an engine error or a service problem. */
export function titleOf(e: RouteSheetsError | ServiceProblem): ProblemTitle {
  return e instanceof ServiceProblem ? e.title : TITLE_OF_KIND[e.kind];
}

export function problemOfError(base: string, e: RouteSheetsError | ServiceProblem): Problem {
  return problem(base, titleOf(e), e.detail);
}

/** A problem the HTTP layer throws for auth, credits, limits and its own validation. */
export function fail(title: ProblemTitle, detail: string, parameter?: string): ServiceProblem {
  return new ServiceProblem(title, detail, parameter);
}
