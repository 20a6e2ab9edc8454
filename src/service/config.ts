/** Service settings: costs, rate limits, CORS and logging, in one place so deployments can tune them. */

/** Every billable operation of the service. Batch items are charged as the operation they name. */
export type Operation = 'terminals' | 'distance' | 'emissions' | 'optimizerSearch' | 'operators';

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
  corsOrigins: '*' | string[];
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
  optimizerSearch: 1,
  operators: 0,
};

export const DEFAULT_CONFIG: ServiceConfig = {
  costs: DEFAULT_COSTS,
  rateLimit: { perSecond: 50, burst: 100 },
  corsOrigins: '*',
  corsMaxAgeSeconds: 86_400,
  logLevel: 'info',
  logRequests: true,
  problemTypeBase: '/problems/',
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
