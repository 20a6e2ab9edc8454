/** Service settings: costs, rate limits, CORS and logging, in one place so deployments can tune them. */

/**
 * Every billable operation of the service. Batch items are charged as the operation they name.
 * `path` (extension) is free by default: it only draws what the distance call computed; credits
 * pay for figures.
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
}

export const DEFAULT_COSTS: CostTable = {
  terminals: 0,
  distance: 1,
  emissions: 1,
  path: 0,
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
};

export function makeConfig(overrides: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    ...DEFAULT_CONFIG,
    ...overrides,
    costs: { ...DEFAULT_COSTS, ...overrides.costs },
    rateLimit: { ...DEFAULT_CONFIG.rateLimit, ...overrides.rateLimit },
  };
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
      if (!Number.isInteger(cost) || cost < 0)
        throw new Error(`${file}: costs.${op} must be an integer ≥ 0.`);
    }
  }
  return value;
}
