/** Service settings: costs, rate limits, CORS and logging, in one place so deployments can tune them. */

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
  /** Most simultaneous connections; more are refused at accept time. */
  maxConnections: number;
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
  optimizer: { budgetMs: 10_000, threads: 0 },
  timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 5_000, shutdownMs: 4_000 },
  maxConnections: 1024,
};

export function makeConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    ...DEFAULT_CONFIG,
    ...overrides,
    costs: { ...DEFAULT_COSTS, ...overrides.costs },
    rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...overrides.rateLimit },
    optimizer: { ...DEFAULT_CONFIG.optimizer, ...overrides.optimizer },
    timeouts: { ...DEFAULT_CONFIG.timeouts, ...overrides.timeouts },
  };
}

/** A positive, finite number (rate limits, budgets, timeouts); the message names the setting. */
export function checkPositive(name: string, value: unknown, integer = false): number {
  if (
    typeof value !== "number" ||
    !Number.isFinite(value) ||
    value <= 0 ||
    (integer && !Number.isInteger(value))
  )
    throw new Error(
      `${name} must be a ${integer ? "whole " : ""}number > 0 (got ${String(value)}).`
    );
  return value;
}

const NESTED: Record<string, readonly string[]> = {
  rateLimit: ["perSecond", "burst"],
  optimizer: ["budgetMs", "threads"],
  timeouts: ["requestMs", "headersMs", "keepAliveMs", "shutdownMs"],
};

/** Checks the numbers of a (partial) configuration: positive and finite where they must be. */
export function checkConfig(value: Partial<ServiceConfig>, where = "config"): void {
  for (const [group, keys] of Object.entries(NESTED)) {
    const g = (value as Record<string, unknown>)[group];
    if (g === undefined) continue;
    if (typeof g !== "object" || g === null || Array.isArray(g))
      throw new Error(`${where}: ${group} must be an object with ${keys.join(", ")}.`);
    for (const k of Object.keys(g)) {
      if (!keys.includes(k))
        throw new Error(`${where}: ${group}.${k} is not a setting; allowed: ${keys.join(", ")}.`);
      const v = (g as Record<string, unknown>)[k];
      if (group === "optimizer" && k === "threads") {
        if (!Number.isInteger(v) || (v as number) < 0 || (v as number) > 64)
          throw new Error(`${where}: optimizer.threads must be a whole number from 0 to 64.`);
      } else checkPositive(`${where}: ${group}.${k}`, v, group !== "rateLimit");
    }
  }
  if (value.maxConnections !== undefined)
    checkPositive(`${where}: maxConnections`, value.maxConnections, true);
  if (value.batchMaxItems !== undefined)
    checkPositive(`${where}: batchMaxItems`, value.batchMaxItems, true);
}

/** Reads a JSON file of ServiceConfig overrides (e.g. {"costs": {"distance": 2}, "rateLimit": {"perSecond": 200, "burst": 400}}). */
export function readConfigFile(file: string): Partial<ServiceConfig> {
  const fs = require("node:fs") as typeof import("node:fs");
  const value = JSON.parse(fs.readFileSync(file, "utf8")) as Partial<ServiceConfig>;
  const known = new Set(Object.keys(DEFAULT_CONFIG));
  const unknown = Object.keys(value).filter((k) => !known.has(k));
  if (unknown.length)
    throw new Error(
      `${file}: unknown settings ${unknown.join(", ")}; allowed: ${[...known].join(", ")}.`
    );
  if (value.costs) {
    for (const [op, cost] of Object.entries(value.costs)) {
      if (!(op in DEFAULT_COSTS))
        throw new Error(
          `${file}: costs.${op} is not an operation; allowed: ${Object.keys(DEFAULT_COSTS).join(", ")}.`
        );
      if (!Number.isSafeInteger(cost) || cost < 0)
        throw new Error(`${file}: costs.${op} must be an integer ≥ 0.`);
    }
  }
  checkConfig(value, file);
  return value;
}
