/** Pieces every API route shares: the guard, OpenAPI error responses, query normalisation. */
import { FastifyInstance, FastifyRequest } from "fastify";
import { incorrectValues } from "../../engine/errors";
import { INCLUDE_VALUES, IncludeValue } from "../schemas";
import { Caller } from "../plugins/auth";
import { PROBLEM_MEANING, ProblemTitle, STATUS_OF } from "../problem";
import { Credits } from "../plugins/credits";
import { ServiceConfig } from "../config";
import { RouteEngine } from "../../engine/route-engine";
import { OptimizerRunner } from "../workers/optimizer-runner";

export interface RouteDeps {
  engine: RouteEngine;
  optimizer?: OptimizerRunner;
  config: ServiceConfig;
  credits: Credits;
}

/** What the API route plugins are registered with; credits and the guard come from the root's plugins. */
export interface ApiPluginOptions {
  engine: RouteEngine;
  optimizer?: OptimizerRunner;
  config: ServiceConfig;
}

export function routeDeps(app: FastifyInstance, options: ApiPluginOptions): RouteDeps {
  return {
    engine: options.engine,
    optimizer: options.optimizer,
    config: options.config,
    credits: app.credits,
  };
}

export const SECURITY = [{ apiKey: [] as string[] }];

const AUTH_TITLES: ProblemTitle[] = [
  "No Key",
  "Invalid Key",
  "Inactive",
  "Too Many Requests",
  "System Error",
];

/** OpenAPI responses for the listed problems (plus the auth/limit ones every keyed route has). */
export function problemResponses(titles: ProblemTitle[]): Record<number, unknown> {
  const byStatus = new Map<number, ProblemTitle[]>();
  for (const t of [...titles, ...AUTH_TITLES]) {
    const s = STATUS_OF[t];
    const list = byStatus.get(s) ?? [];
    if (!list.includes(t)) list.push(t);
    byStatus.set(s, list);
  }
  const out: Record<number, unknown> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    out[status] = {
      description: list.map((t) => `${t}: ${PROBLEM_MEANING[t]}`).join(" | "),
      content: { "application/problem+json": { schema: { $ref: "Problem#" } } },
      ...(status === 429
        ? {
            headers: {
              "Retry-After": {
                description: "Whole seconds (≥ 1) to wait.",
                schema: { type: "integer", minimum: 1 },
              },
            },
          }
        : {}),
    };
  }
  return out;
}

export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new Error("route reached without its guard");
  return request.caller;
}

/** Case-insensitive enumerations: upper-case before ajv checks them. */
export function upperCase(query: Record<string, unknown>, names: readonly string[]): void {
  for (const n of names) {
    const v = query[n];
    if (typeof v === "string") query[n] = v.trim().toUpperCase();
    else if (Array.isArray(v))
      query[n] = v.map((x) => (typeof x === "string" ? x.trim().toUpperCase() : x));
  }
}

/** No include: one shared (read-only) set rather than a new one per request. */
const NOTHING_INCLUDED: ReadonlySet<IncludeValue> = new Set<IncludeValue>();

/** The include values /distance uses (method is the emissions detail). */
export const DISTANCE_INCLUDE: readonly IncludeValue[] = ["passages", "time", "eca"];
/** The include values /chain uses (its legs carry no passages or times). */
export const CHAIN_INCLUDE: readonly IncludeValue[] = ["method", "eca"];

/**
 * Parses the `include` extension (comma list); a value unknown, or one this endpoint does not use
 * (`allowed`), is a 400 naming it and the values allowed here.
 */
export function parseInclude(
  value: string | undefined,
  parameter = "include",
  allowed: readonly IncludeValue[] = INCLUDE_VALUES
): ReadonlySet<IncludeValue> {
  if (value === undefined) return NOTHING_INCLUDED;
  const out = new Set<IncludeValue>();
  for (const raw of value.split(",")) {
    const item = raw.trim().toLowerCase();
    if (item === "") continue;
    if (!(allowed as readonly string[]).includes(item)) {
      const known = (INCLUDE_VALUES as readonly string[]).includes(item);
      throw incorrectValues(
        parameter,
        `${parameter}: "${raw.trim().slice(0, 40)}" is ${known ? "not used by this endpoint" : "not allowed"}; allowed values (comma-separated): ${allowed.join(", ")}.`
      );
    }
    out.add(item as IncludeValue);
  }
  return out;
}
