/** Token buckets per key in this process's memory; refilled continuously. */
import { RateLimitDecision, RateLimiter, wholeRetrySeconds } from "./limiter";

interface Bucket {
  tokens: number;
  at: number;
}

/** The answer of every allowed take (read only): no object per request. */
const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true, retryAfterSeconds: 0 });

/** Buckets idle this long are full again and can be forgotten. */
const MAX_BUCKETS = 100_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  async take(bucket: string, ratePerSecond: number, burst: number): Promise<RateLimitDecision> {
    return this.takeNow(bucket, ratePerSecond, burst);
  }

  /** Synchronous form (the memory limiter never waits). */
  takeNow(id: string, ratePerSecond: number, burst: number): RateLimitDecision {
    const now = this.now();
    let b = this.buckets.get(id);
    if (!b) {
      if (this.buckets.size >= MAX_BUCKETS) this.buckets.clear();
      b = { tokens: burst, at: now };
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(burst, b.tokens + ((now - b.at) / 1000) * ratePerSecond);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return ALLOWED;
    }
    return { allowed: false, retryAfterSeconds: wholeRetrySeconds((1 - b.tokens) / ratePerSecond) };
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
