/** GET /route-information/api/path (extension): the real server, engine and SQLite store. */
import { MAX_PATH_POINTS, normaliseLongitude, simplifyPath } from "../../src/service/path-geojson";
import { problemOf, startTestServer, TestServer } from "./support";

const PATH = "/route-information/api/path";
const DIST = "/route-information/api/distance";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.stop();
});

type Feature = {
  type: string;
  geometry: { type: string; coordinates: [number, number][] };
  properties: { distance: number; modality: string; passages: string[] };
};

const near = (coords: [number, number][], lng: number, lat: number, within: number) =>
  coords.some(([x, y]) => Math.hypot(x - lng, y - lat) <= within);

test("200 GeoJSON Feature: LineString from origin to destination, properties as the distance call; charged like /distance", async () => {
  const { key, account } = await s.account({ credits: 3 });
  const res = await s.get(`${PATH}?origin=CNSHA&destination=NLRTM&modality=deepsea`, key);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/geo\+json/);
  const body = (await res.json()) as Feature;
  expect(Object.keys(body).sort()).toEqual(["geometry", "properties", "type"]);
  expect(body.type).toBe("Feature");
  expect(body.geometry.type).toBe("LineString");
  const coords = body.geometry.coordinates;
  expect(coords.length).toBeGreaterThan(20);
  expect(coords.length).toBeLessThanOrEqual(MAX_PATH_POINTS);
  for (const c of coords) {
    expect(c).toHaveLength(2);
    expect(Math.abs(c[0])).toBeLessThanOrEqual(180);
    expect(Math.abs(c[1])).toBeLessThanOrEqual(90);
  }
  // Starts near Shanghai (121.5E 31.2N), ends near Rotterdam (4.0E 51.9N).
  expect(near([coords[0]], 121.8, 31.2, 1.5)).toBe(true);
  expect(near([coords[coords.length - 1]], 4.0, 51.95, 1.5)).toBe(true);
  // Through Suez (32.5E 30N), not across Arabia or round the Cape.
  expect(near(coords, 32.5, 30, 1)).toBe(true);
  expect(coords.some(([, lat]) => lat < -20)).toBe(false);
  expect(body.properties.modality).toBe("DEEPSEA");
  expect(body.properties.passages).toContain("SUEZ");

  const distance = await (
    await s.get(`${DIST}?origin=CNSHA&destination=NLRTM&modality=DEEPSEA`, key)
  ).json();
  expect(body.properties.distance).toBe(distance.distance);
  // The path and the distance call were each charged one credit.
  expect((await s.store.accountState(account.id))!.credits).toBe(1);
});

test("Accept: application/json gets application/json; avoid (extension) reroutes the path (round the Cape: the default Asia–Europe ship does not fit Panama)", async () => {
  const { key } = await s.account();
  const res = await s.get(
    `${PATH}?origin=CNSHA&destination=NLRTM&modality=DEEPSEA&avoid=SUEZ`,
    key,
    { accept: "application/json" }
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await res.json()) as Feature;
  expect(body.properties.passages).not.toContain("SUEZ");
  expect(near(body.geometry.coordinates, 32.5, 30, 1)).toBe(false);
  // Without Suez the default Asia–Europe vessel (a ULCV, too big for Panama's locks) goes round
  // the Cape of Good Hope: south of 33°S between 15°E and 30°E, and not through Panama.
  expect(body.properties.passages).not.toContain("PANAMA");
  expect(body.geometry.coordinates.some(([lng, lat]) => lat < -33 && lng > 15 && lng < 30)).toBe(
    true
  );
});

test("a trans-Pacific path steps across ±180° between neighbours, never back across the globe", async () => {
  const { key } = await s.account();
  const body = (await (
    await s.get(`${PATH}?origin=CNSHA&destination=USLAX&modality=DEEPSEA`, key)
  ).json()) as Feature;
  const lngs = body.geometry.coordinates.map((c) => c[0]);
  expect(lngs.some((l) => l > 170)).toBe(true);
  expect(lngs.some((l) => l < -170)).toBe(true);
  let crossings = 0;
  for (let i = 1; i < lngs.length; i++) {
    const step = Math.abs(lngs[i] - lngs[i - 1]);
    if (step > 180) crossings++;
    else expect(step).toBeLessThan(60);
  }
  expect(crossings).toBe(1);
});

test("errors as /distance: missing origin → 400 naming origin; unknown LOCODE → 404 Unknown Data; wrong modality → 400; not charged", async () => {
  const { key, account } = await s.account({ credits: 5 });
  const missing = await problemOf(await s.get(`${PATH}?destination=NLRTM&modality=DEEPSEA`, key));
  expect([missing.status, missing.title]).toEqual([400, "Incorrect Values"]);
  expect(missing.detail).toMatch(/origin/);
  const unknown = await problemOf(
    await s.get(`${PATH}?origin=XXZZZ&destination=NLRTM&modality=DEEPSEA`, key)
  );
  expect([unknown.status, unknown.title]).toEqual([404, "Unknown Data"]);
  expect(unknown.detail).toMatch(/origin/);
  const modality = await problemOf(
    await s.get(`${PATH}?origin=CNSHA&destination=NLRTM&modality=PLANE`, key)
  );
  expect([modality.status, modality.title]).toEqual([400, "Incorrect Values"]);
  expect(modality.detail).toMatch(/DEEPSEA/);
  const noKey = await problemOf(
    await s.get(`${PATH}?origin=CNSHA&destination=NLRTM&modality=DEEPSEA`)
  );
  expect([noKey.status, noKey.title]).toEqual([401, "No Key"]);
  expect((await s.store.accountState(account.id))!.credits).toBe(5);
});

test("charged like /distance: 402 with an empty pool; free accounts may call it", async () => {
  const empty = await s.account({ credits: 0 });
  expect(
    (await s.get(`${PATH}?origin=NLRTM&destination=DEDUI&modality=BARGE`, empty.key)).status
  ).toBe(402);
  const free = await s.account({ credits: 1, tier: "free" });
  const res = await s.get(`${PATH}?origin=NLRTM&destination=DEHAM&modality=TRUCK`, free.key);
  expect(res.status).toBe(200);
  expect(((await res.json()) as Feature).properties.modality).toBe("TRUCK");
  expect((await s.store.accountState(free.account.id))!.credits).toBe(0);
});

test("/openapi.json lists the path as an extension with the GeoJSON schema", async () => {
  const doc = await (await s.get("/openapi.json")).json();
  const op = doc.paths[PATH].get;
  expect(op.tags).toEqual(["route-information", "extension"]);
  expect(op.summary).toMatch(/^Extension/);
  expect(op.description).toMatch(/Cost: 1 route-information credit/);
  expect(Object.keys(op.responses["200"].content)).toEqual([
    "application/geo+json",
    "application/json",
  ]);
  expect(doc.components.schemas.PathFeature.properties.geometry.properties.type.enum).toEqual([
    "LineString",
  ]);
  expect(doc.info.description).toMatch(/GET \/route-information\/api\/path/);
  expect(op.responses["404"].content["application/problem+json"]).toBeDefined();
});

describe("simplifyPath", () => {
  test("keeps both ends and at most maxPoints; keeps the corner of an L", () => {
    const line: [number, number][] = [];
    for (let i = 0; i <= 100; i++) line.push([i / 10, 0]);
    for (let i = 1; i <= 100; i++) line.push([10, i / 10]);
    const out = simplifyPath(line, 500);
    expect(out).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
    ]);
    const wiggly = line.map(([x, y], i): [number, number] => [x, y + (i % 2) * 0.05]);
    const three = simplifyPath(wiggly, 3);
    expect(three).toHaveLength(3);
    expect(three[0]).toEqual(wiggly[0]);
    expect(three[2]).toEqual(wiggly[wiggly.length - 1]);
  });

  test("unwraps across ±180° before thinning; normaliseLongitude maps back", () => {
    const out = simplifyPath(
      [
        [179, 0],
        [-179.5, 0],
        [-178, 0],
      ],
      500
    );
    expect(out).toEqual([
      [179, 0],
      [182, 0],
    ]);
    expect(normaliseLongitude(182)).toBe(-178);
    expect(normaliseLongitude(180)).toBe(180);
    expect(normaliseLongitude(-190)).toBe(170);
  });
});
