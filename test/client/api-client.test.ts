import { RouteApiClient, RouteApiClientOptions, NotCachedError } from "../../src/client/api-client";
import { ApiError } from "../../src/client/errors";
import {
  fakeClient,
  fakeMetres,
  fakeService,
  FakeServiceOptions,
  problem,
  settingsOf,
} from "./fake-service";

function setup(
  service: FakeServiceOptions = { batch: true },
  options: Partial<RouteApiClientOptions> = {},
  key = "k1"
) {
  return fakeClient(service, { windowMs: 10, ...options }, key);
}

const lane = (i: number) => ({
  origin: `NL${String(i).padStart(3, "0")}`.slice(0, 5),
  destination: "CNSHA",
  modality: "DEEPSEA",
});
const lanes = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    origin: `P${i}`,
    destination: `Q${i % 7}`,
    modality: "DEEPSEA",
  }));

describe("RouteApiClient: single calls", () => {
  test("a lone distance call is a GET with the key header and the canonical query", async () => {
    const { client, requests } = setup();
    const answer = await client.distance({
      origin: "NLRTM",
      destination: "CNSHA",
      modality: "DEEPSEA",
    });
    expect(answer.distance).toBe(fakeMetres("NLRTM", "CNSHA", "DEEPSEA"));
    expect(requests).toHaveLength(1);
    expect(requests[0].method).toBe("GET");
    expect(requests[0].url.pathname).toBe("/route-information/api/distance");
    expect(requests[0].url.search).toBe("?destination=CNSHA&modality=DEEPSEA&origin=NLRTM");
    expect(requests[0].headers["x-api-key"]).toBe("k1");
  });

  test("empty optional parameters are not sent", async () => {
    const { client, requests } = setup();
    await client.emissions({
      origin: "NLRTM",
      destination: "CNSHA",
      modality: "DEEPSEA",
      vesselInfo: undefined,
      fuelType: "",
    });
    expect([...requests[0].url.searchParams.keys()].sort()).toEqual([
      "destination",
      "modality",
      "origin",
    ]);
  });

  test("terminals: a list, and [] for 204", async () => {
    const { client } = setup();
    expect((await client.terminals({ terminalLocode: "NLRTM" })).map((t) => t.name)).toEqual([
      "ECT Delta",
      "APM Maasvlakte II",
    ]);
    expect(await client.terminals({ terminalLocode: "BEANR" })).toEqual([]);
  });

  test("problem+json answers become ApiError with status, title and detail", async () => {
    const { client } = setup();
    const error = await client
      .distance({ origin: "XXXXX", destination: "CNSHA", modality: "DEEPSEA" })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      title: "Unknown Data",
      detail: 'origin "XXXXX" is not a known UN/LOCODE',
    });
  });

  test("route options send arrays as repeated keys", async () => {
    const { client, requests } = setup({
      handler: (path, q) => ({ status: 200, body: { results: [], echo: q.getAll("modalities") } }),
    });
    await client.routeOptions({
      origin: "NLRTM",
      originType: "LOCODE",
      destination: "DEDUI",
      destinationType: "LOCODE",
      modalities: ["BARGE", "RAIL"],
    });
    expect(requests[0].url.pathname).toBe("/route-optimizer/api/external");
    expect(requests[0].url.searchParams.getAll("modalities")).toEqual(["BARGE", "RAIL"]);
    expect(requests[0].url.searchParams.get("originType")).toBe("LOCODE");
  });
});

describe("RouteApiClient: batching and dedupe", () => {
  test("calls within the window go out as one batch, answers in order", async () => {
    const { client, requests } = setup();
    const qs = lanes(50);
    const answers = await Promise.all(qs.map((q) => client.distance(q)));
    expect(requests).toHaveLength(1);
    expect(requests[0].method).toBe("POST");
    expect(requests[0].url.pathname).toBe("/route-information/api/batch");
    const items = (requests[0].body as { requests: Array<Record<string, string>> }).requests;
    expect(items).toHaveLength(50);
    expect(items[3]).toEqual({
      type: "distance",
      origin: "P3",
      destination: "Q3",
      modality: "DEEPSEA",
    });
    answers.forEach((a, i) =>
      expect(a.distance).toBe(fakeMetres(qs[i].origin, qs[i].destination, "DEEPSEA"))
    );
  });

  test("a batch carries at most 1,000 calls", async () => {
    const { client, requests } = setup();
    await Promise.all(lanes(2500).map((q) => client.distance(q)));
    // The three batches go out at once: the fake service may record them in any order.
    const sizes = requests.map((r) => (r.body as { requests: unknown[] }).requests.length);
    expect(sizes.sort((a, b) => b - a)).toEqual([1000, 1000, 500]);
  });

  test("calls trickling in keep a window open, up to maxWaitMs", async () => {
    const { client, requests } = setup({ batch: true }, { windowMs: 20, maxWaitMs: 200 });
    const pending: Array<Promise<unknown>> = [];
    for (const q of lanes(8)) {
      pending.push(client.distance(q));
      await new Promise((r) => setTimeout(r, 8));
    }
    await Promise.all(pending);
    expect(requests).toHaveLength(1);

    const slow = setup({ batch: true }, { windowMs: 30, maxWaitMs: 60 });
    const later: Array<Promise<unknown>> = [];
    for (const q of lanes(12)) {
      later.push(slow.client.distance(q));
      await new Promise((r) => setTimeout(r, 15));
    }
    await Promise.all(later);
    // 12 calls over ~180 ms with windows capped at 60 ms: several batches, not one.
    expect(slow.requests.length).toBeGreaterThanOrEqual(2);
    expect(slow.requests.length).toBeLessThanOrEqual(6);
  });

  test("calls in different windows go in different requests", async () => {
    const { client, requests } = setup();
    await Promise.all(lanes(3).map((q) => client.distance(q)));
    await Promise.all(
      lanes(6)
        .slice(3)
        .map((q) => client.distance(q))
    );
    expect(requests).toHaveLength(2);
  });

  test("identical calls in flight are sent once", async () => {
    const { client, requests } = setup();
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.distance(lane(1))));
    expect(new Set(answers.map((a) => a.distance)).size).toBe(1);
    expect(requests).toHaveLength(1);
    expect(client.cacheStats()).toMatchObject({ deduped: 99, requestsSent: 1, requestsSaved: 99 });
  });

  test("mixed types share one batch; 10,000 calls over 2,000 lanes need 2 requests", async () => {
    const { client, requests } = setup();
    const qs = lanes(2000);
    const calls = Array.from({ length: 10_000 }, (_, i) => client.distance(qs[i % 2000]));
    const answers = await Promise.all(calls);
    expect(requests).toHaveLength(2);
    answers.forEach((a, i) =>
      expect(a.distance).toBe(fakeMetres(qs[i % 2000].origin, qs[i % 2000].destination))
    );
    await Promise.all(qs.map((q) => client.distance(q)));
    expect(requests).toHaveLength(2);
  });

  test("without the batch extension: falls back to GETs once and for all for that base URL", async () => {
    const { client, requests } = setup({ batch: false });
    const answers = await Promise.all(lanes(5).map((q) => client.distance(q)));
    expect(answers.map((a) => a.distance)).toEqual(
      lanes(5).map((q) => fakeMetres(q.origin, q.destination))
    );
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(requests.filter((r) => r.method === "GET")).toHaveLength(5);
    await Promise.all(
      lanes(10)
        .slice(5)
        .map((q) => client.distance(q))
    );
    expect(requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(requests.filter((r) => r.method === "GET")).toHaveLength(10);
  });

  test("GET fallback respects the concurrency cap", async () => {
    let inFlight = 0;
    let peak = 0;
    const fake = fakeService({ batch: false });
    const slowFetch: typeof fake.fetch = async (url, init) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      try {
        return await fake.fetch(url, init);
      } finally {
        inFlight--;
      }
    };
    const client = new RouteApiClient({
      settings: settingsOf(),
      fetch: slowFetch,
      windowMs: 5,
      concurrency: 3,
    });
    await Promise.all(lanes(30).map((q) => client.distance(q)));
    expect(peak).toBeLessThanOrEqual(3);
    expect(fake.requests.filter((r) => r.method === "GET")).toHaveLength(30);
  });

  test("a batch refused as a whole (no key) fails each call with that error", async () => {
    const { client } = setup({ batch: true }, {}, "");
    const results = await Promise.allSettled(lanes(3).map((q) => client.distance(q)));
    for (const r of results)
      expect(r).toMatchObject({ status: "rejected", reason: { status: 401, title: "No Key" } });
  });

  test("batch items answered 429 get a second chance as GETs", async () => {
    let refused = false;
    const { client, requests } = setup(
      {
        batch: true,
        handler: (path, q) => {
          if (q.get("origin") === "P1" && !refused) {
            refused = true;
            return problem(429, "Too Many Requests", "slow down");
          }
          return {
            status: 200,
            body: { distance: fakeMetres(q.get("origin")!, q.get("destination")!) },
          };
        },
      },
      { backoff: { baseMs: 5, maxMs: 20 } }
    );
    const answers = await Promise.all(lanes(3).map((q) => client.distance(q)));
    expect(answers[1].distance).toBe(fakeMetres("P1", "Q1"));
    expect(requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });
});

describe("RouteApiClient: cache", () => {
  test("repeats are answered without a request; clearCache() forgets", async () => {
    const { client, requests } = setup();
    const first = await client.distance(lane(1));
    const second = await client.distance(lane(1));
    expect(second).toEqual(first);
    expect(requests).toHaveLength(1);
    expect(client.cacheStats()).toMatchObject({ entries: 1, hits: 1, misses: 1 });
    client.clearCache();
    expect(client.cacheStats()).toMatchObject({ entries: 0, hits: 0 });
    await client.distance(lane(1));
    expect(requests).toHaveLength(2);
  });

  test("definitive errors (400, 404) are cached; key errors (401/403) are not", async () => {
    const { client, requests } = setup();
    const unknown = { origin: "XXXXX", destination: "CNSHA", modality: "DEEPSEA" };
    await expect(client.distance(unknown)).rejects.toMatchObject({ status: 404 });
    await expect(client.distance(unknown)).rejects.toMatchObject({ status: 404 });
    expect(requests).toHaveLength(1);

    const bad = setup({ batch: true }, {}, "bad");
    await expect(bad.client.distance(lane(1))).rejects.toMatchObject({
      status: 403,
      title: "Invalid Key",
    });
    await expect(bad.client.distance(lane(1))).rejects.toMatchObject({ status: 403 });
    expect(bad.requests).toHaveLength(2);
  });

  test("cache entries expire after their TTL", async () => {
    let now = 1_000_000;
    const { client, requests } = setup({ batch: true }, { now: () => now, cacheTtlMs: 60_000 });
    await client.distance(lane(1));
    now += 59_000;
    await client.distance(lane(1));
    expect(requests).toHaveLength(1);
    now += 2_000;
    await client.distance(lane(1));
    expect(requests).toHaveLength(2);
  });

  test("cacheOnly answers from the cache or throws NotCachedError without a request", async () => {
    const { client, requests } = setup();
    await expect(client.distance(lane(1), { cacheOnly: true })).rejects.toBeInstanceOf(
      NotCachedError
    );
    expect(requests).toHaveLength(0);
    const real = await client.distance(lane(1));
    expect(await client.distance(lane(1), { cacheOnly: true })).toEqual(real);
  });

  test("answers are cached per base URL", async () => {
    const fake = fakeService({ batch: true });
    let baseUrl = "http://a.test";
    const client = new RouteApiClient({
      settings: { get: async () => ({ baseUrl, apiKey: "k" }) },
      fetch: fake.fetch,
      windowMs: 5,
    });
    await client.distance(lane(1));
    baseUrl = "http://b.test";
    await client.distance(lane(1));
    expect(fake.requests.map((r) => r.url.host)).toEqual(["a.test", "b.test"]);
  });
});

/**
 * Runs `work` on Jest's fake clock (Date.now and every timer) from t = 0, advancing it until the
 * work settles: the times below are the client's own schedule, exact whatever the machine's speed.
 */
async function onFakeClock<T>(
  work: () => Promise<T>
): Promise<{ outcome: PromiseSettledResult<T>; at: number }> {
  jest.useFakeTimers({ now: 0 });
  try {
    let settled: { outcome: PromiseSettledResult<T>; at: number } | undefined;
    void work().then(
      (value) => (settled = { outcome: { status: "fulfilled", value }, at: Date.now() }),
      (reason) => (settled = { outcome: { status: "rejected", reason }, at: Date.now() })
    );
    for (let i = 0; i < 10_000 && !settled; i++) await jest.advanceTimersByTimeAsync(10);
    if (!settled) throw new Error("the call did not settle within 100 s of fake time");
    return settled;
  } finally {
    jest.useRealTimers();
  }
}

describe("RouteApiClient: failures settle in bounded time", () => {
  test("429 waits for Retry-After, then succeeds", async () => {
    let refusals = 1;
    const { client, requests } = setup({
      interceptor: () =>
        refusals-- > 0
          ? { ...problem(429, "Too Many Requests", "slow"), headers: { "Retry-After": "1" } }
          : undefined,
    });
    const { outcome, at } = await onFakeClock(() => client.distance(lane(1)));
    expect(outcome).toEqual({
      status: "fulfilled",
      value: expect.objectContaining({ distance: fakeMetres(lane(1).origin, "CNSHA") }),
    });
    expect(at).toBeGreaterThanOrEqual(1000);
    expect(requests).toHaveLength(2);
  });

  test("429 without Retry-After backs off exponentially and gives up at the deadline", async () => {
    const times: number[] = [];
    const { client } = setup(
      { interceptor: () => (times.push(Date.now()), problem(429, "Too Many Requests", "slow")) },
      { backoff: { baseMs: 40, maxMs: 1000 }, deadlineMs: 1500, maxRateLimitRetries: 20 }
    );
    const { outcome, at } = await onFakeClock(() => client.distance(lane(1)));
    expect(outcome).toMatchObject({ status: "rejected", reason: { status: 429 } });
    expect(at).toBeLessThanOrEqual(1500);
    const gaps = times.slice(1).map((t, i) => t - times[i]);
    // Delays lie in [ceiling/2, ceiling] with ceiling = 40·2^n: they grow.
    expect(gaps[0]).toBeGreaterThanOrEqual(20);
    expect(gaps[0]).toBeLessThanOrEqual(40 + 10);
    expect(gaps[3]).toBeGreaterThanOrEqual(160);
  });

  test("network failure: retried, then Service Unavailable (status 0)", async () => {
    const { client, requests } = setup(
      { interceptor: () => "network-error" },
      { backoff: { baseMs: 10, maxMs: 50 } }
    );
    await expect(client.distance(lane(1))).rejects.toMatchObject({
      status: 0,
      title: "Service Unavailable",
    });
    expect(requests).toHaveLength(3);
  });

  test("a server that never answers: each attempt is aborted, the call fails within the deadline", async () => {
    const { client } = setup(
      { interceptor: () => "hang" },
      { requestTimeoutMs: 200, deadlineMs: 1000, backoff: { baseMs: 10, maxMs: 50 } }
    );
    const { outcome, at } = await onFakeClock(() => client.distance(lane(1)));
    expect(outcome).toMatchObject({ status: "rejected", reason: { status: 0, title: "Timeout" } });
    expect(at).toBeLessThanOrEqual(1000);
  });

  test("even a fetch that ignores abort settles at the deadline", async () => {
    const client = new RouteApiClient({
      settings: settingsOf(),
      fetch: () => new Promise(() => undefined),
      deadlineMs: 300,
      windowMs: 5,
    });
    const { outcome, at } = await onFakeClock(() => client.distance(lane(1)));
    expect(outcome).toMatchObject({ status: "rejected", reason: { title: "Timeout" } });
    expect(at).toBe(300);
  });

  test("5xx is retried and not cached", async () => {
    let failures = 1;
    const { client, requests } = setup(
      { interceptor: () => (failures-- > 0 ? problem(500, "System Error", "boom") : undefined) },
      { backoff: { baseMs: 5, maxMs: 20 } }
    );
    const answer = await client.distance(lane(1));
    expect(answer.distance).toBe(fakeMetres(lane(1).origin, "CNSHA"));
    expect(requests).toHaveLength(2);
  });

  test("an unexpected body is reported, not returned", async () => {
    const { client } = setup({ handler: () => ({ status: 200, body: "<html>" }) });
    await expect(client.distance(lane(1))).rejects.toMatchObject({
      status: 0,
      detail: expect.stringContaining("distance"),
    });
  });
});
