/**
 * /distance remembers whole bodies by the query text of calls without `include` (PlainBodies).
 * Over random sequences of queries, spelled in different ways (modality case and spaces,
 * percent-encoding, parameter order, with and without include, unknown places and bad values),
 * each repeated: every 200 body is the engine's distance for the lane (with passages when asked),
 * the same query text always gets the same status and body, spellings of one query agree, and the
 * ledger holds one row per 200.
 */
import fc from "fast-check";
import { startTestServer, testEngine, TestServer } from "./support";

let server: TestServer;
let key: string;
let accountId: string;
beforeAll(async () => {
  server = await startTestServer({}, { optimizer: null });
  const created = await server.account({ credits: 1_000_000, ratePerSecond: 1_000_000 });
  key = created.key;
  accountId = created.account.id;
});
afterAll(() => server.stop());

const PLACES = ["NLRTM", "DEHAM", "BEANR", "XXZZZ"];
/** Spellings of the modality the service accepts alike (and one it refuses). */
const MODALITIES: Array<[string, string]> = [
  ["TRUCK", "TRUCK"],
  ["truck", "TRUCK"],
  [" Rail ", "RAIL"],
  ["BARGE", "BARGE"],
  ["boat", "BOAT"],
];

/** "NLRTM" → "NL%52TM"-like: the same value percent-encoded in one place. */
function encoded(value: string, at: number): string {
  const i = at % value.length;
  const hex = value.charCodeAt(i).toString(16).toUpperCase().padStart(2, "0");
  return value.slice(0, i) + "%" + hex + value.slice(i + 1);
}

const call = fc.record({
  origin: fc.constantFrom(...PLACES),
  destination: fc.constantFrom(...PLACES),
  modality: fc.nat({ max: MODALITIES.length - 1 }),
  include: fc.constantFrom(undefined, "passages", "", "bogus"),
  encodeAt: fc.option(fc.nat({ max: 4 }), { nil: undefined }),
  reversed: fc.boolean(),
  times: fc.integer({ min: 1, max: 3 }),
});

type Call = typeof call extends fc.Arbitrary<infer T> ? T : never;

function textOf(c: Call): string {
  const origin = c.encodeAt === undefined ? c.origin : encoded(c.origin, c.encodeAt);
  const parts = [
    `origin=${origin}`,
    `destination=${c.destination}`,
    `modality=${encodeURIComponent(MODALITIES[c.modality][0])}`,
    ...(c.include === undefined ? [] : [`include=${c.include}`]),
  ];
  return (c.reversed ? parts.reverse() : parts).join("&");
}

/** What the query means, whatever its spelling. */
function meaningOf(c: Call): string {
  return JSON.stringify([c.origin, c.destination, MODALITIES[c.modality][1], c.include]);
}

test("property: bodies remembered by query text are the engine's, the same for every spelling, and each 200 is charged once", async () => {
  let ok = 0;
  const byText = new Map<string, { status: number; body: string }>();
  const byMeaning = new Map<string, { status: number; body: string }>();
  await fc.assert(
    fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), async (calls) => {
      for (const c of calls)
        for (let t = 0; t < c.times; t++) {
          const text = textOf(c);
          const r = await server.get(`/route-information/api/distance?${text}`, key);
          const answer = { status: r.status, body: await r.text() };
          if (answer.status === 200) {
            ok++;
            const body = JSON.parse(answer.body) as { distance: number; passages?: unknown };
            const lane = testEngine().distance({
              origin: c.origin,
              destination: c.destination,
              modality: MODALITIES[c.modality][1] as never,
            });
            expect(body.distance).toBe(lane.distance);
            expect("passages" in body).toBe(c.include === "passages");
            expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
          }
          const sameText = byText.get(text) ?? answer;
          byText.set(text, sameText);
          expect(answer).toEqual(sameText);
          // Spellings of one query: the same status, and the same body when it is a 200 (problem
          // details may repeat the value as spelled).
          const sameMeaning = byMeaning.get(meaningOf(c)) ?? answer;
          byMeaning.set(meaningOf(c), sameMeaning);
          expect(answer.status).toBe(sameMeaning.status);
          if (answer.status === 200) expect(answer.body).toBe(sameMeaning.body);
        }
    }),
    { numRuns: 40 }
  );
  expect(ok).toBeGreaterThan(0);
  expect(await server.store.ledgerTotal(accountId, "route-information")).toEqual({
    rows: ok,
    credits: ok,
  });
});
