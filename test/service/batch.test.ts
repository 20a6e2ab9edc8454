/** POST /route-information/api/batch (extension): order, per-item charging, Type Required, mid-batch 402. */
import { problemOf, startTestServer, TestServer } from "./support";

const BATCH = "/route-information/api/batch";
const truck = { type: "distance", origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s.stop();
});

test("answers each item in order as the single call would, charging only the 200 items that cost", async () => {
  const { key, account } = await s.account({ credits: 10 });
  const single = await (
    await s.get(
      "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK",
      key
    )
  ).json();
  const res = await s.post(
    BATCH,
    {
      requests: [
        truck,
        { type: "emissions", origin: "NLRTM", destination: "CNSHA", modality: "deepsea" },
        { type: "terminals", terminalLocode: "NLRTM" },
        { type: "terminals", terminalLocode: "NLRTM", terminalName: "zzqqxx" },
        { type: "distance", origin: "NLZZZ", destination: "DEHAM", modality: "TRUCK" },
        { type: "distance", origin: "NLRTM", modality: "TRUCK" },
      ],
    },
    key
  );
  expect(res.status).toBe(200);
  const { results } = await res.json();
  expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 204, 404, 400]);
  expect(results[0].body).toEqual(single);
  expect(Object.keys(results[1].body).sort()).toEqual(["co2eTeu", "co2eTon", "distance"]);
  expect(results[2].body[0]).toEqual({
    id: expect.any(String),
    name: expect.any(String),
    locode: "NLRTM",
  });
  expect(results[3].body).toBeNull();
  expect(results[4].body).toEqual(expect.objectContaining({ title: "Unknown Data", status: 404 }));
  expect(results[5].body).toEqual(
    expect.objectContaining({
      title: "Incorrect Values",
      status: 400,
      detail: expect.stringMatching(/destination/),
    })
  );
  // 1 single call + distance + emissions items.
  expect((await s.store.accountState(account.id))!.credits).toBe(7);
  expect(await s.store.ledgerTotal(account.id, "route-information")).toEqual({
    rows: 3,
    credits: 3,
  });
});

test("an item without a valid type → the whole request 400 Type Required, nothing charged", async () => {
  const { key, account } = await s.account({ credits: 10 });
  for (const bad of [{ origin: "NLRTM" }, { type: "weather" }, { type: 7 }]) {
    const p = await problemOf(await s.post(BATCH, { requests: [truck, bad] }, key));
    expect([p.status, p.title]).toEqual([400, "Type Required"]);
    expect(p.detail).toMatch(/requests\[1\]\.type.*distance, emissions, terminals/);
  }
  expect((await s.store.accountState(account.id))!.credits).toBe(10);
});

test("malformed bodies → 400 Incorrect Values", async () => {
  const { key } = await s.account();
  expect((await problemOf(await s.post(BATCH, "{not json", key))).title).toBe("Incorrect Values");
  expect((await problemOf(await s.post(BATCH, {}, key))).detail).toMatch(/requests/);
  const tooMany = await problemOf(
    await s.post(BATCH, { requests: Array.from({ length: 1001 }, () => truck) }, key)
  );
  expect(tooMany.detail).toMatch(/requests.*1000/);
});

test("credits running out mid-batch: the rest are 402 Over Limit and not charged; free items still answered", async () => {
  const { key, account } = await s.account({ credits: 3 });
  const res = await s.post(
    BATCH,
    {
      requests: [truck, truck, truck, truck, { type: "terminals", terminalLocode: "NLRTM" }, truck],
    },
    key
  );
  const { results } = await res.json();
  expect(results.map((r: { status: number }) => r.status)).toEqual([200, 200, 200, 402, 200, 402]);
  expect(results[3].body.title).toBe("Over Limit");
  expect((await s.store.accountState(account.id))!.credits).toBe(0);
  expect(await s.store.ledgerTotal(account.id, "route-information")).toEqual({
    rows: 3,
    credits: 3,
  });
});

test("free tier: emissions items 402 Free Tier Not Allowed, distance items answered", async () => {
  const { key } = await s.account({ tier: "free", credits: 5 });
  const { results } = await (
    await s.post(
      BATCH,
      {
        requests: [
          { type: "emissions", origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" },
          truck,
        ],
      },
      key
    )
  ).json();
  expect(
    results.map((r: { status: number; body: { title?: string } }) => [r.status, r.body.title])
  ).toEqual([
    [402, "Free Tier Not Allowed"],
    [200, undefined],
  ]);
});

test("a batch is one request against the rate limit, however many items", async () => {
  const { key } = await s.account({ credits: 1000, ratePerSecond: 1, burst: 2 });
  const first = await s.post(BATCH, { requests: Array.from({ length: 200 }, () => truck) }, key);
  expect(first.status).toBe(200);
  expect((await s.post(BATCH, { requests: [truck] }, key)).status).toBe(200);
  expect((await problemOf(await s.post(BATCH, { requests: [truck] }, key))).title).toBe(
    "Too Many Requests"
  );
});

test("needs a key like every API call", async () => {
  expect((await problemOf(await s.post(BATCH, { requests: [truck] }))).title).toBe("No Key");
});
