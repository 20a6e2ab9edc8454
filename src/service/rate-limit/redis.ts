/**
 * Token buckets shared by every service instance, in Redis. One Lua script refills and takes a
 * token atomically using the Redis server's clock (instances' clocks may differ), so N instances
 * together allow the key's rate, not N times it. When Redis does not answer, the limiter fails
 * open (allow) or closed (refuse with Retry-After: 1) as configured, logging each change of state
 * once instead of once per request.
 */
import Redis from "ioredis";
import { RateLimitDecision, RateLimiter, wholeRetrySeconds } from "./limiter";

export type RedisFailMode = "open" | "closed";
export const REDIS_FAIL_MODES: readonly RedisFailMode[] = ["open", "closed"];

export interface RedisRateLimiterOptions {
  /** What to answer while Redis is unreachable (default open: the credits still bound spending). */
  failMode?: RedisFailMode;
  /** Prefix of the bucket keys (default `route-sheets:rl:`). */
  keyPrefix?: string;
  /** A request waits at most this long for Redis before the fail mode applies (default 250 ms). */
  commandTimeoutMs?: number;
  logger?: RateLimitLogger;
}

export interface RateLimitLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * KEYS[1] bucket; ARGV rate (tokens/s), burst. Stores tokens and the time of the last refill
 * (microseconds of the Redis clock); the key expires once the bucket would be full again.
 * Returns {allowed (0|1), seconds until one token as a string (Lua numbers become integers)}.
 */
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
else
  tokens = math.min(burst, tokens + math.max(0, now - at) / 1000000 * rate)
end
local allowed = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {allowed, string.format('%.6f', wait)}
`;

type RedisWithTake = Redis & {
  rsTakeToken(key: string, rate: number, burst: number): Promise<[number, string]>;
};

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithTake;
  private readonly failMode: RedisFailMode;
  private readonly keyPrefix: string;
  private healthy = true;
  logger: RateLimitLogger | undefined;

  constructor(
    readonly url: string,
    options: RedisRateLimiterOptions = {}
  ) {
    this.failMode = options.failMode ?? "open";
    this.keyPrefix = options.keyPrefix ?? "route-sheets:rl:";
    this.logger = options.logger;
    this.redis = new Redis(url, {
      // Fail fast instead of queueing requests behind a dead connection; reconnect in the background.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 2000,
      // ioredis keeps a timer this long after disconnecting a socket that was already closed.
      disconnectTimeout: 100,
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
      lazyConnect: false,
    }) as RedisWithTake;
    this.redis.defineCommand("rsTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    // ioredis emits an error per failed reconnect: the state change is logged in take().
    this.redis.on("error", () => undefined);
    this.redis.on("ready", () => this.markHealthy());
  }

  /** Resolves when connected, or rejects after `timeoutMs` (startup check; the limiter still works). */
  async ready(timeoutMs = 5000): Promise<void> {
    if (this.redis.status === "ready") return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.redis.off("ready", onReady);
        reject(
          new Error(`Redis at ${redactRedisUrl(this.url)} did not answer within ${timeoutMs} ms`)
        );
      }, timeoutMs);
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      this.redis.once("ready", onReady);
    });
  }

  async take(bucket: string, ratePerSecond: number, burst: number): Promise<RateLimitDecision> {
    try {
      const [allowed, wait] = await this.redis.rsTakeToken(
        this.keyPrefix + bucket,
        ratePerSecond,
        burst
      );
      this.markHealthy();
      return allowed === 1
        ? { allowed: true, retryAfterSeconds: 0 }
        : { allowed: false, retryAfterSeconds: wholeRetrySeconds(Number(wait)) };
    } catch (err) {
      this.markUnhealthy(err as Error);
      return this.failMode === "open"
        ? { allowed: true, retryAfterSeconds: 0 }
        : { allowed: false, retryAfterSeconds: 1 };
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private markHealthy(): void {
    if (this.healthy) return;
    this.healthy = true;
    this.logger?.info({ redis: redactRedisUrl(this.url) }, "Redis rate limiter is answering again");
  }

  private markUnhealthy(err: Error): void {
    if (!this.healthy) return;
    this.healthy = false;
    this.logger?.warn(
      { redis: redactRedisUrl(this.url), err: err.message, failMode: this.failMode },
      `Redis rate limiter unreachable: failing ${this.failMode} (${this.failMode === "open" ? "calls are not rate-limited" : "calls answer 429 with Retry-After: 1"}) until it answers`
    );
  }
}

export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}
