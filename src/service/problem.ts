/** RFC 9457 problem details with the titles of the interface's error catalogue. */
import { ProblemTitle, RouteSheetsError, STATUS_OF } from "../engine/errors";

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

export function problemOfError(base: string, e: RouteSheetsError): Problem {
  return problem(base, e.title, e.detail);
}

/** A RouteSheetsError the HTTP layer throws for auth, credits and limits. */
export function fail(title: ProblemTitle, detail: string): RouteSheetsError {
  return new RouteSheetsError(title, detail);
}
