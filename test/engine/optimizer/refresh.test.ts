/** A long-running optimizer with a live clock re-expands its weekly services as time passes. */
import { createOptimizer } from "../../../src/engine/optimizer";
import { testGeography, testParameters, T0 } from "./helpers";

const PORTS = [
  { locode: "ZZAAA", lat: 0, lng: 0 },
  { locode: "ZZBBB", lat: 1, lng: 1 },
];

test("the timetable follows the clock: weekly departures stay available for scheduleWeeks ahead", () => {
  const geo = testGeography(PORTS);
  let clock = new Date(T0);
  const optimizer = createOptimizer({
    data: {
      operators: [{ scac: "OPAA", name: "Alpha", source: "test" }],
      services: [
        {
          code: "W1",
          operator: "OPAA",
          modality: "SHORTSEA",
          rotation: [{ locode: "ZZAAA" }, { locode: "ZZBBB" }],
          departuresPerWeek: 1,
          firstDeparture: { weekday: 3, hour: 12 },
          source: "test",
        },
      ],
      voyages: [],
    },
    parameters: testParameters(), // scheduleWeeks: 4
    geography: geo,
    resolvePlace: geo.resolvePlace,
    now: clock,
    clock: () => clock,
  });
  const query = {
    origin: "ZZAAA",
    originType: "LOCODE",
    destination: "ZZBBB",
    destinationType: "LOCODE",
  };
  const first = optimizer.search(query).results;
  expect(first.length).toBe(4); // four weekly departures in the 28-day default window
  const builtFirst = optimizer.network;
  clock = new Date(T0 + 10 * 7 * 86_400_000); // ten weeks later: beyond the first build's horizon
  const later = optimizer.search(query).results;
  expect(optimizer.network).not.toBe(builtFirst);
  expect(later.length).toBe(4);
  expect(Date.parse(later[0].latestDropOff)).toBeGreaterThanOrEqual(clock.getTime());
  // Departures are Wednesdays 12:00 UTC, one week apart.
  const days = later
    .map((o) => new Date(o.latestDropOff))
    .sort((a, b) => a.getTime() - b.getTime());
  expect(days.map((d) => [d.getUTCDay(), d.getUTCHours()])).toEqual([
    [3, 12],
    [3, 12],
    [3, 12],
    [3, 12],
  ]);
});
