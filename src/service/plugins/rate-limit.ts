/** Token buckets per API key, in memory (one service process); refilled continuously. */
import { RateLimitSetting } from "../config";

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one token; returns 0 when allowed, else the whole seconds (≥ 1) until a token is back. */
  take(id: string, limit: RateLimitSetting): number {
    const now = this.now();
    let b = this.buckets.get(id);
    if (!b) {
      b = { tokens: limit.burst, at: now };
      this.buckets.set(id, b);
    } else {
      b.tokens = Math.min(limit.burst, b.tokens + ((now - b.at) / 1000) * limit.perSecond);
      b.at = now;
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / limit.perSecond));
  }
}
