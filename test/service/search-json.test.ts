/**
 * The search thread serialises a search's answer itself (search-json.ts); the event loop sends
 * that string as it is. It must be the very bytes Fastify's serializer makes from the route's
 * response schema on the main thread: over real searches (the worst-case one included) and over
 * seeded generated answers with extra, missing-optional and awkward values.
 */
import Fastify, { FastifyInstance } from "fastify";
import { loadEngine } from "../../src/data/load-engine";
import { loadOptimizer } from "../../src/data/optimizer";
import type { RouteSearchResult } from "../../src/engine/optimizer/types";
import { ProblemSchema, SHARED_SCHEMAS } from "../../src/service/schemas";
import { searchResultJson } from "../../src/service/workers/search-json";
import run from "../../src/service/workers/optimizer-worker";

/** The main-thread path: a Fastify route whose 200 schema is the service's, serialising `doc`. */
async function mainThreadSerializer(): Promise<{
  app: FastifyInstance;
  serialise: (doc: unknown) => Promise<string>;
}> {
  const app = Fastify();
  for (const s of [ProblemSchema, ...SHARED_SCHEMAS]) app.addSchema(s);
  let next: unknown;
  app.get(
    "/search",
    {
      schema: { response: { 200: { description: "Route options.", $ref: "RouteSearchResult#" } } },
    },
    async () => next
  );
  await app.ready();
  return {
    app,
    serialise: async (doc) => {
      next = doc;
      return (await app.inject({ method: "GET", url: "/search" })).body;
    },
  };
}

let main: Awaited<ReturnType<typeof mainThreadSerializer>>;
beforeAll(async () => {
  main = await mainThreadSerializer();
});
afterAll(() => main.app.close());

const PAIRS: [string, string, string?][] = [
  ["CNSHA", "NLRTM", "CNNGB,CNYTN,MYTPP,DEBRV,PLGDN,CNTAO"],
  ["CNSHA", "NLRTM"],
  ["NLRTM", "CNSHA"],
  ["DEHAM", "SGSIN"],
  ["CNNGB", "DEBRV"],
];

test("real searches: the thread's JSON is byte-identical to the main thread's serialisation", async () => {
  const optimizer = loadOptimizer({ engine: loadEngine() });
  let compared = 0;
  for (const [origin, destination, required] of PAIRS) {
    const query = {
      origin,
      originType: "LOCODE",
      destination,
      destinationType: "LOCODE",
      ...(required ? { allRequiredLocodes: required.split(",") } : {}),
    };
    const result = optimizer.search(query, { deadline: Date.now() + 600_000 });
    const json = searchResultJson(result);
    expect(json).toBe(await main.serialise(result));
    if (result.results.length > 0) compared++;
  }
  // Not a vacuous comparison: most pairs have options.
  expect(compared).toBeGreaterThanOrEqual(3);
}, 300_000);

test("the search task answers that JSON (the thread's answer, as sent)", async () => {
  const answer = run({
    kind: "search",
    query: {
      origin: "CNSHA",
      originType: "LOCODE",
      destination: "NLRTM",
      destinationType: "LOCODE",
    },
    budgetMs: 600_000,
  }) as { json: string };
  expect(typeof answer.json).toBe("string");
  const doc = JSON.parse(answer.json) as RouteSearchResult;
  expect(doc.results.length).toBeGreaterThan(0);
  expect(answer.json).toBe(await main.serialise(doc));
}, 300_000);

/** mulberry32: a small seeded generator, so failures repeat. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test("generated answers (seeded): extra fields, absent vessels, escapes and odd numbers serialise alike", async () => {
  const rnd = seeded(31);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const strings = [
    "",
    "Rotterdam",
    'quote " and \\ slash',
    "tab\tnew\nline",
    "é ü 中 🚢",
    "\u0000\u001f",
    "</script>",
  ];
  const numbers = [0, -0, 1, -1.5, 1e21, 1e-7, 123456.789, Number.MAX_SAFE_INTEGER, 0.1 + 0.2];
  const str = () => pick(strings) + (rnd() < 0.5 ? String(Math.floor(rnd() * 1000)) : "");
  const terminal = () => ({ id: str(), name: str(), ...(rnd() < 0.3 ? { extra: str() } : {}) });
  const leg = () => ({
    origin: str(),
    originTerminals: Array.from({ length: Math.floor(rnd() * 3) }, terminal),
    destination: str(),
    destinationTerminals: Array.from({ length: Math.floor(rnd() * 3) }, terminal),
    modality: pick(["SEA", "RAIL", "TRUCK", "BARGE"]),
    operators: Array.from({ length: Math.floor(rnd() * 3) }, () => ({
      id: str(),
      name: str(),
      scac: str(),
      serviceCodes: Array.from({ length: Math.floor(rnd() * 3) }, str),
      collaboratingOperators: Array.from({ length: Math.floor(rnd() * 2) }, () => ({
        id: str(),
        name: str(),
        scac: str(),
      })),
    })),
    departureDate: new Date(1.7e12 + rnd() * 1e10).toISOString(),
    arrivalDate: new Date(1.7e12 + rnd() * 1e10).toISOString(),
    distanceInMeters: pick(numbers),
    emissionsInKgCo2e: pick(numbers),
    ...(rnd() < 0.5 ? { vessel: { name: str(), imo: str(), mmsi: str() } } : {}),
    ...(rnd() < 0.2 ? { internal: { cost: pick(numbers) } } : {}),
  });
  for (let i = 0; i < 200; i++) {
    const doc = {
      results: Array.from({ length: Math.floor(rnd() * 4) }, () => ({
        id: str(),
        leadTimeInMinutes: Math.floor(rnd() * 1e5),
        latestDropOff: new Date(1.7e12 + rnd() * 1e10).toISOString(),
        earliestPickup: new Date(1.7e12 + rnd() * 1e10).toISOString(),
        emissionsInKgCo2e: pick(numbers),
        transfers: Math.floor(rnd() * 5),
        transferEmissionsInKgCo2e: pick(numbers),
        truckToOriginInMeters: pick(numbers),
        truckToDestinationInMeters: pick(numbers),
        legs: Array.from({ length: 1 + Math.floor(rnd() * 4) }, leg),
      })),
      ...(rnd() < 0.3 ? { debug: str() } : {}),
    };
    expect(searchResultJson(doc as unknown as RouteSearchResult)).toBe(await main.serialise(doc));
  }
});
