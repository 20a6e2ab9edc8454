/**
 * One emission model (issue 20 item 1), over HTTP on loopback: every leg the optimizer returns has
 * the emissions /emissions gives for that leg, and the optimizer's emission function gives the
 * /emissions figure for random lanes. Random lanes and random origin/destination pairs of the
 * sample network; the real engine, optimizer and server.
 */
import fc from "fast-check";
import { engineGeography } from "../../src/engine/optimizer";
import { FactorEmissionCalculator, hubTypeFor } from "../../src/engine/emissions";
import { ScheduleOptimizer } from "../../src/engine/optimizer/optimizer";
import { RouteOption } from "../../src/engine/optimizer/types";
import { startTestServer, testEngine, testOptimizer, TestServer } from "./support";

const PORTS = [
  "CNSHA",
  "CNNGB",
  "CNYTN",
  "SGSIN",
  "KRPUS",
  "JPTYO",
  "MYPKG",
  "AEJEA",
  "INNSA",
  "LKCMB",
  "NLRTM",
  "BEANR",
  "DEHAM",
  "GBFXT",
  "FRLEH",
  "ESALG",
  "ESVLC",
  "ITGOA",
  "GRPIR",
  "TRIST",
  "EGPSD",
  "MAPTM",
  "NGLOS",
  "ZADUR",
  "USNYC",
  "USSAV",
  "USLAX",
  "USOAK",
  "CAVAN",
  "BRSSZ",
  "PAMIT",
  "AUSYD",
  "DEDUI",
  "PLGDN",
  "SEGOT",
];
const MODES = ["DEEPSEA", "SHORTSEA", "RAIL", "TRUCK", "BARGE"] as const;

let s: TestServer;
let key: string;
const engine = testEngine();
const geo = engineGeography(engine);

beforeAll(async () => {
  // Hundreds of calls in a burst from one key: the property is about figures, not rate limits.
  s = await startTestServer({ rateLimit: { perSecond: 10_000, burst: 10_000 } });
  ({ key } = await s.account({ credits: 100_000, optimizerAccess: true, optimizerCredits: 1000 }));
}, 120_000);
afterAll(async () => s?.stop());

interface EmissionsAnswer {
  co2eTeu: number;
  distance: number;
  intensity: { gCo2ePerTeuKm: number };
  method: { tradeLane?: string; region?: string };
}

async function emissions(q: Record<string, string>): Promise<EmissionsAnswer | null> {
  const qs = new URLSearchParams({ ...q, include: "method" }).toString();
  const res = await s.get(`/route-information/api/emissions?${qs}`, key);
  if (res.status === 404) return null; // no route for this modality
  expect(res.status).toBe(200);
  return (await res.json()) as EmissionsAnswer;
}

test("random lanes: the optimizer's emission function equals /emissions to the gram", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...PORTS),
      fc.constantFrom(...PORTS),
      fc.constantFrom(...MODES),
      async (a, b, modality) => {
        fc.pre(a !== b);
        const r = await emissions({ origin: a, destination: b, modality });
        if (!r) return;
        const from = engine.parts.places.resolve(a, "origin");
        const to = engine.parts.places.resolve(b, "destination");
        const kg = geo.emissionsKgPerTeu(modality, r.distance, { from, to });
        expect(kg).toBe(r.co2eTeu);
      }
    ),
    { numRuns: 40 }
  );
}, 300_000);

test("random optimizer options: every leg equals /emissions for that leg; transfers use the chain's hub factors", async () => {
  const optimizer = testOptimizer() as ScheduleOptimizer;
  const stops = optimizer.network.stops.map((x) => x.locode);
  const calc = engine.parts.emissions as FactorEmissionCalculator;
  let legsChecked = 0;
  let exactLegs = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...stops), fc.constantFrom(...stops), async (a, b) => {
      fc.pre(a !== b);
      const res = await s.get(
        `/route-optimizer/api/external?origin=${a}&originType=LOCODE&destination=${b}&destinationType=LOCODE`,
        key
      );
      expect(res.status).toBe(200);
      const { results } = (await res.json()) as { results: RouteOption[] };
      for (const o of results.slice(0, 3)) {
        let hubs = 0;
        for (let i = 1; i < o.legs.length; i++)
          hubs += calc.hubEmissions(hubTypeFor(o.legs[i - 1].modality, o.legs[i].modality)).perTeu;
        expect(o.transferEmissionsInKgCo2e).toBeCloseTo(hubs, 3);
        const legSum = o.legs.reduce((t, l) => t + l.emissionsInKgCo2e, 0);
        expect(o.emissionsInKgCo2e).toBeCloseTo(legSum + o.transferEmissionsInKgCo2e, 3);
        for (const l of o.legs) {
          // The leg's own ends: the terminals it calls at (the LOCODE point when it names none).
          const r = await emissions({
            origin: l.originTerminals[0]?.id ?? l.origin,
            destination: l.destinationTerminals[0]?.id ?? l.destination,
            modality: l.modality,
          });
          expect(r).not.toBeNull();
          legsChecked++;
          if (r!.distance === l.distanceInMeters) {
            exactLegs++;
            expect(l.emissionsInKgCo2e).toBe(r!.co2eTeu);
          } else {
            // A leg past intermediate calls sails farther than the direct route: same intensity
            // (same lane from the same ends) over the leg's own distance.
            const expected = (r!.intensity.gCo2ePerTeuKm * l.distanceInMeters) / 1e6;
            expect(Math.abs(l.emissionsInKgCo2e - expected)).toBeLessThanOrEqual(
              0.001 + (0.0005 * l.distanceInMeters) / 1e6
            );
          }
        }
      }
    }),
    { numRuns: 12 }
  );
  expect(legsChecked).toBeGreaterThan(5);
  expect(exactLegs).toBeGreaterThan(0);
}, 600_000);

test("CNSHA -> NLRTM: /emissions and the optimizer's direct sailing use the same lane intensity", async () => {
  const r = (await emissions({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" }))!;
  expect(r.method.tradeLane).toBe("Asia to-from North Europe");
  const res = await s.get(
    "/route-optimizer/api/external?origin=CNSHA&originType=LOCODE&destination=NLRTM&destinationType=LOCODE&modalities=DEEPSEA&directSeaOnly=true",
    key
  );
  const { results } = (await res.json()) as { results: RouteOption[] };
  const direct = results.find((o) => o.legs.length === 1)!;
  const leg = direct.legs[0];
  // 49.9 g CO2e/TEU-km over the sailing's own distance (was the 89.0 industry average).
  expect(leg.emissionsInKgCo2e).toBeCloseTo((49.9 * leg.distanceInMeters) / 1e6, 2);
  expect(hubTypeFor("DEEPSEA", "RAIL")).toBe("MARITIME_CONTAINER_TERMINAL");
});
