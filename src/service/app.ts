/**
 * buildApp: the Fastify application of the route service. It receives its engine, optimizer and
 * store ready-made, so tests, the CLI and benchmarks can wire them however they like.
 */
import cors from "@fastify/cors";
import swagger from "@fastify/swagger";
import Fastify, { FastifyInstance, FastifyServerOptions, LogController } from "fastify";
import { parse as parseQuery } from "node:querystring";
import { randomUUID } from "node:crypto";
import { RouteOptimizer } from "../engine/optimizer/types";
import { InlineOptimizerRunner, OptimizerRunner } from "./workers/optimizer-runner";
import { RouteEngine } from "../engine/route-engine";
import { addinHost } from "./addin-host";
import type { AddinIdentityOptions } from "./addin-manifest";
import { ServiceConfig } from "./config";
import { openApiOptions } from "./openapi";
import { answerHeadersPlugin } from "./plugins/answers";
import { authPlugin } from "./plugins/auth";
import { creditsPlugin } from "./plugins/credits";
import { guardPlugin } from "./plugins/guard";
import { problemPlugin, sendProblem } from "./plugins/problem";
import { rateLimitPlugin } from "./plugins/rate-limit";
import { shutdownPlugin } from "./plugins/shutdown";
import { problem } from "./problem";
import { RateLimiter } from "./rate-limit/limiter";
import { accountApi, AccountInfo } from "./routes/account";
import { metaApi } from "./routes/meta";
import { PlaceResult, placesApi } from "./routes/places";
import { routeInformationApi } from "./routes/route-information";
import { chainApi } from "./routes/chain";
import { routeOptimizerApi } from "./routes/route-optimizer";
import { ProblemSchema, SHARED_SCHEMAS } from "./schemas";
import { redactKeys } from "./store/keys";
import { lazyRequestLogger } from "./request-logger";
import {
  acceptJsonBodies,
  guardHandshakes,
  purgeIdempotencyKeys,
  redactLogArguments,
} from "./limits";
import { Store } from "./store/store";
import { limitConnections, limitForwardedClients } from "./connection-caps";

export interface BuildAppOptions {
  engine: RouteEngine;
  optimizer?: RouteOptimizer;
  store: Store;
  config: ServiceConfig;
  /** Serve the built add-in from this directory (the `start` command). */
  addinDir?: string;
  /** The add-in manifest served at /manifest.xml (with the request's origin substituted). */
  manifestFile?: string;
  /** The add-in's public URL (--public-url): its manifest and help URLs start with it. */
  addinPublicUrl?: string;
  /** The add-in's Id, version and name per deployment (data directory, --addin-id, --addin-name). */
  addinIdentity?: AddinIdentityOptions;
  /** Where logs go (default stdout); the CLI uses stderr so stdout carries only its messages. */
  logStream?: NodeJS.WritableStream;
  /** Extra Fastify options (https…). */
  fastify?: FastifyServerOptions & { https?: unknown };
  /** Token buckets per key (default: in this process's memory). Closed with the app. */
  rateLimiter?: RateLimiter;
  /** Where route searches run (default: inline for a ready-made `optimizer`). Closed with the app. */
  optimizerRunner?: OptimizerRunner;
  /** Proxy addresses (CIDR) trusted for X-Forwarded-For and the request-id header; exempt from the per-IP cap. */
  trustProxy?: string[];
}

export const SERVICE_VERSION = "0.1.0";

/** Node's HTTP parser refused the request (bad request line, headers too large, timeout). */
function answerClientError(
  err: NodeJS.ErrnoException,
  socket: import("node:net").Socket,
  base: string
): void {
  if (!socket.writable || err.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  const status =
    err.code === "HPE_HEADER_OVERFLOW" ? 431 : err.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  const reason = {
    400: "Bad Request",
    408: "Request Timeout",
    431: "Request Header Fields Too Large",
  }[status];
  const body = JSON.stringify({
    type: `${base}incorrect-values`,
    title: "Incorrect Values",
    status,
    detail: `The HTTP request could not be parsed (${err.code ?? "malformed"}); send a well-formed HTTP/1.1 request.`,
  });
  // The headers every other answer carries (plugins/answers.ts): nosniff, and HSTS over HTTPS.
  const hsts = (socket as { encrypted?: boolean }).encrypted
    ? "Strict-Transport-Security: max-age=31536000\r\n"
    : "";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\n${hsts}Connection: close\r\n\r\n${body}`
  );
}

/** Keys that reach an object's prototype when code copies or indexes the query. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The query string parsed by Node, minus prototype keys (no query parameter has these names: they
 * are ignored). Node's result has no prototype, so it is used as it is unless one of them came.
 */
function parseQueryString(text: string): Record<string, unknown> {
  const parsed = parseQuery(text) as Record<string, unknown>;
  if (!(
    Object.hasOwn(parsed, "__proto__") ||
    Object.hasOwn(parsed, "constructor") ||
    Object.hasOwn(parsed, "prototype")
  ))
    return parsed;
  const query: Record<string, unknown> = {};
  for (const key of Object.keys(parsed)) if (!PROTOTYPE_KEYS.has(key)) query[key] = parsed[key];
  return query;
}

/** Node's own server limits: a slow client cannot hold a connection open for long. */
function serverLimits(config: ServiceConfig) {
  const t = config.timeouts;
  return {
    requestTimeout: t.requestMs,
    headersTimeout: Math.min(t.headersMs, t.requestMs),
    keepAliveTimeout: t.keepAliveMs,
    // Node checks the request/headers timeouts at this interval (30 s by default).
    connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(t.requestMs / 4))),
  };
}

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, store } = options;
  const limits = serverLimits(config);
  const https = options.fastify?.https;
  const app = Fastify({
    http: limits,
    requestTimeout: limits.requestTimeout,
    keepAliveTimeout: limits.keepAliveTimeout,
    logger: {
      level: config.logLevel,
      // Keys are secrets: never in logs, whatever serializer is configured.
      redact: ['req.headers["x-api-key"]', "req.headers.authorization", 'headers["x-api-key"]'],
      // Messages too (a key pasted into a header name or a path ends up in an error message).
      hooks: { logMethod: redactLogArguments },
      // A key pasted into a URL must not reach the logs either.
      serializers: {
        req: (req: { method: string; url: string; host?: string; ip?: string }) => ({
          method: req.method,
          url: redactKeys(req.url),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
    // Each request's logger is built when it first logs (most never do): see request-logger.ts.
    childLoggerFactory: lazyRequestLogger as never,
    genReqId: () => randomUUID(),
    // HEAD is answered as the GET without its body (same checks and cost: it is the same request).
    exposeHeadRoutes: true,
    clientErrorHandler: (err: NodeJS.ErrnoException, socket: import("node:net").Socket) =>
      answerClientError(err, socket, config.problemTypeBase),
    routerOptions: { ignoreTrailingSlash: true, querystringParser: parseQueryString },
    ajv: {
      customOptions: {
        coerceTypes: "array",
        allErrors: false,
        removeAdditional: false,
        keywords: ["x-extension"],
      },
    },
    // Malformed URLs (bad percent-encoding) are answered by Fastify before any route: make them problems too.
    frameworkErrors: (error, request, reply) =>
      sendProblem(
        reply,
        problem(
          config.problemTypeBase,
          "Incorrect Values",
          `The request URL is malformed (${error.message}); percent-encode query values.`
        )
      ),
    ...(options.trustProxy?.length ? { trustProxy: options.trustProxy } : {}),
    ...options.fastify,
    ...(https && typeof https === "object" ? { https: { ...https, ...limits } } : {}),
  } as FastifyServerOptions);
  app.server.maxConnections = config.maxConnections;
  limitConnections(app.server, config, options.trustProxy ?? [], () => app.log);
  limitForwardedClients(app, config, options.trustProxy ?? []);
  if (https) guardHandshakes(app.server, config.timeouts.tlsHandshakeMs);
  acceptJsonBodies(app);
  purgeIdempotencyKeys(app, store, config.idempotency.purgeEveryMs);

  for (const schema of [ProblemSchema, ...SHARED_SCHEMAS, AccountInfo, PlaceResult])
    app.addSchema(schema);
  const runner =
    options.optimizerRunner ??
    (options.optimizer ? new InlineOptimizerRunner(options.optimizer) : undefined);
  const api = { engine: options.engine, optimizer: runner, config };

  // Root-wide plugins first (fastify-plugin): problem handling must see every route.
  await app.register(problemPlugin, { problemTypeBase: config.problemTypeBase });
  await app.register(answerHeadersPlugin);
  await app.register(shutdownPlugin, { shutdownMs: config.timeouts.shutdownMs, runner });
  await app.register(cors, corsOptions(config));
  await app.register(swagger, openApiOptions(SERVICE_VERSION) as never);
  await app.register(authPlugin, { store });
  await app.register(creditsPlugin, { store, costs: config.costs });
  await app.register(rateLimitPlugin, {
    rateLimiter: options.rateLimiter,
    defaultRate: config.rateLimit,
  });
  await app.register(guardPlugin);

  // Routes, each an encapsulated plugin under its prefix.
  await app.register(accountApi);
  await app.register(metaApi, { optimizer: Boolean(runner), startedAt: Date.now() });
  await app.register(routeInformationApi, { ...api, store, prefix: "/route-information/api" });
  await app.register(chainApi, { ...api, store, prefix: "/route-information/api" });
  await app.register(routeOptimizerApi, { ...api, prefix: "/route-optimizer/api" });
  await app.register(placesApi, { engine: api.engine, prefix: "/route-information/api" });
  if (options.addinDir)
    await app.register(addinHost, {
      addinDir: options.addinDir,
      manifestFile: options.manifestFile,
      publicUrl: options.addinPublicUrl,
      identity: options.addinIdentity,
      store,
      problemTypeBase: config.problemTypeBase,
    });
  return app;
}

function corsOptions(config: ServiceConfig) {
  return {
    origin: config.corsOrigins === "*" ? "*" : config.corsOrigins,
    // Header values as written (lists would be joined again on every answer).
    methods: "GET, POST, OPTIONS",
    allowedHeaders: "x-api-key, content-type, idempotency-key",
    exposedHeaders: "retry-after, request-id, idempotent-replayed",
    maxAge: config.corsMaxAgeSeconds,
    // Preflight needs no key; an OPTIONS to an unknown path still gets a CORS answer.
    strictPreflight: false,
  };
}
