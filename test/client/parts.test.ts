import { backoffDelayMs, parseRetryAfter } from "../../src/client/backoff";
import { LruTtlCache } from "../../src/client/cache";
import { isDefinitiveError, ApiError, errorFromProblem } from "../../src/client/errors";
import { canonicalQuery } from "../../src/client/query";
import {
  memoryStorage,
  normalizeBaseUrl,
  SETTINGS_KEYS,
  SettingsStore,
} from "../../src/client/settings";

describe("backoff", () => {
  test("Retry-After in seconds or as an HTTP date", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
  });

  test("Retry-After wins, capped at maxMs", () => {
    expect(backoffDelayMs(5, "2", { baseMs: 100, maxMs: 10_000 })).toBe(2000);
    expect(backoffDelayMs(0, "600", { baseMs: 100, maxMs: 10_000 })).toBe(10_000);
  });

  test("exponential with jitter in [ceiling/2, ceiling]", () => {
    const opts = { baseMs: 100, maxMs: 5000 };
    expect(backoffDelayMs(0, null, opts, () => 0)).toBe(50);
    expect(backoffDelayMs(0, null, opts, () => 1)).toBe(100);
    expect(backoffDelayMs(3, null, opts, () => 0)).toBe(400);
    expect(backoffDelayMs(3, null, opts, () => 1)).toBe(800);
    expect(backoffDelayMs(20, null, opts, () => 1)).toBe(5000);
  });
});

describe("LruTtlCache", () => {
  test("evicts the least recently used entry", () => {
    const cache = new LruTtlCache<number>({ maxEntries: 2, ttlMs: 1000 });
    cache.set("a", 1);
    cache.set("b", 2);
    cache.get("a");
    cache.set("c", 3);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
    expect(cache.size).toBe(2);
  });

  test("entries expire", () => {
    let now = 0;
    const cache = new LruTtlCache<number>({ maxEntries: 10, ttlMs: 100, now: () => now });
    cache.set("a", 1);
    cache.set("b", 2, 500);
    now = 150;
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("b")).toBe(2);
  });
});

describe("errors", () => {
  test("which errors are definitive", () => {
    const codes = [400, 401, 402, 403, 404, 429, 500, 0];
    expect(codes.filter((s) => isDefinitiveError(new ApiError(s, "t", "d")))).toEqual([400, 404]);
  });

  test("problem+json, and bodies that are not", () => {
    expect(errorFromProblem(404, { title: "Unknown Data", detail: "origin" })).toMatchObject({
      status: 404,
      title: "Unknown Data",
      detail: "origin",
    });
    expect(errorFromProblem(502, "Bad gateway", "Bad Gateway")).toMatchObject({
      title: "Bad Gateway",
      detail: "Bad gateway",
    });
  });
});

describe("query", () => {
  test("canonical: sorted, no empties, arrays repeated", () => {
    expect(canonicalQuery({ b: "2", a: "1", c: undefined, d: "", e: ["X", "Y"], f: 3 })).toBe(
      "a=1&b=2&e=X&e=Y&f=3"
    );
  });
});

describe("SettingsStore", () => {
  test("falls back to the page origin and an empty key", async () => {
    const store = new SettingsStore(memoryStorage(), "https://sheets.example/");
    expect(await store.get()).toEqual({ baseUrl: "https://sheets.example", apiKey: "" });
  });

  test("reads and writes routeSheets.baseUrl and routeSheets.apiKey", async () => {
    const storage = memoryStorage({ [SETTINGS_KEYS.apiKey]: "abc" });
    const store = new SettingsStore(storage, "https://sheets.example");
    expect(await store.get()).toEqual({ baseUrl: "https://sheets.example", apiKey: "abc" });
    const seen: string[] = [];
    store.onChange((s) => seen.push(s.baseUrl));
    await store.save({ baseUrl: "https://connect.routescanner.com/", apiKey: " k2 " });
    expect(await storage.getItem("routeSheets.baseUrl")).toBe("https://connect.routescanner.com");
    expect(await storage.getItem("routeSheets.apiKey")).toBe("k2");
    expect(seen).toEqual(["https://connect.routescanner.com"]);
    await store.save({ baseUrl: "" });
    expect(await storage.getItem("routeSheets.baseUrl")).toBeNull();
    expect((await store.get()).baseUrl).toBe("https://sheets.example");
    expect((await new SettingsStore(storage, "https://sheets.example").get()).apiKey).toBe("k2");
  });

  test("rejects base URLs that are not http(s)", () => {
    expect(() => normalizeBaseUrl("ftp://x")).toThrow(/http/);
    expect(() => normalizeBaseUrl("not a url")).toThrow(/not a URL/);
  });

  test("a failing storage yields the defaults", async () => {
    const broken = {
      getItem: async () => {
        throw new Error("no");
      },
      setItem: async () => undefined,
      removeItem: async () => undefined,
    };
    expect(await new SettingsStore(broken, "https://x.example").get()).toEqual({
      baseUrl: "https://x.example",
      apiKey: "",
    });
  });
});
