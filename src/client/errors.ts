/**
 * Failures as the client reports them. HTTP problems keep the service's title and detail so the
 * add-in can map them without matching on messages; transport failures get status 0.
 */
/**
 * The titles of the service's error catalogue (problem+json `title`): part of the HTTP contract,
 * kept here so the client depends on the wire format only, not on the service's code.
 */
export const PROBLEM_TITLES = [
  "Incorrect Values",
  "Type Required",
  "No Key",
  "Over Limit",
  "Free Tier Not Allowed",
  "Invalid Key",
  "Inactive",
  "Unknown Data",
  "Not Found",
  "Too Many Requests",
  "System Error",
  "Service Unavailable",
] as const;

export type ProblemTitle = (typeof PROBLEM_TITLES)[number];

/** Transport failures have no HTTP status: the service could not be reached or did not answer in time. */
export type TransportTitle = "Service Unavailable" | "Timeout";

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when no answer arrived (network failure, timeout). */
    readonly status: number,
    readonly title: ProblemTitle | TransportTitle | string,
    readonly detail: string
  ) {
    super(detail ? `${title}: ${detail}` : title);
    this.name = "ApiError";
  }
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError;
}

/** Status codes whose answer depends on the account or the moment, not on the question. */
const ACCOUNT_OR_MOMENT = new Set([401, 402, 403, 408, 429]);

/**
 * Whether an error answer may be cached: 4xx answers about the question itself (400 Incorrect
 * Values, 404 Unknown Data / Not Found) are definitive. Key, credit and rate answers (401, 402,
 * 403, 429) change when the user fixes the key or buys credits, and 5xx/transport failures are
 * transient, so those are never cached.
 */
export function isDefinitiveError(e: ApiError): boolean {
  return e.status >= 400 && e.status < 500 && !ACCOUNT_OR_MOMENT.has(e.status);
}

/** Failures worth another attempt: rate limiting, server trouble, no answer. */
export function isTransient(status: number): boolean {
  return status === 0 || status === 408 || status === 429 || status >= 500;
}

interface ProblemBody {
  title?: unknown;
  detail?: unknown;
}

/** Builds the error of a non-2xx answer from its problem+json body (or whatever came back). */
export function errorFromProblem(status: number, body: unknown, statusText = ""): ApiError {
  const problem = (body && typeof body === "object" ? body : {}) as ProblemBody;
  const title =
    typeof problem.title === "string" && problem.title
      ? problem.title
      : statusText || `HTTP ${status}`;
  const detail =
    typeof problem.detail === "string"
      ? problem.detail
      : typeof body === "string"
        ? body.slice(0, 200)
        : "";
  return new ApiError(status, title, detail);
}

export function unavailable(detail: string): ApiError {
  return new ApiError(0, "Service Unavailable", detail);
}

export function timedOut(detail: string): ApiError {
  return new ApiError(0, "Timeout", detail);
}
