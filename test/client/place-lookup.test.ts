/**
 * Names through the places extension (CONTRACTS.md "Place look-up"). The real endpoint is built by
 * another branch in parallel: until it merges, the client is tested against a loopback stub that
 * answers as the contract says (test/addin/places.e2e.test.ts runs the same against the real server).
 */
import fc from "fast-check";
import * as http from "node:http";
import { AddressInfo } from "node:net";
import { RouteApiClient } from "../../src/client/api-client";
import { pickMatch, PlaceProblem, resolvePlace } from "../../src/client/place-lookup";
import type { PlaceMatch } from "../../src/client/types";
import { FAKE_PLACES } from "./fake-service";

/** The service's own `choice` for a few names, where it knows more than the results show. */
const SERVED: Record<string, object> = {
  // The service ranks by port size, which the results do not carry: its choice stands.
  Portland: { choice: { kind: "one", locode: "USPWM" } },
  Springfield: {
    choice: { kind: "ambiguous", message: "Springfield: USSFY (Missouri) or USSPI (Illinois)" },
  },
};

let server: http.Server;
let baseUrl: string;
const seen: Array<{ url: string; key: string | undefined }> = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seen.push({ url: req.url ?? "", key: req.headers["x-api-key"] as string | undefined });
    if (url.pathname !== "/route-information/api/places") {
      res.writeHead(404, { "content-type": "application/problem+json" });
      return res.end(JSON.stringify({ title: "Not Found", status: 404, detail: "no such path" }));
    }
    const query = url.searchParams.get("query") ?? "";
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({ query, results: FAKE_PLACES[query.toLowerCase()] ?? [], ...SERVED[query] })
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => (seen.length = 0));

const client = (url = () => baseUrl) =>
  new RouteApiClient({ settings: { get: async () => ({ baseUrl: url(), apiKey: "k1" }) } });

test("a name resolves to its code, with the key, once (cached like the other answers)", async () => {
  const c = client();
  const first = await resolvePlace(c, " Rotterdam ");
  expect(first).toEqual({
    type: "LOCODE",
    value: "NLRTM",
    typed: "Rotterdam",
    name: "Rotterdam",
    locode: "NLRTM",
  });
  expect(await resolvePlace(c, "Rotterdam")).toEqual(first);
  expect(seen).toEqual([
    { url: "/route-information/api/places?limit=5&query=Rotterdam", key: "k1" },
  ]);
});

test("a terminal name with its LOCODE resolves to the terminal id", async () => {
  expect(await resolvePlace(client(), "NLRTM Euromax")).toMatchObject({
    type: "TERMINAL",
    value: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
    name: "ECT Euromax",
    locode: "NLRTM",
  });
});

test("codes, coordinates and ids need no look-up", async () => {
  const c = client();
  expect(await resolvePlace(c, "CNSHA")).toMatchObject({ type: "LOCODE", value: "CNSHA" });
  expect(await resolvePlace(c, "nl-rtm")).toMatchObject({ type: "LOCODE", value: "NLRTM" });
  expect(await resolvePlace(c, "51,95;4,05")).toMatchObject({ type: "GEO", value: "51.95,4.05" });
  expect(seen).toEqual([]);
});

test("five letters not in capitals are looked up first: busan is Busan; cnsha, no place, the code", async () => {
  const c = client();
  expect(await resolvePlace(c, "busan")).toMatchObject({
    type: "LOCODE",
    value: "KRPUS",
    name: "Busan",
  });
  expect(await resolvePlace(c, "cnsha")).toMatchObject({ type: "LOCODE", value: "CNSHA" });
  expect(seen.map((s) => s.url)).toEqual([
    "/route-information/api/places?limit=5&query=busan",
    "/route-information/api/places?limit=5&query=cnsha",
  ]);
  // A name standing for several places is said so, not read as a code.
  await expect(resolvePlace(c, "portland")).rejects.toThrow(
    "portland: USPDX (Oregon) or USPWM (Maine)"
  );
});

test("the service's choice decides when it answers one, worded as it words it", async () => {
  const c = client();
  expect(await resolvePlace(c, "Portland")).toMatchObject({ type: "LOCODE", value: "USPWM" });
  const problem = await resolvePlace(c, "Springfield").catch((e) => e);
  expect(problem).toMatchObject({
    kind: "ambiguous",
    message: "Springfield: USSFY (Missouri) or USSPI (Illinois)",
    suggestions: ["USSFY (Springfield)", "USSPI (Springfield)"],
  });
  // A choice naming a place the results lack is no place: unknown, with the look-up's best.
  expect(() =>
    pickMatch("Rotterdam", FAKE_PLACES.rotterdam as PlaceMatch[], { kind: "one", locode: "XXAAA" })
  ).toThrow('unknown place "Rotterdam" — did you mean');
});

test("an unknown name without any near match is said plainly", async () => {
  const problem = await resolvePlace(client(), "Atlantis").catch((e) => e);
  expect(problem).toBeInstanceOf(PlaceProblem);
  expect(problem.message).toBe('unknown place "Atlantis"');
});

test("pickMatch: an exact match, unless namesakes in one country; a clear fuzzy best; else unknown with a suggestion", () => {
  // Two Portlands in one country: an error listing both, never a silent pick, worded as the
  // service's /places choice words it (one function: engine/places/name-choice.ts).
  expect(() => pickMatch("Portland", FAKE_PLACES.portland as PlaceMatch[])).toThrow(
    "Portland: USPDX (Oregon) or USPWM (Maine)"
  );
  // Without the region (an older look-up), the name stands in.
  const withStates = (FAKE_PLACES.portland as PlaceMatch[]).map((m) => ({
    ...m,
    region: undefined,
  }));
  const problem = (() => {
    try {
      pickMatch("Portland", withStates);
    } catch (e) {
      return e as PlaceProblem;
    }
  })()!;
  expect(problem).toMatchObject({
    kind: "ambiguous",
    message: "Portland: USPDX (Portland) or USPWM (Portland)",
    suggestions: ["USPDX (Portland)", "USPWM (Portland)"],
  });
  // A place twenty times its namesake's size is the one meant (the service's rule).
  const populated = withStates.map((m, i) => ({ ...m, population: [632309, 30000][i] }));
  expect(pickMatch("Portland", populated)).toMatchObject({ value: "USPDX" });
  expect(() => pickMatch("Springfield", FAKE_PLACES.springfield as PlaceMatch[])).toThrow(
    /^Springfield: USSFY \(Springfield\) or USSPI/
  );
  // Namesakes in other countries: the look-up's ranking decides; one place under two codes too.
  expect(pickMatch("Rotterdam", FAKE_PLACES.rotterdam as PlaceMatch[])).toMatchObject({
    type: "LOCODE",
    value: "NLRTM",
  });
  // Shanghai under two codes of one population: the service's port ranking picks (its choice).
  const shanghai = FAKE_PLACES.shanghai as PlaceMatch[];
  expect(() => pickMatch("Shanghai", shanghai)).toThrow("Shanghai: CNSHA (Shanghai) or CNSGH");
  expect(pickMatch("Shanghai", shanghai, { kind: "one", locode: "CNSHA" })).toMatchObject({
    type: "LOCODE",
    value: "CNSHA",
  });
  // One terminal near the name: taken.
  expect(pickMatch("Euromax", FAKE_PLACES.euromax as PlaceMatch[])).toMatchObject({
    type: "TERMINAL",
    value: "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
    name: "ECT Euromax Terminal",
  });
  // A misspelling near two places at once: "did you mean" the likelier, not "ambiguous".
  expect(() => pickMatch("Rotterdm", FAKE_PLACES.rotterdm as PlaceMatch[])).toThrow(
    'unknown place "Rotterdm" — did you mean NLRTM (Rotterdam)?'
  );
  // A weak fuzzy match is only a suggestion; the harbour's qualifier is left out of the name.
  const weak = (FAKE_PLACES.krpux as PlaceMatch[]).map((m) => ({ ...m, score: 0.3 }));
  expect(() => pickMatch("Busn", weak)).toThrow(
    'unknown place "Busn" — did you mean KRPUS (Busan)?'
  );
  expect(() => pickMatch("Atlantis", [])).toThrow('unknown place "Atlantis"');
});

test("property: an ambiguous name's message lists its candidates within 100 characters", () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 30 }),
      fc.array(fc.string({ minLength: 1, maxLength: 40 }), { minLength: 2, maxLength: 8 }),
      (typed, names) => {
        const results: PlaceMatch[] = names.map((name, i) => ({
          kind: "place",
          locode: `US${String.fromCharCode(65 + i)}AA`,
          name,
          country: "US",
          lat: 10 * i,
          lng: 0,
          match: "exact",
          score: 1,
        }));
        try {
          pickMatch(typed.slice(0, 30), results);
          throw new Error("picked one of several namesakes");
        } catch (error) {
          const p = error as PlaceProblem;
          expect(p.kind).toBe("ambiguous");
          expect(p.suggestions).toHaveLength(names.length);
          // Two candidates always, within a cell's length when the names are short.
          expect(p.message).toContain("USAAA");
          expect(p.message).toContain("USBAA");
          if (names.every((n) => n.length <= 10) && typed.length <= 10)
            expect(p.message.length).toBeLessThanOrEqual(100);
        }
      }
    )
  );
});

test("property: whatever the look-up answers, a pick is one of its places, or a problem naming the text", () => {
  const match = fc.record({
    kind: fc.constantFrom("port" as const, "place" as const, "terminal" as const),
    locode: fc.constantFrom("NLRTM", "USRAJ", "CNSHA", "KRPUS"),
    terminalId: fc.constantFrom(
      "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0003",
      "0b7c3b9e-3f0a-4a52-9a0e-6d2c3f1e0004"
    ),
    name: fc.string({ minLength: 1, maxLength: 30 }),
    match: fc.constantFrom("exact" as const, "fuzzy" as const),
    score: fc.double({ min: 0, max: 1, noNaN: true }),
  });
  fc.assert(
    fc.property(fc.array(match, { maxLength: 6 }), (raw) => {
      const results = [...raw].sort((a, b) => b.score - a.score);
      try {
        const picked = pickMatch("typed", results);
        const values = results.map((r) => (r.kind === "terminal" ? r.terminalId : r.locode));
        expect(values).toContain(picked.value);
        const firstExact = results.find((r) => r.match === "exact");
        if (firstExact)
          expect(picked.value).toBe(
            firstExact.kind === "terminal" ? firstExact.terminalId : firstExact.locode
          );
      } catch (error) {
        expect(error).toBeInstanceOf(PlaceProblem);
        const problem = error as PlaceProblem;
        expect(problem.message).toMatch(/^(unknown place "typed"|typed: )/);
        // Ambiguous only between exact matches at two places of one country.
        const exact = results.filter((r) => r.match === "exact");
        if (problem.kind === "ambiguous")
          expect(
            new Set(exact.filter((r) => r.kind !== "terminal").map((r) => r.locode)).size
          ).toBeGreaterThan(1);
        else expect(exact).toHaveLength(0);
      }
    })
  );
});

test("a service without the places extension: names are refused with the reason", async () => {
  const c = new RouteApiClient({
    settings: { get: async () => ({ baseUrl: `${baseUrl}/elsewhere`, apiKey: "k1" }) },
  });
  await expect(resolvePlace(c, "Rotterdam")).rejects.toThrow(
    'unknown place "Rotterdam": this service takes codes (NLRTM) or lat,lng, not names'
  );
});
