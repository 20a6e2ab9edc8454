/** include=passages (extension) on /distance, /emissions and batch items. */
import { problemOf, startTestServer, TestServer } from "./support";

const DIST = "/route-information/api/distance";
const EMIS = "/route-information/api/emissions";
const SEA = "origin=CNSHA&destination=NLRTM&modality=DEEPSEA";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  key = (await s.account({ tier: "paid", credits: 1000 })).key;
});
afterAll(async () => {
  await s.stop();
});

test("distance with include=passages carries the sea route's passages in route order", async () => {
  const plain = await (await s.get(`${DIST}?${SEA}`, key)).json();
  expect(Object.keys(plain)).toEqual(["distance"]);
  const res = await s.get(`${DIST}?${SEA}&include=passages`, key);
  expect(res.status).toBe(200);
  const body = await res.json();
  expect(body.distance).toBe(plain.distance);
  expect(body.passages).toEqual(["MALACCA", "BAB_EL_MANDEB", "SUEZ", "GIBRALTAR", "DOVER"]);
  // The reverse trip sails them the other way round.
  const back = await (
    await s.get(`${DIST}?origin=NLRTM&destination=CNSHA&modality=DEEPSEA&include=passages`, key)
  ).json();
  expect(back.passages).toEqual([...body.passages].reverse());
});

test("land modalities answer passages []; emissions carries them too", async () => {
  const truck = await (
    await s.get(`${DIST}?origin=NLRTM&destination=DEHAM&modality=TRUCK&include=passages`, key)
  ).json();
  expect(truck).toEqual({ distance: expect.any(Number), passages: [] });
  const em = await (await s.get(`${EMIS}?${SEA}&include=passages`, key)).json();
  expect(em).toEqual({
    co2eTeu: expect.any(Number),
    co2eTon: expect.any(Number),
    distance: expect.any(Number),
    passages: ["MALACCA", "BAB_EL_MANDEB", "SUEZ", "GIBRALTAR", "DOVER"],
  });
  const plain = await (await s.get(`${EMIS}?${SEA}`, key)).json();
  expect(Object.keys(plain).sort()).toEqual(["co2eTeu", "co2eTon", "distance"]);
});

test("costs the same as without", async () => {
  const a = await s.account({ tier: "paid", credits: 10 });
  await s.get(`${DIST}?${SEA}&include=passages`, a.key);
  await s.get(`${EMIS}?${SEA}&include=passages`, a.key);
  expect((await s.store.accountState(a.account.id))!.credits).toBe(8);
});

test("a bad include value is 400 Incorrect Values naming include and the allowed values", async () => {
  const a = await s.account({ tier: "paid", credits: 10 });
  for (const bad of ["route", "passages,geometry"]) {
    const p = await problemOf(await s.get(`${DIST}?${SEA}&include=${bad}`, a.key));
    expect(p.status).toBe(400);
    expect(p.title).toBe("Incorrect Values");
    expect(p.detail).toMatch(/include/);
    expect(p.detail).toMatch(/allowed values.*passages/);
  }
  expect((await s.store.accountState(a.account.id))!.credits).toBe(10);
});

test("batch items accept include, per item", async () => {
  const res = await s.post(
    "/route-information/api/batch",
    {
      requests: [
        {
          type: "distance",
          origin: "CNSHA",
          destination: "NLRTM",
          modality: "DEEPSEA",
          include: "passages",
        },
        { type: "distance", origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" },
        {
          type: "emissions",
          origin: "NLRTM",
          destination: "DEHAM",
          modality: "TRUCK",
          include: "passages",
        },
        {
          type: "distance",
          origin: "CNSHA",
          destination: "NLRTM",
          modality: "DEEPSEA",
          include: "x",
        },
      ],
    },
    key
  );
  const { results } = await res.json();
  expect(results[0].body.passages).toEqual([
    "MALACCA",
    "BAB_EL_MANDEB",
    "SUEZ",
    "GIBRALTAR",
    "DOVER",
  ]);
  expect(Object.keys(results[1].body)).toEqual(["distance"]);
  expect(results[2].body.passages).toEqual([]);
  expect(results[3].status).toBe(400);
  expect(results[3].body.detail).toMatch(/include.*allowed values.*passages/);
});

test("documented in /openapi.json", async () => {
  const doc = await (await s.get("/openapi.json")).json();
  for (const p of [DIST, EMIS]) {
    const inc = doc.paths[p].get.parameters.find((x: { name: string }) => x.name === "include");
    expect(inc.description ?? inc.schema.description).toMatch(/passages/);
  }
  expect(doc.components.schemas.DistanceResult.properties.passages).toBeDefined();
});
