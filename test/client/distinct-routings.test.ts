/** distinctRoutings: one row per routing (legs, services, transfer ports), departures kept. */
import { distinctRoutings, frequencyText, routingKeyOf } from "../../src/client/distinct-routings";
import type { RouteOption } from "../../src/client/types";

function option(id: string, departure: string, legs: Array<[string, string, string, string]>) {
  return {
    id,
    leadTimeInMinutes: 1440 * 20,
    earliestPickup: departure,
    latestDropOff: departure,
    emissionsInKgCo2e: 500,
    transfers: legs.length - 1,
    transferEmissionsInKgCo2e: 0,
    truckToOriginInMeters: 0,
    truckToDestinationInMeters: 0,
    legs: legs.map(([origin, destination, modality, service], i) => ({
      origin,
      originTerminals: [],
      destination,
      destinationTerminals: [],
      modality,
      operators: [
        {
          id: "op1",
          name: "Line",
          scac: "LINE",
          serviceCodes: [service],
          collaboratingOperators: [],
        },
      ],
      departureDate: i === 0 ? departure : departure,
      arrivalDate: departure,
      distanceInMeters: 1,
      emissionsInKgCo2e: 1,
    })),
  } as unknown as RouteOption;
}

const viaAntwerp: Array<[string, string, string, string]> = [
  ["NLRTM", "BEANR", "BARGE", "B1"],
  ["BEANR", "DEDUI", "RAIL", "R1"],
];
const viaAntwerpOtherService: Array<[string, string, string, string]> = [
  ["NLRTM", "BEANR", "BARGE", "B2"],
  ["BEANR", "DEDUI", "RAIL", "R1"],
];
const direct: Array<[string, string, string, string]> = [["NLRTM", "DEDUI", "BARGE", "B1"]];

test("weekly departures of one routing become one row with its next departure", () => {
  const options = [
    option("a3", "2026-12-15T08:00:00Z", viaAntwerp),
    option("d1", "2026-12-02T10:00:00Z", direct),
    option("a1", "2026-12-01T08:00:00Z", viaAntwerp),
    option("b1", "2026-12-03T08:00:00Z", viaAntwerpOtherService),
    option("a2", "2026-12-08T08:00:00Z", viaAntwerp),
  ];
  const rows = distinctRoutings(options);
  expect(rows.map((r) => r.next.id)).toEqual(["a1", "d1", "b1"]);
  expect(rows[0].departures.map((o) => o.id)).toEqual(["a1", "a2", "a3"]);
  expect(rows[0].intervalDays).toBe(7);
  expect(rows[0].frequency).toBe("weekly");
  expect(rows[1].frequency).toBe("once in the window");
  expect(rows[2].departures).toHaveLength(1);
  expect(routingKeyOf(options[0])).toBe("NLRTM>BEANR BARGE [op1:B1] | BEANR>DEDUI RAIL [op1:R1]");
});

test("frequency in words", () => {
  expect(frequencyText(1)).toBe("daily");
  expect(frequencyText(7.4)).toBe("weekly");
  expect(frequencyText(14)).toBe("every 2 weeks");
  expect(frequencyText(10)).toBe("every 10 days");
  expect(frequencyText(undefined)).toBe("once in the window");
});
