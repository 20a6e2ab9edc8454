/**
 * Names through the places extension (CONTRACTS.md "Place look-up"). The real endpoint is built by
 * another branch in parallel: until it merges, the client is tested against a loopback stub that
 * answers as the contract says (test/addin/places.e2e.test.ts runs the same against the real server).
 */
import * as http from "node:http";
import { AddressInfo } from "node:net";
import { RouteApiClient } from "../../src/client/api-client";
import { pickMatch, PlaceProblem, resolvePlace } from "../../src/client/place-lookup";
import type { PlaceMatch } from "../../src/client/types";
import { FAKE_PLACES } from "./fake-service";

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
    res.end(JSON.stringify({ query, results: FAKE_PLACES[query.toLowerCase()] ?? [] }));
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
  expect(await resolvePlace(c, "cnsha")).toMatchObject({ type: "LOCODE", value: "CNSHA" });
  expect(await resolvePlace(c, "51,95;4,05")).toMatchObject({ type: "GEO", value: "51.95,4.05" });
  expect(seen).toEqual([]);
});

test("an unknown name without any near match is said plainly", async () => {
  const problem = await resolvePlace(client(), "Atlantis").catch((e) => e);
  expect(problem).toBeInstanceOf(PlaceProblem);
  expect(problem.message).toBe('unknown place "Atlantis"');
});

test("pickMatch: exact first, fuzzy only suggested, equal exact matches elsewhere are ambiguous", () => {
  expect(() => pickMatch("KRPUX", FAKE_PLACES.krpux as PlaceMatch[])).toThrow(
    'unknown place "KRPUX" — did you mean KRPUS (Busan)?'
  );
  expect(() => pickMatch("Springfield", FAKE_PLACES.springfield as PlaceMatch[])).toThrow(
    'ambiguous place "Springfield" — did you mean USSFY (Springfield) or USSPI (Springfield)?'
  );
  const port: PlaceMatch = {
    kind: "port",
    locode: "NLRTM",
    name: "Rotterdam",
    match: "exact",
    score: 1,
  };
  // A port and a place of the same name: the port (listed first) wins.
  expect(
    pickMatch("Rotterdam", [port, { ...port, kind: "place", locode: "USRTD", score: 1 }])
  ).toMatchObject({ value: "NLRTM" });
});

test("a service without the places extension: names are refused with the reason", async () => {
  const c = new RouteApiClient({
    settings: { get: async () => ({ baseUrl: `${baseUrl}/elsewhere`, apiKey: "k1" }) },
  });
  await expect(resolvePlace(c, "Rotterdam")).rejects.toThrow(
    'unknown place "Rotterdam": this service takes codes (NLRTM) or lat,lng, not names'
  );
});
