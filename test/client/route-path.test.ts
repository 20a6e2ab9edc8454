/** RouteApiClient.routePath: against the real server (extension present) and a service without it. */
import { RouteApiClient } from "../../src/client/api-client";
import { ApiError } from "../../src/client/errors";
import { startTestServer, TestServer } from "../service/support";
import { fakeService, settingsOf } from "./fake-service";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer();
  key = (await s.account()).key;
});
afterAll(async () => {
  await s.stop();
});

test("routePath: the GeoJSON Feature of the real service, cached like distance", async () => {
  let sent = 0;
  const client = new RouteApiClient({
    settings: settingsOf(key, s.url),
    fetch: (url, init) => {
      sent++;
      return fetch(url, init);
    },
  });
  const path = await client.routePath({
    origin: "CNSHA",
    destination: "NLRTM",
    modality: "DEEPSEA",
  });
  expect(path.type).toBe("Feature");
  expect(path.geometry.type).toBe("LineString");
  expect(path.geometry.coordinates.length).toBeGreaterThan(20);
  expect(
    path.geometry.coordinates.some(([lng, lat]) => Math.hypot(lng - 32.5, lat - 30) <= 1)
  ).toBe(true);
  expect(path.properties).toEqual({
    distance: (
      await client.distance({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" })
    ).distance,
    modality: "DEEPSEA",
    passages: expect.arrayContaining(["SUEZ"]),
  });
  const before = sent;
  expect(
    await client.routePath({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" })
  ).toEqual(path);
  expect(sent).toBe(before);
  expect(client.cacheStats().hits).toBe(1);

  const error = await client
    .routePath({ origin: "XXZZZ", destination: "NLRTM", modality: "DEEPSEA" })
    .catch((e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error).toMatchObject({ status: 404, title: "Unknown Data" });
});

test("a service without the extension: 404/405 become ApiError (the caller falls back), asked once", async () => {
  const fake = fakeService();
  const client = new RouteApiClient({ settings: settingsOf("k1"), fetch: fake.fetch });
  const q = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" };
  const error = await client.routePath(q).catch((e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error.status).toBe(404);
  await client.routePath(q).catch(() => undefined);
  expect(fake.requests.map((r) => [r.method, r.url.pathname])).toEqual([
    ["GET", "/route-information/api/path"],
  ]);

  const noGet = fakeService({
    handler: () => ({
      status: 405,
      body: { title: "Method Not Allowed", status: 405, detail: "GET not allowed" },
    }),
  });
  const other = new RouteApiClient({ settings: settingsOf("k1"), fetch: noGet.fetch });
  expect(await other.routePath(q).catch((e) => e)).toMatchObject({ status: 405 });
});

test("an answer that is not a LineString Feature is reported, not returned", async () => {
  const odd = fakeService({
    handler: () => ({
      status: 200,
      body: { type: "Feature", geometry: { type: "Point", coordinates: [4, 52] } },
    }),
  });
  const client = new RouteApiClient({ settings: settingsOf("k1"), fetch: odd.fetch });
  const error = await client
    .routePath({ origin: "A", destination: "B", modality: "DEEPSEA" })
    .catch((e) => e);
  expect(error).toBeInstanceOf(ApiError);
  expect(error.message).toMatch(/GeoJSON Feature with a LineString/);
});
