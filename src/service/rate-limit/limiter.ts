/**
 * The rate limiter the service asks before any computing: a token bucket per API key. In memory
 * for one process (memory.ts); shared implementations (Redis) let several instances share limits.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole seconds until a token is available; >= 1 when refused, 0 when allowed. */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes one token from the bucket `bucket` (refill `ratePerSecond`, capacity `burst`). */
  take(bucket: string, ratePerSecond: number, burst: number): Promise<RateLimitDecision>;
  /**
   * Optional: `take` answered at once, for limiters that can (this process's memory always; Redis
   * while it holds tokens taken ahead or a refusal). undefined: the answer needs waiting for, and
   * nothing was taken: call `take`.
   */
  takeNow?(bucket: string, ratePerSecond: number, burst: number): RateLimitDecision | undefined;
  close(): Promise<void>;
}

/** Retry-After must be a finite whole number of seconds ≥ 1 whatever the arithmetic gave. */
export function wholeRetrySeconds(seconds: number): number {
  if (!Number.isFinite(seconds)) return 1;
  return Math.min(86_400, Math.max(1, Math.ceil(seconds)));
}
