/** GET /account (extension): the caller's account, free of charge, behind the key. */
import { problemOf, startTestServer, TestServer } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ rateLimit: { perSecond: 50, burst: 100 } }, { optimizer: null });
});
afterAll(async () => {
  await s.stop();
});

test("answers the caller's account, balances of both pools and rate limit", async () => {
  const a = await s.account({
    name: "ACME",
    tier: "paid",
    credits: 12,
    optimizerAccess: true,
    optimizerCredits: 3,
    ratePerSecond: 7,
  });
  const res = await s.get("/account", a.key);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    name: "ACME",
    tier: "paid",
    active: true,
    optimizerAccess: true,
    credits: { routeInformation: 12, routeOptimizer: 3 },
    rateLimit: { perSecond: 7, burst: 14 },
  });
});

test("costs nothing and follows the balance after a charged call", async () => {
  const a = await s.account({ tier: "free", credits: 5 });
  for (let i = 0; i < 3; i++) expect((await s.get("/account", a.key)).status).toBe(200);
  const d = await s.get(
    "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK",
    a.key
  );
  expect(d.status).toBe(200);
  const body = await (await s.get("/account", a.key)).json();
  expect(body).toEqual(
    expect.objectContaining({
      tier: "free",
      optimizerAccess: false,
      credits: { routeInformation: 4, routeOptimizer: 0 },
      rateLimit: { perSecond: 50, burst: 100 },
    })
  );
});

test("needs a valid key", async () => {
  expect((await problemOf(await s.get("/account"))).title).toBe("No Key");
  expect((await problemOf(await s.get("/account", "rs_nope"))).title).toBe("Invalid Key");
});

test("is listed in /openapi.json as an extension", async () => {
  const doc = await (await s.get("/openapi.json")).json();
  expect(doc.paths["/account"].get.tags).toContain("extension");
  expect(doc.components.schemas.AccountInfo.properties.credits.properties).toEqual(
    expect.objectContaining({ routeInformation: expect.any(Object) })
  );
});
