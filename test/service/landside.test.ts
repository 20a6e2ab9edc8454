/**
 * Plain /distance, /emissions and /path for Chengdu -> Shanghai by RAIL over the real server (issue
 * 20: it was 404 because the CNSHA point is on Yangshan island, which rail does not reach). The
 * train ends at the port's landside; /path reports the move in snapDistance; /chain gives the
 * same leg.
 */
import { startTestServer, TestServer } from "./support";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  ({ key } = await s.account({ credits: 1_000 }));
}, 120_000);
afterAll(async () => s?.stop());

const API = "/route-information/api";
const LANE = "origin=CNCTU&destination=CNSHA&modality=RAIL";

async function json<T>(path: string): Promise<T> {
  const res = await s.get(`${API}/${path}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

test("CNCTU -> CNSHA by RAIL answers on /distance, /emissions, /path and /chain alike", async () => {
  const d = await json<{ distance: number }>(`distance?${LANE}`);
  // Real run: 2,236 km along the rail corridors to Luchao, the Donghai Bridge's mainland end.
  expect(Math.round(d.distance / 1000)).toBe(2236);
  const e = await json<{ distance: number; co2eTeu: number; method: { distanceBasis: string } }>(
    `emissions?${LANE}&include=method`
  );
  expect(e.distance).toBe(d.distance);
  expect(e.method.distanceBasis).toBe("network");
  // European electric container rail, 64 g CO2e/TEU-km: about 143 kg per TEU.
  expect(e.co2eTeu).toBeCloseTo((d.distance / 1000) * 0.064, 0);
  const p = await json<{
    properties: { distance: number; snapDistance?: { origin: number; destination: number } };
  }>(`path?${LANE}`);
  expect(p.properties.distance).toBe(d.distance);
  expect(p.properties.snapDistance).toEqual({ origin: 0, destination: 29684 });
  const c = await json<{ legs: Array<{ distance: number; co2eTeu: number }> }>(
    "chain?points=CNCTU,CNSHA&modalities=RAIL"
  );
  expect([c.legs[0].distance, c.legs[0].co2eTeu]).toEqual([e.distance, e.co2eTeu]);
  // A strait without a fixed link stays a clear 404.
  const none = await s.get(`${API}/distance?origin=IEDUB&destination=GBLON&modality=TRUCK`, key);
  expect(none.status).toBe(404);
});
