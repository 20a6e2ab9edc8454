/**
 * Turns failures into the errors Excel users expect:
 * - bad input → #VALUE! with the service's detail;
 * - no key, invalid key, inactive account, no optimizer access → #N/A "… open the Route Sheets pane";
 * - out of credits → #N/A "Out of credits";
 * - unknown place or no route → #N/A with the detail;
 * - service unreachable, too busy or too slow → #N/A "Service unavailable: <reason>".
 * Messages are cut to fit a cell (about 100 characters, see cellSized).
 */
import { ApiError, isApiError } from "../client/errors";
import { cellSized } from "../client/cell-message";

/** Input the add-in rejects before asking the service. */
export class InputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InputError";
  }
}

/** A lookup that worked but found nothing to show (no terminals, no operators, no route options). */
export class NoResultError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NoResultError";
  }
}

export const PANE_HINT = "open the Route Sheets pane";
export const SERVICE_UNAVAILABLE = "Service unavailable";

export type ExcelErrorKind = "invalidValue" | "notAvailable";

export interface ExcelErrorSpec {
  kind: ExcelErrorKind;
  message: string;
}

export interface FailureContext {
  /** The call went to the route optimizer, which needs access granted on the key. */
  optimizer?: boolean;
}

// One wording for cells on every surface (the lanes CLI's error column too): see cell-message.ts.
export { CELL_MESSAGE_LIMIT, cellSized, quoted } from "../client/cell-message";

/** What Excel should show for a failure (pure, so it is testable without the CustomFunctions global). */
export function describeFailure(error: unknown, context: FailureContext = {}): ExcelErrorSpec {
  const spec = fullFailure(error, context);
  return { ...spec, message: cellSized(spec.message) };
}

/** The failure with its whole message (for the pane and logs). */
export function fullFailure(error: unknown, context: FailureContext = {}): ExcelErrorSpec {
  if (error instanceof InputError) return { kind: "invalidValue", message: error.message };
  if (error instanceof NoResultError) return { kind: "notAvailable", message: error.message };
  if (!isApiError(error)) {
    return {
      kind: "notAvailable",
      message: error instanceof Error ? error.message : String(error),
    };
  }
  return describeApiError(error, context);
}

/** Why the service could not be asked, in a few words. */
function unavailableReason(error: ApiError): string {
  const detail = error.detail || "";
  if (error.title === "Timeout") return detail ? detail.replace(/^No/, "no") : "no answer in time";
  if (/No service URL/i.test(detail)) return "no service URL: open the Route Sheets pane";
  if (/^Unexpected answer/.test(detail)) return "unexpected answer, check the service URL";
  if (error.status >= 500) return `the service answered ${error.status}`;
  return "cannot reach the service";
}

function describeApiError(error: ApiError, context: FailureContext): ExcelErrorSpec {
  const detail = error.detail || error.title;
  switch (error.status) {
    case 400:
      return { kind: "invalidValue", message: detail };
    case 401:
      return { kind: "notAvailable", message: `No API key: ${PANE_HINT}` };
    case 402:
      if (error.title !== "Free Tier Not Allowed")
        return { kind: "notAvailable", message: "Out of credits" };
      return context.optimizer
        ? {
            kind: "notAvailable",
            message: `No route optimizer access on a free account: ${PANE_HINT}`,
          }
        : { kind: "notAvailable", message: `Not available on a free account: ${PANE_HINT}` };
    case 403:
      if (error.title === "Inactive")
        return { kind: "notAvailable", message: `Account inactive: ${PANE_HINT}` };
      // The optimizer answers 403 Invalid Key too when the key lacks optimizer access.
      return context.optimizer
        ? {
            kind: "notAvailable",
            message: `Invalid API key or no route optimizer access: ${PANE_HINT}`,
          }
        : { kind: "notAvailable", message: `Invalid API key: ${PANE_HINT}` };
    case 404:
      return { kind: "notAvailable", message: detail };
    case 429:
      return {
        kind: "notAvailable",
        message: `${SERVICE_UNAVAILABLE}: too many requests, recalculate later`,
      };
    default:
      if (error.status === 0 || error.status >= 500)
        return {
          kind: "notAvailable",
          message: `${SERVICE_UNAVAILABLE}: ${unavailableReason(error)}`,
        };
      return { kind: "notAvailable", message: detail };
  }
}

/** The CustomFunctions.Error to throw for a failure. */
export function toExcelError(error: unknown, context: FailureContext = {}): CustomFunctions.Error {
  const spec = describeFailure(error, context);
  const code =
    spec.kind === "invalidValue"
      ? CustomFunctions.ErrorCode.invalidValue
      : CustomFunctions.ErrorCode.notAvailable;
  return new CustomFunctions.Error(code, spec.message);
}
