/** The Redis token bucket against a real redis-server: shared by limiters, true Retry-After, fail modes. */
import { RedisRateLimiter } from "../../src/service/rate-limit/redis";
import { RedisServer, startRedis } from "../support/servers";

let redis: RedisServer;
const limiters: RedisRateLimiter[] = [];

function limiter(options: ConstructorParameters<typeof RedisRateLimiter>[1] = {}) {
  const l = new RedisRateLimiter(redis.url, options);
  limiters.push(l);
  return l;
}

beforeAll(async () => {
  redis = await startRedis();
});

afterAll(async () => {
  for (const l of limiters) await l.close();
  await redis?.stop();
});

test("two limiters (two instances) share one bucket: burst 10 allows 10 of 30 in total", async () => {
  const a = limiter();
  const b = limiter();
  await Promise.all([a.ready(), b.ready()]);
  const decisions = await Promise.all(
    Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).take("key_shared", 0.01, 10))
  );
  expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
  for (const d of decisions.filter((x) => !x.allowed)) {
    // 0.01 tokens/s: the next token is ~100 s away.
    expect(d.retryAfterSeconds).toBeGreaterThanOrEqual(99);
    expect(d.retryAfterSeconds).toBeLessThanOrEqual(100);
  }
});

test("Retry-After is the true wait in whole seconds, and buckets are per key", async () => {
  const l = limiter();
  await l.ready();
  expect(await l.take("key_slow", 0.25, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
  expect(await l.take("key_slow", 0.25, 1)).toEqual({ allowed: false, retryAfterSeconds: 4 });
  expect(await l.take("key_other", 0.25, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
});

test("tokens come back at the configured rate", async () => {
  const l = limiter();
  await l.ready();
  for (let i = 0; i < 2; i++) expect((await l.take("key_refill", 20, 2)).allowed).toBe(true);
  expect((await l.take("key_refill", 20, 2)).allowed).toBe(false);
  await new Promise((r) => setTimeout(r, 120)); // 20/s: two tokens after 100 ms
  expect((await l.take("key_refill", 20, 2)).allowed).toBe(true);
});

test("Redis unreachable: fail open allows, fail closed refuses with Retry-After 1; each logs once", async () => {
  const own = await startRedis();
  const logs: string[] = [];
  const logger = {
    warn: (_: object, m: string) => logs.push(`warn ${m}`),
    info: (_: object, m: string) => logs.push(`info ${m}`),
  };
  const open = new RedisRateLimiter(own.url, { failMode: "open", logger });
  const closed = new RedisRateLimiter(own.url, { failMode: "closed", logger });
  limiters.push(open, closed);
  await Promise.all([open.ready(), closed.ready()]);
  expect((await closed.take("k", 100, 100)).allowed).toBe(true);
  await own.stop();
  for (let i = 0; i < 5; i++) {
    expect(await open.take("k", 1, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await closed.take("k", 100, 100)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  }
  expect(logs.filter((l) => l.startsWith("warn"))).toEqual([
    expect.stringMatching(/unreachable: failing open/),
    expect.stringMatching(/unreachable: failing closed .*429/),
  ]);
});

test("an unreachable Redis at start: ready() rejects naming it, take() applies the fail mode", async () => {
  const l = limiter({ failMode: "closed" });
  const dead = new RedisRateLimiter("redis://:secret@127.0.0.1:1", { failMode: "closed" });
  limiters.push(dead);
  await expect(dead.ready(300)).rejects.toThrow(
    /Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1 did not answer/
  );
  expect(await dead.take("k", 1, 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  await l.ready();
});
