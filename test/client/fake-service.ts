/**
 * A fake fetch that answers like the route service (GETs and the batch extension), records every
 * request, and can be told to misbehave. Answers are computed from the query so tests can check
 * that each call got its own answer back.
 */
import { RouteApiClient, RouteApiClientOptions } from "../../src/client/api-client";
import type { FetchLike, ResponseLike, RequestInitLike } from "../../src/client/transport";

export interface Recorded {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
export type Handler = (
  path: string,
  query: URLSearchParams,
  headers: Record<string, string>
) => Answer;

/** Deterministic fake distance of a lane, in metres. */
export function fakeMetres(origin: string, destination: string, modality = "DEEPSEA"): number {
  let h = 0;
  for (const ch of `${origin}|${destination}|${modality}`) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return 1000 + (h % 20_000_000);
}

/**
 * A few places as the places extension answers them (CONTRACTS.md), for the look-up's callers:
 * names exact, a code typo fuzzy. The real look-up is tested against the real server.
 */
export const FAKE_PLACES: Record<string, unknown[]> = {
  rotterdam: [
    {
      kind: "port",
      locode: "NLRTM",
      name: "Rotterdam (Maasvlakte)",
      country: "NL",
      lat: 51.955,
      lng: 4.04,
      match: "exact",
      score: 1,
    },
    {
      kind: "port",
      locode: "USRAJ",
      name: "Rotterdam",
      country: "US",
      lat: 42.79,
      lng: -73.97,
      match: "exact",
      score: 1,
    },
    {
      kind: "terminal",
      terminalId: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0004",
      locode: "NLRTM",
      name: "APM Terminals Rotterdam",
      country: "NL",
      lat: 51.95,
      lng: 4.03,
      match: "fuzzy",
      score: 0.66,
    },
  ],
  shanghai: [
    {
      kind: "port",
      locode: "CNSHA",
      name: "Shanghai (Yangshan)",
      country: "CN",
      lat: 30.617,
      lng: 122.067,
      match: "exact",
      score: 1,
    },
    {
      kind: "port",
      locode: "CNSGH",
      name: "Shanghai",
      country: "CN",
      lat: 31.23,
      lng: 121.47,
      match: "exact",
      score: 1,
    },
  ],
  busan: [
    {
      kind: "port",
      locode: "KRPUS",
      name: "Busan (New Port)",
      country: "KR",
      match: "exact",
      score: 1,
    },
  ],
  euromax: [
    {
      kind: "terminal",
      terminalId: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
      locode: "NLRTM",
      name: "ECT Euromax Terminal",
      match: "fuzzy",
      score: 0.66,
    },
  ],
  rotterdm: [
    { kind: "port", locode: "NLRTM", name: "Rotterdam (Maasvlakte)", match: "fuzzy", score: 0.9 },
    { kind: "port", locode: "USRAJ", name: "Rotterdam", match: "fuzzy", score: 0.9 },
  ],
  "nlrtm euromax": [
    {
      kind: "terminal",
      terminalId: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
      locode: "NLRTM",
      name: "ECT Euromax",
      country: "NL",
      match: "exact",
      score: 1,
    },
  ],
  krpux: [
    { kind: "port", locode: "KRPUS", name: "Busan (New Port)", match: "fuzzy", score: 0.8 },
    { kind: "port", locode: "KRPUN", name: "Pungam", match: "fuzzy", score: 0.7 },
  ],
  xxxxx: [{ kind: "port", locode: "XXXXY", name: "Nowhere", match: "fuzzy", score: 0.8 }],
  springfield: [
    {
      kind: "place",
      locode: "USSFY",
      name: "Springfield",
      country: "US",
      match: "exact",
      score: 1,
    },
    {
      kind: "place",
      locode: "USSPI",
      name: "Springfield",
      country: "US",
      match: "exact",
      score: 1,
    },
  ],
  // As the real look-up answers today: two Portlands in one country (two Rotterdams in two, and
  // Shanghai under two codes 60 km apart, above).
  portland: [
    {
      kind: "port",
      locode: "USPDX",
      name: "Portland",
      country: "US",
      region: "Oregon",
      population: 632309,
      lat: 45.52,
      lng: -122.68,
      match: "exact",
      score: 1,
    },
    {
      kind: "port",
      locode: "USPWM",
      name: "Portland",
      country: "US",
      region: "Maine",
      population: 66881,
      lat: 43.66,
      lng: -70.26,
      match: "exact",
      score: 1,
    },
  ],
};

/**
 * The service's own choice where it decides by what the results do not show (its port ranking):
 * Shanghai under two codes of one population is CNSHA, as the real /places answers.
 */
const FAKE_CHOICES: Record<string, object> = {
  shanghai: { kind: "one", locode: "CNSHA" },
};

/** Well-formed codes the fake does not know (typos the places look-up has a suggestion for). */
const UNKNOWN_CODES = new Set(["KRPUX"]);

export const defaultHandler: Handler = (path, q, headers) => {
  if (!headers["x-api-key"]) return problem(401, "No Key", "The x-api-key header is missing");
  if (headers["x-api-key"] === "bad") return problem(403, "Invalid Key", "The key is not valid");
  if (path === "/route-information/api/places") {
    const query = q.get("query") ?? "";
    const choice = FAKE_CHOICES[query.toLowerCase()];
    return {
      status: 200,
      body: { query, results: FAKE_PLACES[query.toLowerCase()] ?? [], ...(choice && { choice }) },
    };
  }
  const origin = q.get("origin") ?? "";
  const destination = q.get("destination") ?? "";
  if (path === "/route-information/api/distance" || path === "/route-information/api/emissions") {
    if (origin === "XXXXX")
      return problem(404, "Unknown Data", 'origin "XXXXX" is not a known UN/LOCODE');
    for (const [parameter, code] of [
      ["origin", origin],
      ["destination", destination],
    ])
      if (UNKNOWN_CODES.has(code))
        return problem(
          404,
          "Unknown Data",
          `${parameter} ${code} is not a known UN/LOCODE; allowed forms: …`
        );
    if (origin === "BAD")
      return problem(
        400,
        "Incorrect Values",
        'origin "BAD" is not a place: use a UN/LOCODE, a terminal uuid or lat,lng'
      );
    const distance = fakeMetres(origin, destination, q.get("modality") ?? "");
    if (path.endsWith("distance")) return { status: 200, body: { distance } };
    return {
      status: 200,
      body: {
        co2eTeu: distance / 1000,
        co2eTon: distance / 10_000,
        distance,
        ...(q.get("include") === "passages" ? { passages: [] } : {}),
      },
    };
  }
  if (path === "/route-information/api/terminals") {
    const locode = q.get("terminalLocode");
    if (locode === "NLRTM") {
      return {
        status: 200,
        body: [
          { id: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0001", name: "ECT Delta", locode: "NLRTM" },
          {
            id: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0002",
            name: "APM Maasvlakte II",
            locode: "NLRTM",
          },
        ],
      };
    }
    return { status: 204 };
  }
  return problem(404, "Not Found", `No such path ${path}`);
};

export function problem(status: number, title: string, detail: string): Answer {
  return { status, body: { type: "about:blank", title, status, detail } };
}

export interface FakeServiceOptions {
  handler?: Handler;
  /** Whether POST /route-information/api/batch exists (else 404). */
  batch?: boolean;
  /** Consulted first for every request; return an answer to override (e.g. 429), or undefined. */
  interceptor?: (rec: Recorded) => Answer | undefined | "hang" | "network-error";
}

export function fakeService(options: FakeServiceOptions = {}) {
  const handler = options.handler ?? defaultHandler;
  const requests: Recorded[] = [];
  const fetch: FetchLike = async (url: string, init: RequestInitLike): Promise<ResponseLike> => {
    const rec: Recorded = {
      method: init.method,
      url: new URL(url),
      headers: Object.fromEntries(
        Object.entries(init.headers).map(([k, v]) => [k.toLowerCase(), v])
      ),
      body: init.body ? JSON.parse(init.body) : undefined,
    };
    requests.push(rec);
    await new Promise((resolve) => setTimeout(resolve, 1));
    const override = options.interceptor?.(rec);
    if (override === "network-error") throw new TypeError("fetch failed");
    if (override === "hang") {
      return new Promise((_, reject) => {
        init.signal?.addEventListener("abort", () =>
          reject(Object.assign(new Error("aborted"), { name: "AbortError" }))
        );
      });
    }
    const answer = override ?? route(rec);
    return respond(answer);
  };

  function route(rec: Recorded): Answer {
    if (rec.url.pathname === "/route-information/api/batch") {
      if (!options.batch || rec.method !== "POST")
        return problem(404, "Not Found", "no batch here");
      const items = (rec.body as { requests: Array<Record<string, string> & { type: string }> })
        .requests;
      if (!rec.headers["x-api-key"])
        return problem(401, "No Key", "The x-api-key header is missing");
      return {
        status: 200,
        body: {
          results: items.map(({ type, ...params }) => {
            const a = handler(
              `/route-information/api/${type}`,
              new URLSearchParams(params),
              rec.headers
            );
            return { status: a.status, body: a.body ?? null };
          }),
        },
      };
    }
    return handler(rec.url.pathname, rec.url.searchParams, rec.headers);
  }

  return { fetch, requests };
}

function respond(answer: Answer): ResponseLike {
  const headers = new Map(
    Object.entries(answer.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])
  );
  const text = answer.body === undefined ? "" : JSON.stringify(answer.body);
  return {
    status: answer.status,
    statusText: "",
    headers: { get: (name: string) => headers.get(name.toLowerCase()) ?? null },
    text: async () => text,
  };
}

export const settingsOf = (apiKey = "k1", baseUrl = "http://route.test") => ({
  get: async () => ({ apiKey, baseUrl }),
});

/** A RouteApiClient over a fresh fake service, with the key `key`; the requests it sends. */
export function fakeClient(
  service: FakeServiceOptions = { batch: true },
  options: Partial<RouteApiClientOptions> = {},
  key = "k1"
) {
  const fake = fakeService(service);
  const client = new RouteApiClient({ settings: settingsOf(key), fetch: fake.fetch, ...options });
  return { client, requests: fake.requests };
}
