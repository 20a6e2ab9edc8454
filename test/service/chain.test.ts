/**
 * GET /route-information/api/chain (extension, issue 20 item 4) on the real server: legs equal
 * /emissions for the same two points, hubs by type, the total is legs + hubs, one credit per leg.
 */
import fc from "fast-check";
import { chainEmissions, FactorEmissionCalculator, hubTypeFor } from "../../src/engine/emissions";
import { loadFactorSets } from "../../src/data/emissions";
import { problemOf, startTestServer, testEngine, TestServer } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
}, 120_000);
afterAll(async () => s?.stop());

const CHAIN = "/route-information/api/chain";

interface Chain {
  legs: Array<{
    origin: string;
    destination: string;
    destinationTerminal?: { id: string; name: string };
    modality: string;
    distance: number;
    co2eTeu: number;
    co2eTon: number;
    co2eKg?: number;
    method?: { tradeLane?: string };
  }>;
  hubs: Array<{ point: string; hubType: string; co2eTeu: number; co2eKg?: number }>;
  total: {
    distance: number;
    co2eTeu: number;
    co2eTon: number;
    co2eKg?: number;
    hubsByType: Record<string, number>;
  };
}

async function balance(key: string): Promise<number> {
  const r = (await (await s.get("/account", key)).json()) as {
    credits: { routeInformation: number };
  };
  return r.credits.routeInformation;
}

test("CNCTU,CNSHA,NLRTM,DEDUI by RAIL,DEEPSEA,BARGE: legs as /emissions, two maritime hubs, total, 3 credits", async () => {
  const { key } = await s.account({ credits: 100 });
  const res = await s.get(
    `${CHAIN}?points=CNCTU,CNSHA,NLRTM,DEDUI&modalities=rail,DEEPSEA,BARGE&include=method`,
    key
  );
  expect(res.status).toBe(200);
  const c = (await res.json()) as Chain;
  expect(c.legs.map((l) => [l.origin, l.destination, l.modality])).toEqual([
    ["CNCTU", "CNSHA", "RAIL"],
    ["CNSHA", "NLRTM", "DEEPSEA"],
    ["NLRTM", "DEDUI", "BARGE"],
  ]);
  // Rail does not reach Yangshan (the CNSHA point): the engine ends the train at the port's
  // landside (Luchao, the mainland end of the Donghai Bridge), as /emissions does; no terminal.
  expect(c.legs[0].destinationTerminal).toBeUndefined();
  expect(Math.round(c.legs[0].distance / 1000)).toBe(2236);
  for (const l of c.legs) {
    const to = l.destinationTerminal?.id ?? l.destination;
    const e = (await (
      await s.get(
        `/route-information/api/emissions?origin=${l.origin}&destination=${to}&modality=${l.modality}`,
        key
      )
    ).json()) as { co2eTeu: number; co2eTon: number; distance: number };
    expect([l.distance, l.co2eTeu, l.co2eTon]).toEqual([e.distance, e.co2eTeu, e.co2eTon]);
  }
  expect(c.legs[1].method!.tradeLane).toBe("Asia to-from North Europe");
  expect(c.hubs.map((h) => [h.point, h.hubType, h.co2eTeu])).toEqual([
    ["CNSHA", "MARITIME_CONTAINER_TERMINAL", 10.7],
    ["NLRTM", "MARITIME_CONTAINER_TERMINAL", 10.7],
  ]);
  expect(c.total.hubsByType).toEqual({ MARITIME_CONTAINER_TERMINAL: 21.4 });
  const sum = c.legs.reduce((t, l) => t + l.co2eTeu, 0) + 21.4;
  expect(c.total.co2eTeu).toBeCloseTo(sum, 3);
  expect(c.total.distance).toBe(c.legs.reduce((t, l) => t + l.distance, 0));
  // 3 legs charged, then 3 single /emissions calls.
  expect(await balance(key)).toBe(100 - 3 - 3);
});

test("a rail terminal between truck and train; shipment totals with containers", async () => {
  const { key } = await s.account({ credits: 10 });
  const res = await s.get(
    `${CHAIN}?points=DEDUI,DEHAM,NLRTM&modalities=TRUCK,RAIL&containers=2&containerType=40HC`,
    key
  );
  expect(res.status).toBe(200);
  const c = (await res.json()) as Chain;
  expect(c.hubs[0].hubType).toBe("RAIL_TERMINAL");
  // GLEC transshipment 0.6 kg CO2e/t × 20 t payload of a 40' box, per TEU = 6 kg.
  expect(c.hubs[0].co2eTeu).toBe(6);
  expect(c.hubs[0].co2eKg).toBe(24);
  for (const l of c.legs) expect(l.co2eKg).toBeCloseTo(2 * 2 * l.co2eTeu, 3);
  expect(c.total.co2eKg).toBeCloseTo(c.legs[0].co2eKg! + c.legs[1].co2eKg! + 24, 3);
});

test("bad input: modalities count, unknown modality, one point; free tier; not enough credits", async () => {
  const { key } = await s.account({ credits: 2 });
  const wrong = await s.get(`${CHAIN}?points=CNSHA,NLRTM,DEDUI&modalities=DEEPSEA`, key);
  expect(wrong.status).toBe(400);
  expect((await problemOf(wrong)).detail).toMatch(/modalities must give one modality per leg: 2/);
  const plane = await s.get(`${CHAIN}?points=CNSHA,NLRTM&modalities=PLANE`, key);
  expect((await problemOf(plane)).detail).toMatch(/modalities "PLANE" is not allowed/);
  const one = await s.get(`${CHAIN}?points=CNSHA&modalities=`, key);
  expect((await problemOf(one)).detail).toMatch(/points must list 2 to/);
  const poor = await s.get(
    `${CHAIN}?points=CNCTU,CNSHA,NLRTM,DEDUI&modalities=RAIL,DEEPSEA,BARGE`,
    key
  );
  expect(poor.status).toBe(402);
  expect(await balance(key)).toBe(2);
  const free = await s.account({ tier: "free", credits: 10 });
  const f = await s.get(`${CHAIN}?points=CNSHA,NLRTM&modalities=DEEPSEA`, free.key);
  expect(f.status).toBe(402);
  const refusal = await problemOf(f);
  expect(refusal.title).toBe("Free Tier Not Allowed");
  expect(refusal.detail).toMatch(/^\/route-information\/api\/chain is not available/);
});

test("20 concurrent 3-leg chains on 10 credits: 3 × 200 and 17 × 402, the ledger holds exactly the 3 answered chains' 9 legs as `chain`", async () => {
  const { key, account } = await s.account({ credits: 10 });
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      s.get(`${CHAIN}?points=DEDUI,DEHAM,NLRTM,BEANR&modalities=TRUCK,RAIL,TRUCK`, key)
    )
  );
  const statuses = answers.map((a) => a.status).sort();
  expect(statuses).toEqual([...Array(3).fill(200), ...Array(17).fill(402)]);
  const ids = answers.filter((a) => a.status === 200).map((a) => a.headers.get("request-id"));
  const rows = s.store.db
    .prepare("SELECT request_id, endpoint, cost FROM ledger WHERE account_id = ?")
    .all(account.id) as Array<{ request_id: string; endpoint: string; cost: number }>;
  expect(rows).toHaveLength(9);
  expect(new Set(rows.map((r) => r.endpoint))).toEqual(new Set(["chain"]));
  expect(new Set(rows.map((r) => r.request_id))).toEqual(new Set(ids));
  expect(await balance(key)).toBe(1);
  for (const a of answers.filter((x) => x.status === 402))
    expect((await problemOf(a)).detail).toMatch(/balance 1, this call costs 3/);
});

test("include=eca: each leg's EU ETS share; legs through Tanger Med (not a port of call) are one voyage", async () => {
  const { key } = await s.account({ credits: 100 });
  type EtsChain = {
    legs: Array<{
      co2eTeuTtw?: number;
      ets: { scope: string; share: number; co2eTeuCovered: number };
    }>;
  };
  const get = async (points: string) => {
    const res = await s.get(
      `${CHAIN}?points=${points}&modalities=DEEPSEA,SHORTSEA&include=eca,method&year=2026`,
      key
    );
    expect(res.status).toBe(200);
    return (await res.json()) as EtsChain;
  };
  // Shanghai -> Tanger Med -> Valencia: one voyage Shanghai -> Valencia, 50 % on both legs.
  const tanger = await get("CNSHA,MAPTM,ESVLC");
  expect(tanger.legs.map((l) => [l.ets.scope, l.ets.share])).toEqual([
    ["EU–non-EU", 0.5],
    ["EU–non-EU", 0.5],
  ]);
  for (const l of tanger.legs) expect(l.ets.co2eTeuCovered).toBeCloseTo(l.co2eTeuTtw! * 0.5, 2);
  // Through Singapore (a port of call): the first voyage is outside the EU, the second 50 %.
  const singapore = await get("CNSHA,SGSIN,ESVLC");
  expect(singapore.legs.map((l) => l.ets.share)).toEqual([0, 0.5]);
  // Without include=eca no ets block.
  const plain = (await (
    await s.get(`${CHAIN}?points=CNSHA,MAPTM&modalities=DEEPSEA`, key)
  ).json()) as { legs: Array<{ ets?: unknown }> };
  expect(plain.legs[0].ets).toBeUndefined();
});

test("property (engine): random chains — each leg is the /emissions leg, total = legs + hubs of their types", () => {
  const engine = testEngine();
  const sets = loadFactorSets(engine.parts.emissions as FactorEmissionCalculator);
  const PORTS = ["CNSHA", "SGSIN", "NLRTM", "DEHAM", "BEANR", "USNYC", "GBFXT", "ITGOA", "DEDUI"];
  const MODES = ["DEEPSEA", "SHORTSEA", "TRUCK", "RAIL", "BARGE"] as const;
  let checked = 0;
  fc.assert(
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...PORTS), fc.constantFrom(...MODES)), {
        minLength: 1,
        maxLength: 4,
      }),
      fc.constantFrom(...PORTS),
      (hops, last) => {
        const points = [...hops.map((h) => h[0]), last];
        const modalities = hops.map((h) => h[1]);
        let c;
        try {
          c = chainEmissions(engine, sets, {
            points: points.join(","),
            modalities: modalities.join(","),
          });
        } catch (e) {
          // No route for some leg (e.g. TRUCK across the sea): that is not what is checked here.
          expect(String((e as Error).message)).toMatch(/route|No /i);
          return;
        }
        checked++;
        c.legs.forEach((l, i) => {
          const e = engine.emissions({
            origin: l.originTerminal?.id ?? points[i],
            destination: l.destinationTerminal?.id ?? points[i + 1],
            modality: modalities[i],
          });
          expect([l.distance, l.co2eTeu]).toEqual([e.distance, e.co2eTeu]);
        });
        c.hubs.forEach((h, i) =>
          expect(h.hubType).toBe(hubTypeFor(modalities[i], modalities[i + 1]))
        );
        const total =
          c.legs.reduce((t, l) => t + l.co2eTeu, 0) + c.hubs.reduce((t, h) => t + h.co2eTeu, 0);
        expect(c.total.co2eTeu).toBeCloseTo(total, 3);
      }
    ),
    { numRuns: 60 }
  );
  expect(checked).toBeGreaterThan(5);
});
