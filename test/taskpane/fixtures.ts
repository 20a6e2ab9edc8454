/** Route options shaped like the optimizer's records (src/engine/optimizer/types.ts), for writer and map tests. */
import type { RouteOption } from "../../src/client/types";

const op = (name: string, scac: string) => ({
  id: `id-${scac}`,
  name,
  scac,
  serviceCodes: [`${scac}-AE1`],
  collaboratingOperators: [],
});

export const OPTIONS: RouteOption[] = [
  {
    id: "11111111-1111-4111-8111-111111111111",
    leadTimeInMinutes: 30 * 1440 + 720, // 30.5 days
    latestDropOff: "2026-01-01T12:00:00Z",
    earliestPickup: "2026-02-01T00:00:00Z",
    emissionsInKgCo2e: 1234.5,
    transfers: 0,
    transferEmissionsInKgCo2e: 0,
    truckToOriginInMeters: 0,
    truckToDestinationInMeters: 12_500,
    legs: [
      {
        origin: "CNSHA",
        originTerminals: [{ id: "t1", name: "Yangshan Phase IV" }],
        destination: "NLRTM",
        destinationTerminals: [{ id: "t2", name: "ECT Delta" }],
        modality: "DEEPSEA",
        operators: [op("Maersk", "MAEU")],
        departureDate: "2026-01-02T00:00:00Z",
        arrivalDate: "2026-01-31T00:00:00Z",
        distanceInMeters: 19_500_000,
        emissionsInKgCo2e: 1234.5,
        vessel: { name: "MAERSK ESSEX", imo: "9332779", mmsi: "219000000" },
      },
    ],
  },
  {
    id: "22222222-2222-4222-8222-222222222222",
    leadTimeInMinutes: 35 * 1440,
    latestDropOff: "2026-01-03T00:00:00Z",
    earliestPickup: "2026-02-07T00:00:00Z",
    emissionsInKgCo2e: 1500,
    transfers: 1,
    transferEmissionsInKgCo2e: 25,
    truckToOriginInMeters: 0,
    truckToDestinationInMeters: 0,
    legs: [
      {
        origin: "CNSHA",
        originTerminals: [],
        destination: "SGSIN",
        destinationTerminals: [],
        modality: "DEEPSEA",
        operators: [op("CMA CGM", "CMDU")],
        departureDate: "2026-01-04T00:00:00Z",
        arrivalDate: "2026-01-09T00:00:00Z",
        distanceInMeters: 3_900_000,
        emissionsInKgCo2e: 300,
      },
      {
        origin: "SGSIN",
        originTerminals: [],
        destination: "NLRTM",
        destinationTerminals: [],
        modality: "DEEPSEA",
        operators: [op("CMA CGM", "CMDU")],
        departureDate: "2026-01-10T00:00:00Z",
        arrivalDate: "2026-02-05T00:00:00Z",
        distanceInMeters: 15_300_000,
        emissionsInKgCo2e: 1100,
      },
      {
        origin: "NLRTM",
        originTerminals: [],
        destination: "DEDUI",
        destinationTerminals: [],
        modality: "BARGE",
        operators: [op("Contargo", "CTGO")],
        departureDate: "2026-02-05T12:00:00Z",
        arrivalDate: "2026-02-07T00:00:00Z",
        distanceInMeters: 230_000,
        emissionsInKgCo2e: 75,
      },
    ],
  },
];
