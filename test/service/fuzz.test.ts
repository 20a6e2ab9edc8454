/**
 * Fuzz: thousands of random and malformed query strings (and batch bodies) on every endpoint →
 * never a 5xx, and every error is an RFC 9457 problem with a catalogue title.
 */
import fc from "fast-check";
import { ROUTE_SEARCH_PARAMETERS } from "../../src/engine/optimizer/types";
import { STATUS_OF } from "../../src/service/problem";
import { startTestServer, TestServer } from "./support";

const PATHS = [
  "/route-information/api/terminals",
  "/route-information/api/distance",
  "/route-information/api/emissions",
  "/route-optimizer/api/external",
  "/route-optimizer/api/external/operators",
  "/route-information/api/nope",
];
const NAMES = [
  "terminalLocode",
  "terminalName",
  "origin",
  "destination",
  "modality",
  "vesselInfo",
  "avoid",
  "containerType",
  "fuelType",
  // The route search's own list (origin and destination are already above).
  ...ROUTE_SEARCH_PARAMETERS.filter((p) => p !== "origin" && p !== "destination"),
  "__proto__",
  "constructor",
  "",
];
const GOOD = [
  "NLRTM",
  "DEHAM",
  "CNSHA",
  "USNYC",
  "nlrtm",
  "DEEPSEA",
  "truck",
  "BARGE",
  "RAIL",
  "SHORTSEA",
  "LOCODE",
  "GEO",
  "TERMINAL",
  "51.95,4.05",
  "-33.9,18.4",
  "91,0",
  "0,181",
  "NaN,NaN",
  "Infinity,1",
  "1e400,2",
  "36600,5100,1550",
  "0,0,0",
  "-1,2,3",
  "IMO9321483",
  "MMSI123456789",
  "IMO",
  "SUEZ",
  "SUEZ,PANAMA",
  ",,,",
  "P20D",
  "PT",
  "P",
  "2025-01-31",
  "2025-13-45",
  "true",
  "false",
  "1",
  "-1",
  "99999999999999999999",
  "3.5",
  "40HC",
  "20DV",
  "VLSFO",
  "LNG",
  "Euromax",
  "321808a4-df95-56f0-9563-11c2089c68d3",
  "00000000-0000-0000-0000-000000000000",
];
const MALFORMED = [
  "%",
  "%zz",
  "%E0%A4%A",
  "%00",
  "%C0%AF",
  "%FF%FE",
  "%25",
  "&&&",
  "==",
  "=",
  "%2C%2C",
  "\u0000",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
  "<script>",
  "' OR 1=1 --",
  "../../etc/passwd",
];

const TITLES = Object.keys(STATUS_OF);

const raw = fc.oneof(fc.constantFrom(...MALFORMED), fc.string({ maxLength: 12 }));
const value = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...GOOD) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }).map(encodeURIComponent) },
  { weight: 2, arbitrary: fc.constantFrom(...MALFORMED) },
  { weight: 1, arbitrary: fc.fullUnicodeString({ maxLength: 20 }).map(encodeURIComponent) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(...GOOD), { maxLength: 4 }).map((a) => a.join(",")),
  },
  { weight: 1, arbitrary: fc.constant("x".repeat(5000)) }
);
const pair = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom(...NAMES), value).map(([k, v]) => `${k}=${v}`) },
  { weight: 1, arbitrary: raw },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...NAMES), fc.constantFrom("[]", "[0]", ".x"))
      .map(([k, s]) => `${k}${s}=1`),
  }
);
const query = fc.array(pair, { maxLength: 10 }).map((pairs) => pairs.join("&"));

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  ({ key } = await s.account({
    credits: 10_000_000,
    optimizerAccess: true,
    optimizerCredits: 10_000_000,
    ratePerSecond: 1_000_000,
  }));
});
afterAll(async () => {
  await s.stop();
});

/** Every fuzz request and every 5xx among them, reported at the end. */
const tally = { requests: 0, serverErrors: 0 };
afterAll(() => {
  console.log(`fuzz: ${tally.requests} requests, ${tally.serverErrors} answered 5xx`);
});

async function check(res: Response, what: string, head = false): Promise<void> {
  tally.requests++;
  const text = await res.text();
  if (res.status >= 500) {
    tally.serverErrors++;
    throw new Error(`${what} → ${res.status} ${text}`);
  }
  if (res.status >= 400 && !head) {
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    const p = JSON.parse(text);
    if (
      !TITLES.includes(p.title) ||
      p.status !== res.status ||
      typeof p.detail !== "string" ||
      typeof p.type !== "string"
    ) {
      throw new Error(`${what} → not a catalogue problem: ${text}`);
    }
  }
}

test("random and malformed query strings on every endpoint: no 5xx, errors are problems", async () => {
  // Every path, the optimizer's included: the harness throws if the optimizer fails to load.
  expect(s.optimizer).toBeDefined();
  const paths = PATHS;
  let n = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...paths), query, fc.boolean(), async (path, q, withKey) => {
      n++;
      const url = `${s.url}${path}?${q}`;
      const res = await fetch(url, { headers: withKey ? { "x-api-key": key } : {} });
      await check(res, url);
    }),
    { numRuns: 3000, seed: 20251121 }
  );
  expect(n).toBe(3000);
}, 180_000);

test("random batch bodies: no 5xx, every failed item body is a problem", async () => {
  const item = fc
    .record(
      {
        type: fc.oneof(
          fc.constantFrom("distance", "emissions", "terminals"),
          fc.string({ maxLength: 5 }),
          fc.integer()
        ),
        origin: value,
        destination: value,
        modality: value,
        terminalLocode: value,
        vesselInfo: value,
        avoid: value,
      },
      { requiredKeys: [] }
    )
    .map((o) =>
      Object.fromEntries(
        Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? safeDecode(v) : v])
      )
    );
  const body = fc.oneof(
    {
      weight: 5,
      arbitrary: fc.array(item, { maxLength: 8 }).map((requests) => JSON.stringify({ requests })),
    },
    { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }
  );
  await fc.assert(
    fc.asyncProperty(body, async (b) => {
      const res = await s.post("/route-information/api/batch", b, key);
      const clone = res.clone();
      await check(res, `batch ${b}`);
      if (res.status === 200) {
        const { results } = await clone.json();
        for (const r of results) {
          if (r.status >= 500) throw new Error(`batch item 5xx: ${JSON.stringify(r)} for ${b}`);
          if (r.status >= 400 && !TITLES.includes(r.body.title))
            throw new Error(`batch item not a problem: ${JSON.stringify(r)}`);
        }
      }
    }),
    { numRuns: 600, seed: 7 }
  );
}, 180_000);

test("random methods and headers on every endpoint: no 5xx, errors are problems", async () => {
  const paths = [
    ...PATHS,
    "/health",
    "/account",
    "/openapi.json",
    "/problems/not-found",
    "/nowhere",
  ];
  const headerValue = fc.oneof(
    fc.constantFrom(
      "",
      " ",
      "application/json",
      "text/plain",
      "*/*",
      "bytes=0-10",
      "bytes=9-1",
      "gzip",
      "null",
      "\t",
      "x".repeat(4000),
      key,
      `${key}x`,
      "rs_"
    ),
    fc.string({ maxLength: 40 }).map((v) => v.replace(/[^\x20-\x7e]/g, ""))
  );
  const headers = fc.dictionary(
    fc.constantFrom(
      "x-api-key",
      "content-type",
      "accept",
      "idempotency-key",
      "origin",
      "range",
      "content-encoding",
      "if-none-match",
      "x-forwarded-for",
      "access-control-request-method",
      "authorization",
      "cookie",
      "transfer-encoding-x"
    ),
    headerValue,
    { maxKeys: 6 }
  );
  const method = fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS");
  const body = fc.oneof(
    fc.constant(undefined),
    fc.string({ maxLength: 60 }),
    fc.constant('{"requests":[]}')
  );
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...paths),
      method,
      headers,
      body,
      query,
      async (path, m, h, b, q) => {
        const url = `${s.url}${path}?${q}`;
        const res = await fetch(url, {
          method: m,
          headers: h,
          body: m === "GET" || m === "HEAD" ? undefined : b,
        });
        await check(res, `${m} ${url} ${JSON.stringify(h).slice(0, 200)}`, m === "HEAD");
      }
    ),
    { numRuns: 1500, seed: 20261123 }
  );
}, 240_000);

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}
