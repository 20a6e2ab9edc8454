/**
 * The in-memory token bucket on a virtual clock: the refill is exactly `ratePerSecond` (a refill
 * 10× too fast, or too slow, lets a different number of requests through), the bucket never holds
 * more than `burst`, and Retry-After is the true wait. Properties over random rates and bursts.
 */
import fc from "fast-check";
import { MemoryRateLimiter } from "../../src/service/rate-limit/memory";

function limiterAt(start = 0) {
  let now = start;
  const limiter = new MemoryRateLimiter(() => now);
  return {
    take: (rate: number, burst: number, id = "k") => limiter.takeNow(id, rate, burst),
    advance: (ms: number) => (now += ms),
  };
}

/**
 * Requests allowed over `seconds` after the bucket was emptied, taking every token each second.
 * The bucket (20 × rate) never caps a second's refill, even a 10× too fast one.
 */
function allowedOver(rate: number, seconds: number): number {
  const burst = 20 * rate;
  const l = limiterAt();
  while (l.take(rate, burst).allowed) {
    /* empty the bucket */
  }
  let allowed = 0;
  for (let t = 0; t < seconds; t++) {
    l.advance(1000);
    while (l.take(rate, burst).allowed) allowed++;
  }
  return allowed;
}

test("a full bucket lets exactly `burst` requests through at once, then refuses", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 500 }),
      fc.double({ min: 0.1, max: 1000, noNaN: true }),
      (burst, rate) => {
        const l = limiterAt();
        let allowed = 0;
        while (l.take(rate, burst).allowed) allowed++;
        expect(allowed).toBe(burst);
      }
    )
  );
});

test("after emptying, the refill lets through exactly rate × seconds requests: not 10× more, not fewer", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1, max: 60 }),
      (rate, seconds) => {
        expect(allowedOver(rate, seconds)).toBe(rate * seconds);
      }
    ),
    { numRuns: 60 }
  );
});

test("an idle bucket refills to `burst`, never beyond", () => {
  const l = limiterAt();
  for (let i = 0; i < 10; i++) l.take(5, 10);
  l.advance(3600_000);
  let allowed = 0;
  while (l.take(5, 10).allowed) allowed++;
  expect(allowed).toBe(10);
});

test("Retry-After is the whole seconds until the next token, and waiting that long is enough", () => {
  fc.assert(
    fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), (rate) => {
      const l = limiterAt();
      l.take(rate, 1);
      const refused = l.take(rate, 1);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBe(Math.max(1, Math.ceil(1 / rate)));
      l.advance(refused.retryAfterSeconds * 1000);
      expect(l.take(rate, 1).allowed).toBe(true);
    })
  );
});

test("buckets are per key", () => {
  const l = limiterAt();
  expect(l.take(1, 1, "a").allowed).toBe(true);
  expect(l.take(1, 1, "a").allowed).toBe(false);
  expect(l.take(1, 1, "b").allowed).toBe(true);
});
