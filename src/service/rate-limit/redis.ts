/**
 * Token buckets shared by every service instance, in Redis. One Lua script refills and takes
 * tokens atomically using the Redis server's clock (instances' clocks may differ), so N instances
 * together allow the key's rate, not N times it.
 *
 * A busy key does not cost a round trip per request: an instance takes a few tokens at once (what
 * the key earns in 50 ms, at most a tenth of its burst, at most 100) and spends them locally for
 * 50 ms. It asks for the next ones while it still has some (half spent, or their time three
 * quarters over), so a busy key's requests do not wait for Redis, not even one in a hundred. Tokens are only ever taken from the shared bucket, so together the instances never allow
 * more than the bucket holds; tokens left when the 50 ms are over are dropped (the key loses them,
 * it never gains). A slow key (under 20/s) takes one token per request, exactly as before. A
 * refusal is remembered locally until a token can exist again (no token appears sooner).
 *
 * When Redis does not answer, the limiter fails open (allow) or closed (refuse with Retry-After:
 * 1) as configured, logging each change of state once instead of once per request. A Redis that
 * accepts connections but never answers would cost every request the command timeout; after a few
 * failures in a row a circuit breaker stops asking it for a cool-down, applying the fail mode
 * without waiting, then lets one request probe it: an answer closes the breaker.
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
  /** Failures in a row (timeouts, errors) that open the circuit breaker (default 3). */
  breakerThreshold?: number;
  /** How long an open breaker skips Redis before one request probes it (default 5000 ms). */
  breakerCooldownMs?: number;
  /** How long tokens taken ahead are spent locally (default 50 ms; 0: one token per request). */
  localGrantMs?: number;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  logger?: RateLimitLogger;
}

export interface RateLimitLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * KEYS[1] bucket; ARGV rate (tokens/s), burst, tokens wanted. Stores tokens and the time of the
 * last refill (microseconds of the Redis clock); the key expires once the bucket would be full
 * again. Grants what the bucket holds up to the tokens wanted (whole tokens; none below one).
 * Returns {tokens granted, seconds until one token when none, as a string (Lua numbers become
 * integers)}.
 */
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
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
local granted = 0
local wait = 0
if tokens >= 1 then
  granted = math.min(want, math.floor(tokens))
  tokens = tokens - granted
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.6f', tokens), 'at', string.format('%.0f', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return {granted, string.format('%.6f', wait)}
`;

type RedisWithTake = Redis & {
  rsTakeTokens(key: string, rate: number, burst: number, want: number): Promise<[number, string]>;
};

/** Tokens an instance took ahead for one key, or its last refusal. */
interface LocalBucket {
  tokens: number;
  /** The local tokens are dropped at this time. */
  until: number;
  /** Refused by Redis: no token can exist before this time. */
  refusedUntil: number;
  /** A take from Redis under way for this key (the others wait for it instead of asking too). */
  fetching: Promise<void> | null;
}

const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true, retryAfterSeconds: 0 });
const MAX_LOCAL_BUCKETS = 100_000;
/** Tokens taken ahead at most: bounds what a key loses when its traffic stops. */
const MAX_GRANT = 100;

/** Closed: ask Redis. Open: skip it until `reopensAt`. Probing: one request is asking it. */
type BreakerState = "closed" | "open" | "probing";

export class RedisRateLimiter implements RateLimiter {
  private readonly redis: RedisWithTake;
  private readonly failMode: RedisFailMode;
  private readonly keyPrefix: string;
  private readonly breakerThreshold: number;
  private readonly breakerCooldownMs: number;
  private readonly localGrantMs: number;
  private readonly now: () => number;
  private readonly local = new Map<string, LocalBucket>();
  /** Round trips to Redis under way. */
  private readonly asking = new Set<Promise<void>>();
  private healthy = true;
  private breaker: BreakerState = "closed";
  private failuresInARow = 0;
  private reopensAt = 0;
  /**
   * Round trips to Redis, requests answered by the fail mode without asking, and requests that
   * waited for a round trip (their own or another request's) before their answer (tests, metrics).
   */
  readonly stats = { redisCalls: 0, skippedByBreaker: 0, breakerOpened: 0, waited: 0 };
  logger: RateLimitLogger | undefined;

  constructor(
    readonly url: string,
    options: RedisRateLimiterOptions = {}
  ) {
    this.failMode = options.failMode ?? "open";
    this.keyPrefix = options.keyPrefix ?? "route-sheets:rl:";
    this.breakerThreshold = Math.max(1, options.breakerThreshold ?? 3);
    this.breakerCooldownMs = Math.max(0, options.breakerCooldownMs ?? 5000);
    this.localGrantMs = Math.max(0, options.localGrantMs ?? 50);
    this.now = options.now ?? (() => performance.now());
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
    this.redis.defineCommand("rsTakeTokens", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    // ioredis emits an error per failed reconnect: the state change is logged in take().
    this.redis.on("error", () => undefined);
    this.redis.on("ready", () => this.succeeded());
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

  /** Resolves when no round trip to Redis is under way (tokens asked ahead have arrived). */
  async idle(): Promise<void> {
    while (this.asking.size > 0) await Promise.all(this.asking);
  }

  /** The breaker's state: "open" while Redis is skipped. */
  get breakerState(): BreakerState {
    return this.breaker;
  }

  async take(bucket: string, ratePerSecond: number, burst: number): Promise<RateLimitDecision> {
    // Waiting for another request's take from Redis, then looking again: a few rounds at most.
    for (let round = 0; ; round++) {
      const now = this.now();
      const b = this.local.get(bucket);
      if (b) {
        const local = this.fromLocal(bucket, b, ratePerSecond, burst, now);
        if (local) return local;
        if (b.fetching && round < 3) {
          this.stats.waited++;
          await b.fetching;
          continue;
        }
      }
      return this.takeFromRedis(bucket, ratePerSecond, burst, now);
    }
  }

  /**
   * `take` answered at once when it would not wait: a token taken ahead (spent, and the next ones
   * asked for as `take` does), a refusal remembered, or the fail mode while the breaker skips
   * Redis. undefined, with nothing taken, whenever `take` would wait for Redis (its own round trip
   * or another request's): then call `take`.
   */
  takeNow(bucket: string, ratePerSecond: number, burst: number): RateLimitDecision | undefined {
    const now = this.now();
    const b = this.local.get(bucket);
    if (b) {
      const local = this.fromLocal(bucket, b, ratePerSecond, burst, now);
      if (local || b.fetching) return local;
    }
    // What takeFromRedis answers without asking (mayAskRedis false, with no side effect).
    if (this.breaker === "probing" || (this.breaker === "open" && now < this.reopensAt)) {
      this.stats.skippedByBreaker++;
      return this.failDecision();
    }
    return undefined;
  }

  /** A token taken ahead (spent) or the refusal remembered; undefined when neither holds. */
  private fromLocal(
    bucket: string,
    b: LocalBucket,
    ratePerSecond: number,
    burst: number,
    now: number
  ): RateLimitDecision | undefined {
    if (b.tokens >= 1 && now < b.until) {
      b.tokens -= 1;
      this.refillAhead(bucket, b, ratePerSecond, burst, now);
      return ALLOWED;
    }
    if (now < b.refusedUntil)
      return {
        allowed: false,
        retryAfterSeconds: wholeRetrySeconds((b.refusedUntil - now) / 1000),
      };
    return undefined;
  }

  /**
   * A busy key's next tokens are asked for while it still has some: when half of the last grant
   * is spent, or its time is three quarters over. Without this, every request arriving while
   * the tokens are asked for would wait for Redis's answer (one round trip per grant for all of
   * them). A slow key (one token per request) never asks ahead.
   */
  private refillAhead(
    bucket: string,
    b: LocalBucket,
    ratePerSecond: number,
    burst: number,
    now: number
  ): void {
    if (b.fetching || this.breaker !== "closed") return;
    const want = this.grantSize(ratePerSecond, burst);
    if (want < 2) return;
    if (b.tokens >= want / 2 && now < b.until - this.localGrantMs / 4) return;
    void this.ask(bucket, b, ratePerSecond, burst, want, false);
  }

  private async takeFromRedis(
    bucket: string,
    ratePerSecond: number,
    burst: number,
    now: number
  ): Promise<RateLimitDecision> {
    if (!this.mayAskRedis(now)) {
      this.stats.skippedByBreaker++;
      return this.failDecision();
    }
    let b = this.local.get(bucket);
    if (!b) {
      if (this.local.size >= MAX_LOCAL_BUCKETS) this.local.clear();
      b = { tokens: 0, until: 0, refusedUntil: 0, fetching: null };
      this.local.set(bucket, b);
    }
    this.stats.waited++;
    return this.ask(bucket, b, ratePerSecond, burst, this.grantSize(ratePerSecond, burst), true);
  }

  /**
   * One round trip to the shared bucket for `want` tokens, kept in `local` for `localGrantMs`.
   * `forRequest`: one of them is the asking request's (its decision is returned); otherwise all
   * are kept for the next requests (asked ahead).
   */
  private async ask(
    bucket: string,
    local: LocalBucket,
    ratePerSecond: number,
    burst: number,
    want: number,
    forRequest: boolean
  ): Promise<RateLimitDecision> {
    let done!: () => void;
    const fetching = new Promise<void>((resolve) => (done = resolve));
    local.fetching = fetching;
    this.asking.add(fetching);
    try {
      this.stats.redisCalls++;
      const [granted, wait] = await this.redis.rsTakeTokens(
        this.keyPrefix + bucket,
        ratePerSecond,
        burst,
        want
      );
      this.succeeded();
      const at = this.now();
      if (granted >= 1) {
        // One for this request (when it asked); the rest for the next ones on this instance.
        local.tokens = (at < local.until ? local.tokens : 0) + granted - (forRequest ? 1 : 0);
        local.until = at + this.localGrantMs;
        local.refusedUntil = 0;
        return ALLOWED;
      }
      const seconds = Number(wait);
      local.refusedUntil = at + Math.max(0, seconds) * 1000;
      return { allowed: false, retryAfterSeconds: wholeRetrySeconds(seconds) };
    } catch (err) {
      this.failed(err as Error);
      return this.failDecision();
    } finally {
      if (local.fetching === fetching) local.fetching = null;
      this.asking.delete(fetching);
      done();
    }
  }

  /** Tokens to take ahead: what the key earns while local tokens last, capped. */
  private grantSize(ratePerSecond: number, burst: number): number {
    const ahead = Math.min((ratePerSecond * this.localGrantMs) / 1000, burst / 10, MAX_GRANT);
    return Math.max(1, Math.floor(ahead));
  }

  private failDecision(): RateLimitDecision {
    return this.failMode === "open" ? ALLOWED : { allowed: false, retryAfterSeconds: 1 };
  }

  /** Closed: yes. Open: no until the cool-down is over, then one request probes. */
  private mayAskRedis(now: number): boolean {
    if (this.breaker === "closed") return true;
    if (this.breaker === "open" && now >= this.reopensAt) {
      this.breaker = "probing";
      return true;
    }
    return false;
  }

  private succeeded(): void {
    this.failuresInARow = 0;
    if (this.breaker !== "closed") {
      this.breaker = "closed";
      this.logger?.info(
        { redis: redactRedisUrl(this.url) },
        "Redis rate limiter circuit breaker closed: asking Redis again"
      );
    }
    this.markHealthy();
  }

  private failed(err: Error): void {
    this.markUnhealthy(err);
    this.failuresInARow++;
    if (this.breaker === "probing" || this.failuresInARow >= this.breakerThreshold) {
      if (this.breaker !== "open") this.stats.breakerOpened++;
      // Info: the warning that Redis is unreachable was logged once already (markUnhealthy).
      if (this.breaker === "closed")
        this.logger?.info(
          { redis: redactRedisUrl(this.url), failures: this.failuresInARow },
          `Redis rate limiter circuit breaker open: Redis is skipped for ${this.breakerCooldownMs} ms at a time (failing ${this.failMode}) until a probe answers`
        );
      this.breaker = "open";
      this.reopensAt = this.now() + this.breakerCooldownMs;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
    this.local.clear();
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
