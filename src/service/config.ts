/** Service settings: costs, rate limits, CORS and logging, in one place so deployments can tune them. */
import { TInteger, TSchema, Type } from "@sinclair/typebox";
import { Value, ValueErrorType } from "@sinclair/typebox/value";

/**
 * Every billable operation of the service. Batch items are charged as the operation they name.
 * `path` (extension) costs what `/distance` costs by default: it answers the same distance.
 */
export type Operation =
  "terminals" | "distance" | "emissions" | "path" | "optimizerSearch" | "operators";

export type CostTable = Record<Operation, number>;

export interface RateLimitSetting {
  /** Tokens added per second (sustained requests/s). */
  perSecond: number;
  /** Bucket size (largest burst). */
  burst: number;
}

export interface OptimizerSettings {
  /** Wall-clock budget of one route search (ms); over it the search answers 400 with what to narrow. */
  budgetMs: number;
  /** Worker threads for searches; 0 = every core but one (at least one). */
  threads: number;
  /** Searches that may wait for a thread, per thread; past them 503 with Retry-After. */
  queuePerThread: number;
  /** Searches one key may have running or waiting at once (this instance); past them 429. */
  perKeySearches: number;
}

export interface TimeoutSettings {
  /** Whole request, headers and body, must arrive within this (ms). */
  requestMs: number;
  /** Headers must arrive within this (ms). */
  headersMs: number;
  /** Idle keep-alive connections are closed after this (ms). */
  keepAliveMs: number;
  /** Searches and requests still running at shutdown are abandoned after this (ms). */
  shutdownMs: number;
  /** HTTPS: a connection must complete its TLS handshake within this (ms), else it is closed. */
  tlsHandshakeMs: number;
}

export interface IdempotencySettings {
  /** Bytes of stored batch answers one API key may hold (24 h); past them answers are not stored. */
  maxBytesPerKey: number;
  /** Expired Idempotency-Key records are deleted this often (ms). */
  purgeEveryMs: number;
}

export interface ServiceConfig {
  /** Credits per successful call; 0 = free. */
  costs: CostTable;
  /** Token bucket per key unless the key has its own setting. */
  rateLimit: RateLimitSetting;
  /** Allowed CORS origins: `*` (any) or a list of exact origins. */
  corsOrigins: "*" | string[];
  /** Seconds a browser may cache a preflight answer (Access-Control-Max-Age). */
  corsMaxAgeSeconds: number;
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  logLevel: string;
  /** Log one line per request (Fastify's request logging); off for benchmarks. */
  logRequests: boolean;
  /** Prefix of problem `type` URIs; the service documents each type under this path. */
  problemTypeBase: string;
  /** Largest number of items in one POST /route-information/api/batch. */
  batchMaxItems: number;
  optimizer: OptimizerSettings;
  timeouts: TimeoutSettings;
  idempotency: IdempotencySettings;
  /** Most simultaneous connections; more are refused at accept time. */
  maxConnections: number;
  /**
   * Most simultaneous connections from one client address (an IPv6 /64 counts as one address);
   * more are closed at accept time. Behind a trusted proxy: requests in flight per forwarded
   * client address.
   */
  maxConnectionsPerIp: number;
  /**
   * Connections of maxConnections that only addresses with no open connection may take (default
   * an eighth of maxConnections): a few busy addresses cannot fill the server.
   */
  connectionsKeptForNewAddresses: number;
}

export const DEFAULT_COSTS: CostTable = {
  terminals: 0,
  distance: 1,
  emissions: 1,
  path: 1,
  optimizerSearch: 1,
  operators: 0,
};

export const DEFAULT_CONFIG: ServiceConfig = {
  costs: DEFAULT_COSTS,
  rateLimit: { perSecond: 50, burst: 100 },
  corsOrigins: "*",
  corsMaxAgeSeconds: 86_400,
  logLevel: "info",
  logRequests: true,
  problemTypeBase: "/problems/",
  batchMaxItems: 1000,
  optimizer: { budgetMs: 10_000, threads: 0, queuePerThread: 8, perKeySearches: 2 },
  timeouts: {
    requestMs: 30_000,
    headersMs: 10_000,
    keepAliveMs: 5_000,
    shutdownMs: 4_000,
    tlsHandshakeMs: 5_000,
  },
  idempotency: { maxBytesPerKey: 16 * 1024 * 1024, purgeEveryMs: 10 * 60_000 },
  maxConnections: 1024,
  maxConnectionsPerIp: 128,
  connectionsKeptForNewAddresses: 128,
};

/** Settings to change: any of them, the groups (optimizer, timeouts…) in part. */
export type ConfigOverrides = {
  [K in keyof ServiceConfig]?: ServiceConfig[K] extends string | string[]
    ? ServiceConfig[K]
    : ServiceConfig[K] extends object
      ? Partial<ServiceConfig[K]>
      : ServiceConfig[K];
};

export function makeConfig(overrides: ConfigOverrides = {}): ServiceConfig {
  const maxConnections = overrides.maxConnections ?? DEFAULT_CONFIG.maxConnections;
  return {
    ...DEFAULT_CONFIG,
    ...overrides,
    connectionsKeptForNewAddresses:
      overrides.connectionsKeptForNewAddresses ?? Math.floor(maxConnections / 8),
    costs: { ...DEFAULT_COSTS, ...overrides.costs },
    rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...overrides.rateLimit },
    optimizer: { ...DEFAULT_CONFIG.optimizer, ...overrides.optimizer },
    timeouts: { ...DEFAULT_CONFIG.timeouts, ...overrides.timeouts },
    idempotency: { ...DEFAULT_CONFIG.idempotency, ...overrides.idempotency },
  };
}

/** Node's timers hold at most 2^31 − 1 ms (about 24.8 days); longer ones fire at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const ms = (description: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_TIMER_MS, description: `${description} (ms)` });
const count = (description: string, maximum = Number.MAX_SAFE_INTEGER, minimum = 1) =>
  Type.Integer({ minimum, maximum, description });

/** The settings a configuration file (or a caller) may override, each with its allowed values. */
export const ConfigSchema = Type.Partial(
  Type.Object(
    {
      costs: Type.Partial(
        Type.Object(
          Object.fromEntries(
            Object.keys(DEFAULT_COSTS).map((op) => [op, count("credits per call", undefined, 0)])
          ) as Record<Operation, TInteger>,
          { additionalProperties: false }
        )
      ),
      rateLimit: Type.Partial(
        Type.Object(
          {
            perSecond: Type.Number({ exclusiveMinimum: 0, maximum: 1e9, description: "tokens/s" }),
            // A bucket smaller than one token never lets a request through.
            burst: Type.Number({ minimum: 1, maximum: 1e9, description: "bucket size" }),
          },
          { additionalProperties: false }
        )
      ),
      corsOrigins: Type.Union([Type.Literal("*"), Type.Array(Type.String({ minLength: 1 }))], {
        description: "origins whose pages may call the API (--cors-origin)",
      }),
      corsMaxAgeSeconds: count("seconds a browser may cache a preflight answer", 86_400 * 7, 0),
      logLevel: Type.Union(
        ["fatal", "error", "warn", "info", "debug", "trace", "silent"].map((l) => Type.Literal(l)),
        { description: "log level (--log-level)" }
      ),
      logRequests: Type.Boolean({ description: "one log line per request (--no-request-log)" }),
      problemTypeBase: Type.String({ minLength: 1, description: "prefix of problem type URIs" }),
      batchMaxItems: count("items in one batch", 100_000),
      optimizer: Type.Partial(
        Type.Object(
          {
            budgetMs: ms("search budget"),
            threads: count("threads (0 = every core but one)", 64, 0),
            queuePerThread: count("waiting searches per thread", 10_000, 0),
            perKeySearches: count("searches per key at once", 10_000),
          },
          { additionalProperties: false }
        )
      ),
      timeouts: Type.Partial(
        Type.Object(
          {
            requestMs: ms("request timeout"),
            headersMs: ms("headers timeout"),
            keepAliveMs: ms("keep-alive timeout"),
            shutdownMs: ms("shutdown grace"),
            tlsHandshakeMs: ms("TLS handshake timeout"),
          },
          { additionalProperties: false }
        )
      ),
      idempotency: Type.Partial(
        Type.Object(
          {
            maxBytesPerKey: count("bytes of batch answers one key may keep"),
            purgeEveryMs: ms("purge interval"),
          },
          { additionalProperties: false }
        )
      ),
      maxConnections: count("open connections in all", 1_000_000),
      maxConnectionsPerIp: count(
        "open connections per client address, an IPv6 /64 as one (behind --trust-proxy: requests in flight per forwarded address)",
        1_000_000
      ),
      connectionsKeptForNewAddresses: count(
        "connections only addresses with none open may take",
        1_000_000,
        0
      ),
    },
    { additionalProperties: false }
  )
);

/** What a schema allows, in words, for error messages. */
function allowed(schema: TSchema): string {
  if (Array.isArray(schema.anyOf))
    return `one of ${(schema.anyOf as TSchema[]).map((s) => (s.const !== undefined ? JSON.stringify(s.const) : s.type === "array" ? "a list of strings" : String(s.type))).join(", ")}`;
  if (schema.type === "object")
    return `an object with ${Object.keys(schema.properties ?? {}).join(", ")}`;
  const parts: string[] = [
    schema.type === "integer" ? "a whole number" : `a ${String(schema.type)}`,
  ];
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.exclusiveMinimum !== undefined) parts.push(`> ${schema.exclusiveMinimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.minLength !== undefined) parts.push(`of at least ${schema.minLength} character`);
  return parts.join(" ") + (schema.description ? ` (${schema.description})` : "");
}

/** Checks a (partial) configuration against ConfigSchema; the message names the setting. */
export function checkConfig(value: unknown, where = "config"): asserts value is ConfigOverrides {
  const error = Value.Errors(ConfigSchema, value).First();
  if (!error) return;
  const name = error.path.split("/").slice(1).join(".") || "(the whole file)";
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    const parent = error.path.split("/").slice(1, -1);
    let schema: TSchema = ConfigSchema;
    for (const seg of parent) schema = schema.properties[seg];
    throw new Error(
      `${where}: ${name} is not a setting; allowed: ${Object.keys(schema.properties).join(", ")}.`
    );
  }
  throw new Error(
    `${where}: ${name} must be ${allowed(error.schema)} (got ${JSON.stringify(error.value) ?? String(error.value)}).`
  );
}

/** Reads a JSON file of ServiceConfig overrides (e.g. {"costs": {"distance": 2}, "rateLimit": {"perSecond": 200, "burst": 400}}). */
export function readConfigFile(file: string): ConfigOverrides {
  const fs = require("node:fs") as typeof import("node:fs");
  const value: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
  checkConfig(value, file);
  return value;
}

/** What a setting's schema allows, briefly, for `serve --help`. */
function range(schema: TSchema): string {
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as TSchema[])
      .map((s) => (s.const !== undefined ? JSON.stringify(s.const) : "[strings]"))
      .join(" | ");
  if (schema.type === "boolean") return "true | false";
  if (schema.type === "string") return "text";
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? `>${schema.exclusiveMinimum}` : "");
  return `${schema.type === "integer" ? "integer" : "number"} ${low}–${schema.maximum ?? ""}`;
}

/**
 * Every setting a --config file may hold, one line each: its dotted name, what it is, the values
 * allowed and the default. Made from ConfigSchema, so the help cannot miss a setting.
 */
export function configSettingsHelp(): string[] {
  const lines: string[] = [];
  const visit = (schema: TSchema, defaults: unknown, prefix: string) => {
    for (const [name, child] of Object.entries(schema.properties as Record<string, TSchema>)) {
      const value = (defaults as Record<string, unknown> | undefined)?.[name];
      if (child.type === "object") {
        visit(child, value, `${prefix}${name}.`);
        continue;
      }
      const shown =
        name === "connectionsKeptForNewAddresses" ? "maxConnections / 8" : JSON.stringify(value);
      lines.push(
        `${prefix}${name}: ${child.description ? `${child.description}; ` : ""}${range(child)} [${shown}]`
      );
    }
  };
  visit(ConfigSchema, DEFAULT_CONFIG, "");
  return lines;
}
