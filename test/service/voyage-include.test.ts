/**
 * include=time and include=eca (issue 20 item 5) on /distance, /emissions and batch items, over
 * the real server: transit time at default service speeds, distance inside ECAs/SECAs (the
 * Mediterranean SECA from 1 May 2025), the EU ETS share with the year's phase-in, and via=.
 */
import { EU_RULES, restHours } from "../../src/engine/voyage/driving-rules";
import fc from "fast-check";
import { startTestServer, TestServer } from "./support";

let s: TestServer;
let key: string;
beforeAll(async () => {
  s = await startTestServer({}, { optimizer: null });
  ({ key } = await s.account({ credits: 10_000 }));
  // The first sea route loads the sea network: paid here, under the setup's longer timeout, not
  // by the first test (it took over 60 s at load 13 with other suites in the same run).
  await get("distance", ASIA_EUROPE);
}, 300_000);
afterAll(async () => s?.stop());

interface Answer {
  distance: number;
  co2eTeu: number;
  co2eTeuTtw?: number;
  time?: { days: number; hours: number; speedKnots: number; portHours: number };
  eca?: { distanceInside: number; share: number; areas: Array<{ name: string; distance: number }> };
  ets?: {
    scope: string;
    share: number;
    phaseIn: number;
    coveredShare: number;
    co2eTeuCovered: number;
  };
}

async function get(path: string, q: Record<string, string>): Promise<Answer> {
  const res = await s.get(`/route-information/api/${path}?${new URLSearchParams(q)}`, key);
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
}

const ASIA_EUROPE = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" };

test("include=time: days at 16 kn by default, at speedKnots when given, plus portHours", async () => {
  const d = await get("distance", { ...ASIA_EUROPE, include: "time" });
  expect(d.time!.speedKnots).toBe(16);
  expect(d.time!.days).toBeCloseTo(d.distance / 1852 / 16 / 24, 3);
  const fast = await get("emissions", {
    ...ASIA_EUROPE,
    include: "time",
    speedKnots: "20",
    portHours: "48",
  });
  expect(fast.time!.days).toBeCloseTo((d.distance / 1852 / 20 + 48) / 24, 3);
  const truck = await get("distance", {
    origin: "NLRTM",
    destination: "ITMIL",
    modality: "TRUCK",
    include: "time",
  });
  // Driving at 60 km/h, plus the breaks and rests of the EU driving-time rules (issue 30.3).
  const time = truck.time as unknown as {
    sailingHours: number;
    restHours: number;
    rules: { id: string };
  };
  expect(time.sailingHours).toBeCloseTo(truck.distance / 1000 / 60, 1);
  expect(time.rules.id).toBe("EU");
  expect(time.restHours).toBe(restHours(time.sailingHours, EU_RULES));
  expect(truck.time!.hours).toBeCloseTo(time.sailingHours + time.restHours, 1);
});

test("include=eca: Asia-Europe passes the Mediterranean SECA (from 2025) and the North Sea ECA; ETS 50 % × phase-in", async () => {
  const now = await get("emissions", { ...ASIA_EUROPE, include: "eca,method", year: "2026" });
  const names = now.eca!.areas.map((a) => a.name);
  expect(names).toEqual(expect.arrayContaining(["MEDITERRANEAN_SEA", "NORTH_SEA"]));
  expect(now.eca!.distanceInside).toBe(now.eca!.areas.reduce((t, a) => t + a.distance, 0));
  // The Mediterranean from Port Said to Gibraltar is about 1,900 nm (3,500 km).
  const med = now.eca!.areas.find((a) => a.name === "MEDITERRANEAN_SEA")!.distance;
  expect(med).toBeGreaterThan(3_000_000);
  expect(med).toBeLessThan(4_200_000);
  expect(now.ets).toMatchObject({ scope: "EU–non-EU", share: 0.5, phaseIn: 1, coveredShare: 0.5 });
  expect(now.ets!.co2eTeuCovered).toBeCloseTo(now.co2eTeuTtw! * 0.5, 3);
  const before = await get("emissions", { ...ASIA_EUROPE, include: "eca", year: "2024" });
  expect(before.eca!.areas.map((a) => a.name)).not.toContain("MEDITERRANEAN_SEA");
  expect(before.ets).toMatchObject({ phaseIn: 0.4, coveredShare: 0.2 });
  const y2025 = await get("emissions", { ...ASIA_EUROPE, include: "eca", year: "2025" });
  expect(y2025.ets!.coveredShare).toBe(0.35);
});

test("include=eca: intra-EU is 100 %, a North Sea hop lies almost all inside, outside the EU 0", async () => {
  const ns = await get("emissions", {
    origin: "NLRTM",
    destination: "DEHAM",
    modality: "SHORTSEA",
    include: "eca",
    year: "2026",
  });
  expect(ns.ets).toMatchObject({ scope: "intra-EU", share: 1, coveredShare: 1 });
  expect(ns.eca!.share).toBeGreaterThan(0.9);
  const us = await get("emissions", {
    origin: "USNYC",
    destination: "USSAV",
    modality: "DEEPSEA",
    include: "eca",
  });
  expect(us.eca!.areas[0].name).toBe("NORTH_AMERICAN_ATLANTIC");
  expect(us.eca!.share).toBeGreaterThan(0.9);
  expect(us.ets!.share).toBe(0);
  const rail = await get("emissions", {
    origin: "NLRTM",
    destination: "DEDUI",
    modality: "RAIL",
    include: "eca",
  });
  expect(rail.eca!.distanceInside).toBe(0);
  expect(rail.ets!.scope).toBe("not a sea leg");
});

test("property: ECA distance never exceeds the distance; areas add up; time × speed = distance", async () => {
  const ports = [
    "CNSHA",
    "SGSIN",
    "NLRTM",
    "DEHAM",
    "USNYC",
    "USLAX",
    "ITGOA",
    "GRPIR",
    "SEGOT",
    "BRSSZ",
  ];
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...ports), fc.constantFrom(...ports), async (a, b) => {
      fc.pre(a !== b);
      const r = await get("distance", {
        origin: a,
        destination: b,
        modality: "DEEPSEA",
        include: "eca,time",
      });
      expect(r.eca!.distanceInside).toBeLessThanOrEqual(r.distance + 1);
      expect(r.eca!.distanceInside).toBe(r.eca!.areas.reduce((t, x) => t + x.distance, 0));
      expect(r.time!.hours * r.time!.speedKnots * 1852).toBeCloseTo(r.distance, -4);
    }),
    { numRuns: 15 }
  );
});

test("via=CAPE_OF_GOOD_HOPE: Suez or Cape side by side; batch items take the same parameters", async () => {
  const suez = await get("emissions", { ...ASIA_EUROPE, include: "time" });
  const cape = await get("emissions", {
    ...ASIA_EUROPE,
    via: "CAPE_OF_GOOD_HOPE",
    include: "time",
  });
  expect(cape.distance).toBeGreaterThan(suez.distance + 3_000_000);
  expect(cape.time!.days).toBeGreaterThan(suez.time!.days + 7);
  const res = await s.post(
    "/route-information/api/batch",
    {
      requests: [
        {
          type: "emissions",
          ...ASIA_EUROPE,
          via: "CAPE_OF_GOOD_HOPE",
          include: "time,eca,method",
          containers: 2,
        },
        { type: "distance", ...ASIA_EUROPE, include: "time", speedKnots: "20" },
        { type: "emissions", ...ASIA_EUROPE, include: "bogus" },
      ],
    },
    key
  );
  const { results } = (await res.json()) as {
    results: Array<{ status: number; body: Answer & { co2eKg?: number; detail?: string } }>;
  };
  expect(results[0].status).toBe(200);
  expect(results[0].body.distance).toBe(cape.distance);
  expect(results[0].body.co2eKg).toBeCloseTo(2 * results[0].body.co2eTeu, 3);
  expect(results[0].body.eca!.areas.map((a) => a.name)).not.toContain("MEDITERRANEAN_SEA");
  expect(results[1].body.time!.speedKnots).toBe(20);
  expect(results[2].status).toBe(400);
  expect(results[2].body.detail).toMatch(
    /allowed values \(comma-separated\): passages, method, time, eca/
  );
});

test("include=eca from coordinates: a bare point is under its nearest port's rules, as the same lane by code", async () => {
  const lanes = [
    { ...ASIA_EUROPE, include: "eca,method", year: "2026" },
    {
      origin: "NLRTM",
      destination: "DEHAM",
      modality: "SHORTSEA",
      include: "eca,method",
      year: "2026",
    },
  ];
  for (const lane of lanes) {
    const byCode = (await get("emissions", lane)) as Answer & {
      places: Record<"origin" | "destination", { lat: number; lng: number }>;
    };
    const at = (p: { lat: number; lng: number }) => `${p.lat},${p.lng}`;
    const byPoint = await get("emissions", {
      ...lane,
      origin: at(byCode.places.origin),
      destination: at(byCode.places.destination),
    });
    expect(byPoint.ets).toMatchObject({ scope: byCode.ets!.scope, share: byCode.ets!.share });
  }
  // The same lane's share differs between the two: the check can fail.
  const open = await get("emissions", {
    origin: "0,-30",
    destination: "10,-40",
    modality: "DEEPSEA",
    include: "eca",
  });
  expect(open.ets!.share).toBe(0);
});
