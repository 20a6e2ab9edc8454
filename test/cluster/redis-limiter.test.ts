/** The Redis token bucket against a real redis-server: shared by limiters, true Retry-After, fail modes. */
import * as net from "node:net";
import { RedisRateLimiter } from "../../src/service/rate-limit/redis";
import { RedisServer, startRedis } from "../support/servers";

const ALLOWED = { allowed: true, retryAfterSeconds: 0 };
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
  // 2/s: a token comes back every 500 ms of Redis's clock. (At 20/s, a 50 ms stall of a busy
  // machine between the takes refilled one, and the third take was allowed: the test flaked.)
  for (let i = 0; i < 2; i++) expect((await l.take("key_refill", 2, 2)).allowed).toBe(true);
  const refused = await l.take("key_refill", 2, 2);
  expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
  await new Promise((r) => setTimeout(r, 600)); // one token after 500 ms
  expect((await l.take("key_refill", 2, 2)).allowed).toBe(true);
});

test("Redis unreachable: fail open allows, fail closed refuses with Retry-After 1; each logs once", async () => {
  const own = await startRedis();
  const logs: string[] = [];
  const logger = {
    warn: (_: object, m: string) => logs.push(`warn ${m}`),
    info: (_: object, m: string) => logs.push(`info ${m}`),
  };
  // No tokens taken ahead (localGrantMs 0): tokens granted before Redis stopped would rightly be
  // spent locally for up to 50 ms, and a machine that stops Redis faster than that would see them.
  const open = new RedisRateLimiter(own.url, { failMode: "open", logger, localGrantMs: 0 });
  const closed = new RedisRateLimiter(own.url, { failMode: "closed", logger, localGrantMs: 0 });
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

test("a hung Redis (SIGSTOPped: connections accepted, never answered): after 3 timeouts the breaker skips it, applying the fail mode; a probe after the cool-down closes it", async () => {
  const own = await startRedis();
  let clock = 0;
  const logs: string[] = [];
  const logger = {
    warn: (_: object, m: string) => logs.push(`warn ${m}`),
    info: (_: object, m: string) => logs.push(`info ${m}`),
  };
  const options = {
    // Long enough for a busy machine's Redis to answer the calls before SIGSTOP (at 100 ms a slow
    // answer counted as a timeout there, and the closed limiter refused: the test flaked).
    commandTimeoutMs: 1000,
    breakerThreshold: 3,
    breakerCooldownMs: 5000,
    now: () => clock,
    logger,
  };
  const open = new RedisRateLimiter(own.url, { ...options, failMode: "open" });
  const closed = new RedisRateLimiter(own.url, { ...options, failMode: "closed" });
  limiters.push(open, closed);
  try {
    await Promise.all([open.ready(), closed.ready()]);
    expect(await open.take("hung", 1, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
    expect(await closed.take("hung-closed", 1, 1)).toEqual({
      allowed: true,
      retryAfterSeconds: 0,
    });
    process.kill(own.pid, "SIGSTOP");
    // Three requests wait for the command timeout each, then the breaker opens.
    for (let i = 0; i < 3; i++) {
      clock += 1000;
      expect(await open.take(`hung-${i}`, 1, 1)).toEqual({ allowed: true, retryAfterSeconds: 0 });
      expect(await closed.take(`hung-${i}`, 1, 1)).toEqual({
        allowed: false,
        retryAfterSeconds: 1,
      });
    }
    expect([open.breakerState, closed.breakerState]).toEqual(["open", "open"]);
    expect([open.stats.redisCalls, closed.stats.redisCalls]).toEqual([4, 4]);
    // Open: 100 requests answered by the fail mode without asking Redis (no timeout to wait).
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        Promise.all([open.take(`key-${i}`, 1, 1), closed.take(`key-${i}`, 1, 1)])
      )
    );
    expect(answers.every(([o]) => o.allowed)).toBe(true);
    expect(answers.every(([, c]) => !c.allowed && c.retryAfterSeconds === 1)).toBe(true);
    expect([open.stats.redisCalls, closed.stats.redisCalls]).toEqual([4, 4]);
    expect([open.stats.skippedByBreaker, closed.stats.skippedByBreaker]).toEqual([100, 100]);
    // After the cool-down one request probes; Redis still hung: open again for another cool-down.
    clock += 5000;
    const probes = await Promise.all([open.take("p", 1, 1), open.take("q", 1, 1)]);
    expect(probes).toEqual([ALLOWED, ALLOWED]);
    expect(open.stats.redisCalls).toBe(5);
    expect(open.breakerState).toBe("open");
    await open.take("r", 1, 1);
    expect(open.stats.redisCalls).toBe(5);
    // Redis answers again: the next probe closes the breaker and the bucket is Redis's again.
    process.kill(own.pid, "SIGCONT");
    clock += 5000;
    expect(await open.take("back", 0.01, 1)).toEqual(ALLOWED);
    expect(open.breakerState).toBe("closed");
    expect(await open.take("back", 0.01, 1)).toEqual({ allowed: false, retryAfterSeconds: 100 });
    expect(open.stats.redisCalls).toBe(7);
    expect(logs.filter((l) => /unreachable/.test(l))).toHaveLength(2);
    expect(logs.filter((l) => /breaker open/.test(l))).toHaveLength(2);
    expect(logs.filter((l) => /breaker closed/.test(l))).toHaveLength(1);
  } finally {
    process.kill(own.pid, "SIGCONT");
    await own.stop();
  }
}, 60_000);

test("a socket that accepts and never answers from the start: the fail mode at once, and Redis skipped after 3 failures", async () => {
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  const l = new RedisRateLimiter(`redis://127.0.0.1:${port}`, {
    failMode: "closed",
    commandTimeoutMs: 100,
  });
  limiters.push(l);
  try {
    await expect(l.ready(300)).rejects.toThrow(/did not answer within 300 ms/);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await l.take("k", 100, 100));
    expect(answers).toEqual(Array(20).fill({ allowed: false, retryAfterSeconds: 1 }));
    expect(l.stats).toEqual({
      redisCalls: 3,
      skippedByBreaker: 17,
      breakerOpened: 1,
      waited: 3,
    });
    expect(sockets.length).toBeGreaterThanOrEqual(1);
  } finally {
    await l.close();
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  }
});

test("a busy key takes tokens ahead (one round trip for many requests) and never more than its bucket holds across instances", async () => {
  // Round trips: the instances' clocks move 0.5 ms per request, so the tokens taken ahead last
  // their 50 ms for 100 requests however slowly a busy machine runs this loop (on the wall clock a
  // slow run let them lapse unspent and the round trips grew past a tenth: the test flaked). The
  // 600 requests stay within the burst: each round trip brings 50 tokens (what 50 ms earn).
  let clock = 0;
  const a = limiter({ now: () => clock });
  const b = limiter({ now: () => clock });
  await Promise.all([a.ready(), b.ready()]);
  let allowed = 0;
  for (let i = 0; i < 600; i++) {
    if ((await (i % 2 ? a : b).take("key_busy", 1000, 1000)).allowed) allowed++;
    clock += 0.5;
  }
  expect(allowed).toBe(600);
  expect(a.stats.redisCalls + b.stats.redisCalls).toBeLessThan(allowed / 10);

  // The bound, on the real clock: 1,000/s with a burst of 400 allows the burst and never more than
  // the bucket earned meanwhile on top of it, whatever was taken ahead by either instance.
  const [c, d] = [limiter(), limiter()];
  await Promise.all([c.ready(), d.ready()]);
  const start = performance.now();
  let bounded = 0;
  for (let i = 0; i < 600; i++)
    if ((await (i % 2 ? c : d).take("key_busy_bounded", 1000, 400)).allowed) bounded++;
  const seconds = (performance.now() - start) / 1000;
  expect(bounded).toBeGreaterThanOrEqual(400);
  expect(bounded).toBeLessThanOrEqual(400 + Math.ceil(1000 * seconds) + 1);
});

test("a busy key's tokens are asked for ahead: after the first round trip its requests do not wait for Redis, and the bucket still bounds them", async () => {
  // The instance's clock moves 1 ms per round (the tokens' 50 ms never run out by a slow run).
  let clock = 0;
  const l = limiter({ now: () => clock });
  await l.ready();
  // 2,000/s with a burst of 2,000: 100 tokens at a time; 40 requests at once, as 40 connections.
  const decisions = [];
  for (let round = 0; round < 30; round++) {
    decisions.push(
      ...(await Promise.all(Array.from({ length: 40 }, () => l.take("key_ahead", 2000, 2000))))
    );
    // Between two rounds (a group commit's time) the tokens asked ahead arrive.
    await l.idle();
    clock += 1;
  }
  // 1,200 requests, 12 grants of 100 or more; only the first round's 40 waited for one.
  expect(decisions.filter((d) => d.allowed)).toHaveLength(1200);
  expect(l.stats.redisCalls).toBeGreaterThanOrEqual(12);
  expect(l.stats.redisCalls).toBeLessThanOrEqual(13);
  expect(l.stats.waited).toBe(40);
});

test("tokens asked ahead are still only what the shared bucket holds: two busy instances on a burst of 300 allow 300, then refuse", async () => {
  let clock = 0;
  const [a, b] = [limiter({ now: () => clock }), limiter({ now: () => clock })];
  await Promise.all([a.ready(), b.ready()]);
  // 0.001/s: nothing comes back during the test; 30 tokens at a time (a tenth of the burst).
  let allowed = 0;
  for (let round = 0; round < 20; round++) {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take("key_ahead_bounded", 0.001, 300))
    );
    allowed += answers.filter((d) => d.allowed).length;
    await Promise.all([a.idle(), b.idle()]);
    clock += 1;
  }
  expect(allowed).toBe(300);
});
