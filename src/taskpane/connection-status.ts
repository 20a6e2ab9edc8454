/**
 * "Test connection": a few free calls that say plainly what works — service reachable, key valid
 * (or why not), credits left, route-optimizer access and its credits — and the plain message of
 * any problem+json answer the pane shows.
 *
 * Every probe is free on our service: terminals and operators cost 0, and a distance or optimizer
 * call without parameters passes the key, access and credit checks (which come first) and is then
 * refused with 400 Incorrect Values, which is never charged. A 402 instead means no credits left.
 */
import { ApiError, isApiError } from "../client/errors";
import type {
  DistanceParams,
  OperatorRecord,
  RouteOptionsParams,
  TerminalRecord,
  TerminalsParams,
} from "../client/types";

/** The calls the check needs (RouteApiClient has them). */
export interface ConnectionProbe {
  terminals(params: TerminalsParams): Promise<TerminalRecord[]>;
  distance(params: DistanceParams): Promise<unknown>;
  operators(): Promise<OperatorRecord[]>;
  routeOptions(params: RouteOptionsParams): Promise<unknown>;
}

export type CheckId = "service" | "key" | "credits" | "optimizer" | "optimizerCredits";

export interface ConnectionCheck {
  id: CheckId;
  /** true = works, false = does not, null = could not be checked (an earlier check failed). */
  ok: boolean | null;
  message: string;
}

export interface ConnectionReport {
  /** Every check passed. */
  ok: boolean;
  checks: ConnectionCheck[];
  /** One line for the status area. */
  summary: string;
  /** Operators seen by the optimizer check (for the search form), empty without access. */
  operators: OperatorRecord[];
}

/** The plain message of a failure, by problem title and status (never the raw JSON). */
export function describeProblem(error: unknown): string {
  if (!isApiError(error)) return error instanceof Error ? error.message : String(error);
  const detail = error.detail ? ` ${sentence(error.detail)}` : "";
  switch (error.title) {
    case "Incorrect Values":
      return `Some values are not accepted.${detail}`;
    case "Type Required":
      return `The request is missing its type.${detail}`;
    case "No Key":
      return "No API key: enter your key under Connection and save it.";
    case "Invalid Key":
      return optimizerRefusal(error)
        ? `This API key has no route-optimizer access.${detail}`
        : "The API key is not valid: check it under Connection (copy it again from your account).";
    case "Inactive":
      return "The account of this API key is inactive: ask the service operator to reactivate it.";
    case "Over Limit":
      return `Out of credits.${detail}`;
    case "Free Tier Not Allowed":
      return `Not available on a free account.${detail}`;
    case "Unknown Data":
      return `Unknown place, terminal or operator.${detail}`;
    case "Not Found":
      return `Nothing found.${detail}`;
    case "Too Many Requests":
      return "Too many requests just now: wait a few seconds and try again.";
    case "System Error":
      return `The service failed on its side.${detail}`;
    case "Service Unavailable":
      return `The service cannot be reached.${detail}`;
    case "Timeout":
      return `The service did not answer in time.${detail}`;
    default:
      if (error.status >= 500)
        return `The service failed on its side (HTTP ${error.status}).${detail}`;
      return `${error.title}${error.status ? ` (HTTP ${error.status})` : ""}.${detail}`;
  }
}

/** A 403 that is about the optimizer, not the key itself (our service says so in the detail). */
export function optimizerRefusal(error: ApiError): boolean {
  return error.status === 403 && error.title !== "Inactive" && /optimi[sz]er/i.test(error.detail);
}

/** Runs the checks in order; later checks are skipped (ok null) when an earlier one rules them out. */
export async function checkConnection(
  probe: ConnectionProbe,
  baseUrl: string,
  apiKey: string,
  /** Why the service could not be reached (connection-diagnosis.ts), when the page can tell. */
  diagnose?: (baseUrl: string) => Promise<string>
): Promise<ConnectionReport> {
  const checks: ConnectionCheck[] = [];
  const add = (id: CheckId, ok: boolean | null, message: string) =>
    checks.push({ id, ok, message });
  const skipRest = (from: CheckId[], why: string) => from.forEach((id) => add(id, null, why));
  let operators: OperatorRecord[] = [];

  // 1. Reachable, and the key (terminals: free, open to free accounts).
  const first = await attempt(() => probe.terminals({ terminalLocode: "NLRTM" }));
  if (first.error && first.error.status === 0) {
    const why = diagnose ? await diagnose(baseUrl).catch(() => undefined) : undefined;
    add(
      "service",
      false,
      why ??
        `Cannot reach the service at ${baseUrl || "(no URL)"}: ${first.error.detail || first.error.title}.`
    );
    skipRest(
      ["key", "credits", "optimizer", "optimizerCredits"],
      "Not checked: the service is not reachable."
    );
    return report(checks, operators);
  }
  if (first.error && (first.error.status === 404 || first.error.status === 405)) {
    add(
      "service",
      false,
      `${baseUrl} answers, but not as a route service (HTTP ${first.error.status} for the terminal search): check the URL.`
    );
    skipRest(
      ["key", "credits", "optimizer", "optimizerCredits"],
      "Not checked: the URL is not a route service."
    );
    return report(checks, operators);
  }
  add("service", true, `Service reachable at ${baseUrl}.`);
  const keyProblem =
    first.error && [401, 403].includes(first.error.status) ? first.error : undefined;
  if (!apiKey.trim()) {
    add("key", false, "No API key entered: paste your key above.");
    skipRest(["credits", "optimizer", "optimizerCredits"], "Not checked: no API key.");
    return report(checks, operators);
  }
  if (keyProblem) {
    add("key", false, describeProblem(keyProblem));
    skipRest(["credits", "optimizer", "optimizerCredits"], "Not checked: the key is refused.");
    return report(checks, operators);
  }
  if (first.error && first.error.status !== 402)
    add("key", null, `Key not confirmed: ${describeProblem(first.error)}`);
  else add("key", true, "API key valid and account active.");

  // 2. Route-information credits: a distance call without parameters (400 = credits left, free).
  const credits = await attempt(() =>
    probe.distance({ origin: "", destination: "", modality: "" })
  );
  if (credits.error?.status === 402)
    add("credits", false, `Distance and emissions unavailable: ${describeProblem(credits.error)}`);
  else if (credits.error && credits.error.status !== 400)
    add("credits", null, `Credits not confirmed: ${describeProblem(credits.error)}`);
  else add("credits", true, "Credits available for distances and emissions.");

  // 3. Optimizer access (operators: free) and credits (a search without parameters: 400 = both fine, free).
  const [ops, search] = [
    await attempt(() => probe.operators()),
    await attempt(() => probe.routeOptions({} as RouteOptionsParams)),
  ];
  const refused = [ops.error, search.error].find(
    (e) => e && (e.status === 403 || e.title === "Free Tier Not Allowed")
  );
  if (refused) {
    const why =
      refused.title === "Free Tier Not Allowed"
        ? "the route optimizer is not available to free accounts"
        : "ask the service operator to grant route-optimizer access to this key";
    add(
      "optimizer",
      false,
      `No route-optimizer access: ${why}. Distances, emissions and terminals still work.`
    );
    skipRest(["optimizerCredits"], "Not checked: no route-optimizer access.");
    return report(checks, operators);
  }
  // The guard checks access before credits and parameters, so a 400 or a 402 from the search means access.
  const searchPassedGuard =
    search.error && (search.error.status === 400 || search.error.title === "Over Limit");
  if (!ops.error) {
    operators = ops.value ?? [];
    add("optimizer", true, `Route-optimizer access granted (${operators.length} operators).`);
  } else if (searchPassedGuard) {
    add(
      "optimizer",
      true,
      `Route-optimizer access granted, but the operator list failed: ${describeProblem(ops.error)}`
    );
  } else {
    add("optimizer", null, `Route-optimizer access not confirmed: ${describeProblem(ops.error)}`);
  }
  if (search.error?.status === 402)
    add("optimizerCredits", false, `Route options unavailable: ${describeProblem(search.error)}`);
  else if (search.error?.status === 400)
    add("optimizerCredits", true, "Credits available for route options.");
  else
    add(
      "optimizerCredits",
      null,
      `Route-optimizer credits not confirmed: ${search.error ? describeProblem(search.error) : "unexpected answer"}`
    );
  return report(checks, operators);
}

function report(checks: ConnectionCheck[], operators: OperatorRecord[]): ConnectionReport {
  const ok = checks.every((c) => c.ok === true);
  const firstProblem = checks.find((c) => c.ok === false) ?? checks.find((c) => c.ok === null);
  const summary = ok
    ? "Connected: everything works."
    : firstProblem
      ? firstProblem.message
      : "Not checked.";
  return { ok, checks, summary, operators };
}

async function attempt<T>(work: () => Promise<T>): Promise<{ value?: T; error?: ApiError }> {
  try {
    return { value: await work() };
  } catch (error) {
    if (isApiError(error)) return { error };
    return {
      error: new ApiError(
        0,
        "Service Unavailable",
        error instanceof Error ? error.message : String(error)
      ),
    };
  }
}

function sentence(text: string): string {
  const t = text.trim();
  if (!t) return "";
  const capital = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
