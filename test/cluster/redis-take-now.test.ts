/**
 * The Redis limiter's `takeNow` (the guard's synchronous path) answers like `take`, against a real
 * redis-server: two limiters on separate buckets get the same random request sequences, one the
 * guard's way (`takeNow`, then `take` when it answers undefined) and one through `take` only; their
 * answers are the same, request by request. The local clock is frozen and the refill negligible
 * (0.001 token/s) so that the shared bucket decides alike for both.
 */
import fc from "fast-check";
import { RateLimitDecision } from "../../src/service/rate-limit/limiter";
import { RedisRateLimiter } from "../../src/service/rate-limit/redis";
import { RedisServer, startRedis } from "../support/servers";

let redis: RedisServer;
let sync: RedisRateLimiter;
let promise: RedisRateLimiter;
let dead: RedisRateLimiter;
let clock = 0;

beforeAll(async () => {
  redis = await startRedis();
  const options = { localGrantMs: 10_000_000, now: () => clock };
  sync = new RedisRateLimiter(redis.url, { ...options, keyPrefix: "sync:" });
  promise = new RedisRateLimiter(redis.url, { ...options, keyPrefix: "promise:" });
  await Promise.all([sync.ready(), promise.ready()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([sync, promise, dead].map((l) => l?.close()));
  await redis?.stop();
});

/** The guard's way: at once when the limiter can, else through the promise. */
async function guardTake(
  l: RedisRateLimiter,
  bucket: string,
  rate: number,
  burst: number,
  counts: { now: number }
): Promise<RateLimitDecision> {
  const now = l.takeNow(bucket, rate, burst);
  if (now) {
    counts.now++;
    return now;
  }
  return l.take(bucket, rate, burst);
}

const RATE = 0.001;

test("property: takeNow (else take) answers every request like take alone", async () => {
  let run = 0;
  const counts = { now: 0 };
  let refusals = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 60 }),
      // Per request: whether the round trips under way are awaited before it (tokens asked
      // ahead arrived), and how many requests come at once.
      fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 4 })), {
        minLength: 1,
        maxLength: 40,
      }),
      async (burst, requests) => {
        const bucket = `k${run++}`;
        const started = Date.now();
        const allowed = [0, 0];
        for (const [settle, together] of requests) {
          if (settle) await Promise.all([sync.idle(), promise.idle()]);
          const s: Array<Promise<RateLimitDecision>> = [];
          const p: Array<Promise<RateLimitDecision>> = [];
          for (let i = 0; i < together; i++) {
            s.push(guardTake(sync, bucket, RATE, burst, counts));
            p.push(promise.take(bucket, RATE, burst));
          }
          const [got, want] = await Promise.all([Promise.all(s), Promise.all(p)]);
          // Which of the requests at once is refused may differ; how many may not.
          allowed[0] += got.filter((d) => d.allowed).length;
          allowed[1] += want.filter((d) => d.allowed).length;
          expect(allowed[0]).toBe(allowed[1]);
          // Retry-After: the true wait (1,000 s at 0.001/s, less the refill since the last take).
          const elapsed = (Date.now() - started) / 1000;
          for (const d of [...got, ...want].filter((x) => !x.allowed)) {
            refusals++;
            expect(d.retryAfterSeconds).toBeLessThanOrEqual(1000);
            expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(Math.floor(999 - elapsed));
          }
        }
        // Neither lets more than the burst through; given more requests, both exactly the burst.
        const total = requests.reduce((sum, [, n]) => sum + n, 0);
        expect(allowed[0]).toBe(Math.min(total, burst));
        await Promise.all([sync.idle(), promise.idle()]);
      }
    ),
    { numRuns: 40 }
  );
  expect(counts.now).toBeGreaterThan(100);
  expect(refusals).toBeGreaterThan(20);
}, 120_000);

test("takeNow answers undefined, taking nothing, while take would wait for Redis", async () => {
  // A fresh bucket: nothing local yet.
  const asked = sync.stats.redisCalls;
  expect(sync.takeNow("fresh", 1000, 200)).toBeUndefined();
  expect(sync.stats.redisCalls).toBe(asked);
  // The first take asks Redis for 20 (a tenth of the burst), one for itself.
  expect(await sync.take("fresh", 1000, 200)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  const calls = sync.stats.redisCalls;
  // Ten answered at once from the 19 left; the tenth asks for the next ones (under half left).
  for (let i = 0; i < 10; i++)
    expect(sync.takeNow("fresh", 1000, 200)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  await sync.idle();
  expect(sync.stats.redisCalls).toBe(calls + 1);
  // Refused and remembered: the same refusal at once, without asking Redis.
  expect(await sync.take("one", RATE, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  const refused = await sync.take("one", RATE, 1);
  expect(refused.allowed).toBe(false);
  const before = sync.stats.redisCalls;
  expect(sync.takeNow("one", RATE, 1)).toEqual(refused);
  expect(sync.stats.redisCalls).toBe(before);
});

test("an open breaker: takeNow answers the fail mode at once, as take does", async () => {
  let deadClock = 0;
  dead = new RedisRateLimiter("redis://127.0.0.1:1", {
    failMode: "closed",
    breakerThreshold: 1,
    breakerCooldownMs: 5000,
    now: () => deadClock,
  });
  // Not connected: the first take fails, which opens the breaker.
  expect(dead.takeNow("k", 1, 1)).toBeUndefined();
  expect(await dead.take("k", 1, 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  expect(dead.breakerState).toBe("open");
  expect(dead.takeNow("k", 1, 1)).toEqual(await dead.take("k", 1, 1));
  expect(dead.stats.skippedByBreaker).toBe(2);
  // The cool-down over: the next request probes Redis, so takeNow leaves it to take.
  deadClock += 5000;
  expect(dead.takeNow("k", 1, 1)).toBeUndefined();
  expect(dead.stats.skippedByBreaker).toBe(2);
});
