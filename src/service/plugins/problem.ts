/**
 * Every error leaves as application/problem+json with a catalogue title: domain errors from the
 * engine, auth/credit/limit errors, ajv validation errors, Fastify's own 4xx, unknown paths, and
 * unexpected failures (500, logged with the request id; never a stack trace in the body).
 */
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import { isRouteSheetsError } from "../../engine/errors";
import { Problem, problem, ProblemTitle, ServiceProblem, TITLE_OF_KIND } from "../problem";
import { AjvError, validationProblem } from "../validation";
import { SearchFailed } from "../workers/optimizer-runner";

/** A service problem that also sets response headers (Retry-After). */
export class HttpProblem extends ServiceProblem {
  constructor(title: ProblemTitle, detail: string, headers: Record<string, string>) {
    super(title, detail, undefined, headers);
  }
}

export function sendProblem(reply: FastifyReply, p: Problem): FastifyReply {
  return reply.code(p.status).type("application/problem+json").send(JSON.stringify(p));
}

/** Longest part of a client's value a problem detail repeats (characters). */
export const MAX_ECHO = 64;

function shorten(v: string): string {
  const chars = Array.from(v);
  return chars.length > MAX_ECHO ? chars.slice(0, MAX_ECHO).join("") + "…" : v;
}

/** The strings among the values a client sent (query values, list items, body fields). */
function stringsOf(values: unknown[]): string[] {
  return values.flatMap((v) =>
    typeof v === "string" ? [v] : Array.isArray(v) ? v.filter((x) => typeof x === "string") : []
  );
}

/**
 * Details repeat the values they refuse: each value longer than MAX_ECHO characters is cut
 * there (as sent, trimmed or upper-cased), and so is any other quoted run, so an answer (and a
 * stored batch answer) never grows with what the client sent.
 */
export function capEchoes(detail: string, values: unknown[]): string {
  let out = detail;
  for (const v of stringsOf(values)) {
    for (const form of new Set([v, v.trim(), v.trim().toUpperCase()]))
      if (Array.from(form).length > MAX_ECHO && out.includes(form))
        out = out.split(form).join(shorten(form));
  }
  return out.replace(/"([^"]*)"/g, (whole, inner: string) =>
    Array.from(inner).length > MAX_ECHO ? `"${shorten(inner)}"` : whole
  );
}

/**
 * Maps any thrown value to the problem the client sees (and logs 500s). `echoed`: the values
 * the detail may repeat (default: the request's query values).
 */
export function problemFor(
  err: unknown,
  request: FastifyRequest,
  base: string,
  echoed?: unknown[]
): Problem {
  const p = uncappedProblem(err, request, base);
  const values = echoed ?? Object.values((request.query ?? {}) as Record<string, unknown>);
  return { ...p, detail: capEchoes(p.detail, values) };
}

function uncappedProblem(err: unknown, request: FastifyRequest, base: string): Problem {
  if (err instanceof ServiceProblem) return problem(base, err.title, err.detail);
  if (isRouteSheetsError(err)) return problem(base, TITLE_OF_KIND[err.kind], err.detail);
  if (err instanceof SearchFailed) return searchProblem(err, base);
  if (isBusyError(err))
    return problem(
      base,
      "Service Unavailable",
      "The account database is locked by another process (e.g. a CLI command); retry after Retry-After seconds."
    );
  const e = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (e && Array.isArray(e.validation)) {
    const ctx = e.validationContext;
    const schemas = request.routeOptions?.schema as Record<string, unknown> | undefined;
    const schema = ctx && schemas ? (schemas[ctx] as never) : undefined;
    const data = ctx === "body" ? request.body : ctx === "querystring" ? request.query : undefined;
    const v = validationProblem(e.validation, ctx, schema, data);
    return problem(base, v.title, v.detail);
  }
  const status = typeof e?.statusCode === "number" ? e.statusCode : 500;
  if (status === 404)
    return problem(
      base,
      "Not Found",
      `No resource at ${request.method} ${request.url.split("?")[0]}.`
    );
  if (status >= 400 && status < 500) {
    // Fastify's own client errors (bad JSON, wrong content type, body too large…): input problems.
    return problem(
      base,
      "Incorrect Values",
      `request body: ${safeMessage(e)}${status === 415 ? " Send Content-Type: application/json." : ""}`
    );
  }
  request.log.error({ err, reqId: request.id }, "request failed");
  return {
    ...problem(
      base,
      "System Error",
      `The server failed to answer this request; it is logged under request id ${request.id}.`
    ),
    instance: `urn:request:${request.id}`,
    requestId: String(request.id),
  };
}

function safeMessage(e: FastifyError): string {
  return (e.message || "is not acceptable").replace(/\s+/g, " ").slice(0, 200);
}

/** SQLITE_BUSY / SQLITE_LOCKED (or a store reporting the same): another process holds the lock. */
function isBusyError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/** Over budget: say what narrows a search; busy or shutting down: retry later. */
function searchProblem(err: SearchFailed, base: string): Problem {
  switch (err.failure.failure) {
    case "budget":
      return problem(
        base,
        "Incorrect Values",
        "The route search exceeded its time budget: narrow it with fewer allRequiredLocodes / allRequiredOperators, a shorter departure window (minDeparture, maxDeparture), maxTransfers, maxLeadTime or fewer modalities. Charged as a search: it held a search thread for its whole budget."
      );
    case "unavailable":
      return problem(base, "System Error", "The route optimizer is not loaded on this server.");
    default:
      return problem(
        base,
        "Service Unavailable",
        err.failure.failure === "busy"
          ? "All route-search threads are busy and their queue is full; retry after Retry-After seconds."
          : "The service is shutting down; retry after Retry-After seconds."
      );
  }
}

export function registerProblemHandlers(app: FastifyInstance, base: string): void {
  app.setErrorHandler((err, request, reply) => {
    const p = problemFor(err, request, base);
    if (err instanceof ServiceProblem) reply.headers(err.headers);
    if (p.status === 503) reply.header("retry-after", "1");
    return sendProblem(reply, p);
  });
  // Methods per path, for 405 with Allow (paths with parameters are few and answer 404).
  const methods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const list = Array.isArray(route.method) ? route.method : [route.method];
    const set = methods.get(route.url) ?? new Set<string>();
    for (const m of list) set.add(m);
    methods.set(route.url, set);
  });
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split("?")[0].replace(/\/+$/, "") || "/";
    const allowed = methods.get(pathname);
    if (allowed && !allowed.has(request.method)) {
      const allow = [...allowed]
        .filter((m) => m !== "OPTIONS")
        .sort()
        .join(", ");
      reply.header("allow", allow);
      return sendProblem(reply, {
        ...problem(
          base,
          "Not Found",
          `${request.method} is not allowed on ${pathname}; allowed methods: ${allow}.`
        ),
        status: 405,
      });
    }
    return sendProblem(
      reply,
      problem(
        base,
        "Not Found",
        `No resource at ${request.method} ${request.url.split("?")[0]}; see /openapi.json for the paths of this service.`
      )
    );
  });
}

/**
 * Problem handling for the whole service (error handler, 404/405 answers): on the root, so it
 * must be registered before any route (it records each route's methods for 405 Allow).
 */
export const problemPlugin = fp(
  async (app, options: { problemTypeBase: string }) =>
    registerProblemHandlers(app, options.problemTypeBase),
  { name: "route-sheets-problems", fastify: "5.x" }
);
