/** RAIL/TRUCK paths say how their distance was computed (`basis`), on a real server. */
import { startTestServer, TestServer } from "./support";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  key = (await s.account({ credits: 100 })).key;
});
afterAll(async () => {
  await s.stop();
});

async function pathOf(origin: string, destination: string, modality: string) {
  const res = await s.get(
    `/route-information/api/path?origin=${origin}&destination=${destination}&modality=${modality}`,
    key
  );
  expect(res.status).toBe(200);
  return (await res.json()) as { properties: { distance: number; basis?: string } };
}

test("TRUCK is an estimate and says so", async () => {
  const p = await pathOf("DEBER", "PLWAW", "TRUCK");
  expect(p.properties.basis).toBe("great circle × circuity");
});

test("RAIL along a corridor follows the network; off the corridors it is an estimate", async () => {
  expect((await pathOf("CNCKG", "DEDUI", "RAIL")).properties.basis).toBe("network");
  expect((await pathOf("INDEL", "INBOM", "RAIL")).properties.basis).toBe("great circle × circuity");
});

test("sea paths carry no basis (they always follow the sea network)", async () => {
  expect((await pathOf("CNSHA", "NLRTM", "DEEPSEA")).properties.basis).toBeUndefined();
});

test("the OpenAPI document describes the basis values", async () => {
  const doc = await (await s.get("/openapi.json")).json();
  expect(doc.components.schemas.PathFeature.properties.properties.properties.basis.enum).toEqual([
    "network",
    "great circle × circuity",
    "road network (OSRM)",
    "road network (US freeways)",
    "rail network (North American Class I)",
  ]);
});
