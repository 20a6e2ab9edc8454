/**
 * TRUCK durations follow the driving-time rules of the region (issue 30 item 3): EU/AETR in Europe,
 * US hours of service in the US, named in include=time; RAIL and BARGE name their assumptions.
 */
import fc from "fast-check";
import { loadEngine } from "../../../src/data/load-engine";
import { loadServiceSpeeds } from "../../../src/data/voyage";
import { voyageExtras } from "../../../src/service/routes/emissions-body";
import {
  drivingRulesFor,
  EU_RULES,
  restHours,
  US_RULES,
} from "../../../src/engine/voyage/driving-rules";
import { TransitTime, transitTime } from "../../../src/engine/voyage/time";

const engine = loadEngine();

/** include=time of a lane, as the service answers it. */
function timeOf(origin: string, destination: string, modality: string): TransitTime {
  const { result } = engine.resolveAndRoute({ origin, destination, modality });
  return voyageExtras(
    { route: result, modality: modality as never },
    {},
    new Set(["time"]) as never
  ).time as TransitTime;
}

test("EU: 45 min after 4.5 h, 9 h a day, 11 h rest between days", () => {
  expect(restHours(4.5, EU_RULES)).toBe(0);
  expect(restHours(4.6, EU_RULES)).toBe(0.75);
  expect(restHours(9, EU_RULES)).toBe(0.75);
  expect(restHours(9.5, EU_RULES)).toBe(0.75 + 11);
  expect(restHours(18, EU_RULES)).toBe(0.75 + 11 + 0.75);
  // Seven days of driving: six daily periods, then the 45 h weekly rest.
  expect(restHours(63, EU_RULES)).toBe(7 * 0.75 + 5 * 11 + 45);
});

test("US: 30 min after 8 h, 11 h a day, 10 h off duty, 34 h restart after 70 h", () => {
  expect(restHours(8, US_RULES)).toBe(0);
  expect(restHours(11, US_RULES)).toBe(0.5);
  expect(restHours(12, US_RULES)).toBe(0.5 + 10);
  // 70 h = 6 days of 11 h + 4 h: then the restart before hour 71.
  expect(restHours(71, US_RULES)).toBe(6 * 0.5 + 6 * 10 + 34);
});

test("property: rests never shrink as driving grows, and no day drives more than the rules allow", () => {
  for (const rules of [EU_RULES, US_RULES]) {
    fc.assert(
      fc.property(
        fc.double({ min: 0.01, max: 300, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        (hours, more) => {
          const rest = restHours(hours, rules);
          expect(restHours(hours + more, rules)).toBeGreaterThanOrEqual(rest);
          // Daily rests at least as many as full days of driving before the last.
          const days = Math.ceil(hours / rules.dailyDrivingHours - 1e-9);
          expect(rest).toBeGreaterThanOrEqual(
            (days - 1) * Math.min(rules.dailyRestHours, rules.weeklyRestHours)
          );
          // Elapsed time: at least the driving, never more than driving + a full rest per day + breaks.
          const breaks = Math.ceil(hours / rules.maxSpellHours) * rules.breakHours;
          expect(rest).toBeLessThanOrEqual(days * rules.weeklyRestHours + breaks);
        }
      ),
      { numRuns: 300 }
    );
  }
});

test("Łódź → Hamburg by truck takes a day and a bit under EU rules, not 0.57 days", () => {
  const t = timeOf("PLLOD", "DEHAM", "TRUCK");
  expect(t.rules.id).toBe("EU");
  expect(t.rules.description).toMatch(/561\/2006/);
  // About 800 km: 13 h at the wheel, so a break, a daily rest and more driving.
  expect(t.sailingHours).toBeGreaterThan(11);
  expect(t.restHours).toBeGreaterThanOrEqual(11 + 0.75);
  expect(t.days).toBeGreaterThan(0.95);
  expect(t.days).toBe(Math.round(((t.sailingHours + t.restHours) / 24) * 1000) / 1000);
});

test("a US lane follows US hours of service; a lane elsewhere says the EU limits are assumed", () => {
  const us = timeOf("USLAX", "USNYC", "TRUCK");
  expect(us.rules.id).toBe("US");
  expect(us.restHours).toBe(restHours(us.sailingHours, US_RULES));
  expect(
    drivingRulesFor({ from: { lat: 31.2, lng: 121.5 }, to: { lat: 39.9, lng: 116.4 } })
  ).toMatchObject({
    id: "EU",
    assumed: true,
  });
  const t = transitTime(1_000_000, "TRUCK", loadServiceSpeeds(), {
    lane: { from: { lat: 31.2, lng: 121.5 }, to: { lat: 39.9, lng: 116.4 } },
  });
  expect(t.rules.id).toBe("EU (assumed)");
});

test("RAIL and BARGE name their assumptions; they have no rests", () => {
  for (const modality of ["RAIL", "BARGE"] as const) {
    const t = transitTime(500_000, modality, loadServiceSpeeds());
    expect(t.rules.id).toBe("average speed");
    expect(t.rules.description.length).toBeGreaterThan(20);
    expect(t.restHours).toBe(0);
  }
});
