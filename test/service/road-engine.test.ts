/**
 * `--road-engine osrm=URL`: TRUCK legs from an OSRM server. OSRM cannot be installed here, so a
 * small server on 127.0.0.1 speaks its documented route API (GET /route/v1/driving/{lng},{lat};
 * {lng},{lat}?overview=false -> {code, routes: [{distance}]}), and the real service asks it.
 */
import * as http from "node:http";
import { AddressInfo } from "node:net";
import { parseRoadEngine } from "../../src/data/osrm";
import { truckLegs } from "../../src/service/road-legs";
import { createAccountWithKey } from "../../src/service/accounts";
import { RunningService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import { startQuietService } from "./support";

const PATH = "/route-information/api/path";
const DIST = "/route-information/api/distance";

/** Amsterdam -> Paris answers 503,210 m; Lisbon -> Madrid NoRoute; Berlin -> Warsaw a 500. */
function fakeOsrm(): { server: http.Server; asked: string[] } {
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? "");
    const m =
      /^\/route\/v1\/driving\/([-\d.]+),([-\d.]+);([-\d.]+),([-\d.]+)\?overview=false$/.exec(
        req.url ?? ""
      );
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (!m) return send(400, { code: "InvalidUrl", message: "URL string malformed" });
    const [lng1, lat1] = [Number(m[1]), Number(m[2])];
    if (lat1 === 52.37 && lng1 === 4.9)
      return send(200, {
        code: "Ok",
        routes: [{ distance: 503210.4, duration: 18000 }],
        waypoints: [],
      });
    if (lat1 === 38.72) return send(200, { code: "NoRoute", message: "Impossible route" });
    return send(500, { code: "InternalError" });
  });
  return { server, asked };
}

describe("--road-engine osrm=URL against an OSRM-speaking server on 127.0.0.1", () => {
  let osrm: ReturnType<typeof fakeOsrm>;
  let running: RunningService;
  let store: SqliteStore;
  let key: string;

  beforeAll(async () => {
    osrm = fakeOsrm();
    await new Promise<void>((r) => osrm.server.listen(0, "127.0.0.1", r));
    const { port } = osrm.server.address() as AddressInfo;
    ({ running, store } = await startQuietService({
      engine: undefined,
      optimizer: null,
      roadEngine: `osrm=http://127.0.0.1:${port}/`,
    }));
    key = (await createAccountWithKey(store, { credits: 1000 })).key;
  }, 120_000);

  afterAll(async () => {
    await running.close();
    await store.close();
    await new Promise((r) => osrm.server.close(r));
  });

  const get = (p: string) => fetch(running.url + p, { headers: { "x-api-key": key } });

  test("a TRUCK leg OSRM answers has its distance and says basis road network (OSRM)", async () => {
    const res = await get(`${PATH}?origin=52.37,4.9&destination=48.86,2.35&modality=TRUCK`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { properties: { distance: number; basis: string } };
    expect(body.properties.distance).toBe(503210);
    expect(body.properties.basis).toBe("road network (OSRM)");
    expect(osrm.asked).toContain(
      "/route/v1/driving/4.900000,52.370000;2.350000,48.860000?overview=false"
    );
    const d = (await (
      await get(`${DIST}?origin=52.37,4.9&destination=48.86,2.35&modality=TRUCK`)
    ).json()) as {
      distance: number;
    };
    expect(d.distance).toBe(503210);
  });

  test("NoRoute and a failing server leave the built-in answer with its own basis", async () => {
    for (const q of [
      "origin=38.72,-9.14&destination=40.42,-3.7",
      "origin=52.52,13.4&destination=52.23,21.01",
    ]) {
      const res = await get(`${PATH}?${q}&modality=TRUCK`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { properties: { distance: number; basis: string } };
      expect(body.properties.basis).not.toBe("road network (OSRM)");
      expect(body.properties.distance).toBeGreaterThan(400_000);
    }
  });

  test("RAIL is never asked of OSRM", async () => {
    const before = osrm.asked.length;
    const res = await get(`${PATH}?origin=52.37,4.9&destination=48.86,2.35&modality=RAIL`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { properties: { basis: string } }).properties.basis).not.toBe(
      "road network (OSRM)"
    );
    expect(osrm.asked.length).toBe(before);
  });
});

describe("parseRoadEngine", () => {
  test("osrm=URL, trailing slashes dropped", () => {
    expect(parseRoadEngine("osrm=http://127.0.0.1:5000/")).toEqual({
      kind: "osrm",
      url: "http://127.0.0.1:5000",
    });
    expect(parseRoadEngine("OSRM=https://router.example/osrm").url).toBe(
      "https://router.example/osrm"
    );
  });

  test.each(["valhalla=http://x", "osrm", "osrm=ftp://x", "osrm=not a url", "http://x"])(
    "%s is refused naming the flag and the allowed form",
    (value) => {
      expect(() => parseRoadEngine(value)).toThrow(/--road-engine.*allowed: osrm=URL/);
    }
  );
});

test("truckLegs finds TRUCK legs in a query, batch items and chain legs, not other modalities", () => {
  expect(
    truckLegs([
      { origin: "A", destination: "B", modality: "truck" },
      {
        requests: [
          { type: "distance", origin: "C", destination: "D", modality: "TRUCK" },
          { type: "distance", origin: "E", destination: "F", modality: "RAIL" },
        ],
        legs: [{ origin: "G", destination: "H", modality: " TRUCK " }],
      },
    ])
  ).toEqual([
    { origin: "A", destination: "B" },
    { origin: "C", destination: "D" },
    { origin: "G", destination: "H" },
  ]);
});
