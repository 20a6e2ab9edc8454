/** Schedule imports refuse impossible voyages and name the row (issue 10). */
import { parseConnectionsCsv } from "../../src/engine/optimizer/import/csv";
import { parseDcsaVesselSchedules } from "../../src/engine/optimizer/import/dcsa";

const HEAD =
  "operator_scac,service_code,modality,origin_locode,origin_terminal,departure,destination_locode,destination_terminal,arrival,vessel_name,vessel_imo,vessel_mmsi";
const row = (dep: string, arr: string, modality = "DEEPSEA") =>
  `MAEU,AE1,${modality},CNSHA,,${dep},NLRTM,,${arr},,,`;

test("CSV: arrival at or before departure and legs over a year are refused, naming the line", () => {
  const ok = row("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z");
  expect(parseConnectionsCsv([HEAD, ok].join("\n"), { source: "t" }).voyages).toHaveLength(1);
  expect(() =>
    parseConnectionsCsv(
      [HEAD, ok, row("2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z")].join("\n"),
      {
        source: "t",
      }
    )
  ).toThrow(/line 3: arrival is not after departure/);
  expect(() =>
    parseConnectionsCsv([HEAD, row("2026-01-01T00:00:00Z", "2027-06-01T00:00:00Z")].join("\n"), {
      source: "t",
    })
  ).toThrow(/line 2: CNSHA→NLRTM takes more than a year/);
});

test("CSV: speeds outside the modality's range are refused when distances are known", () => {
  const distanceKm = () => 19_000;
  // 19,000 km in one day: 790 km/h, no ship does that.
  expect(() =>
    parseConnectionsCsv([HEAD, row("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z")].join("\n"), {
      source: "t",
      distanceKm,
    })
  ).toThrow(/line 2: CNSHA→NLRTM at 791\.7 km\/h is outside 0\.5–60 km\/h for DEEPSEA/);
  expect(
    parseConnectionsCsv([HEAD, row("2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z")].join("\n"), {
      source: "t",
      distanceKm,
    }).voyages
  ).toHaveLength(1);
});

test("DCSA: a vessel schedule whose calls go back in time is refused, naming it", () => {
  const call = (locode: string, type: "ARRI" | "DEPA", at: string) => ({
    location: { UNLocationCode: locode },
    timestamps: [{ eventTypeCode: type, eventClassifierCode: "PLN", eventDateTime: at }],
  });
  const schedule = {
    carrierServiceCode: "AE1",
    vesselSchedules: [
      {
        vessel: { operatorCarrierCode: "MAEU" },
        transportCalls: [
          call("CNSHA", "DEPA", "2026-03-01T00:00:00Z"),
          call("NLRTM", "ARRI", "2026-02-01T00:00:00Z"),
        ],
      },
    ],
  };
  expect(() => parseDcsaVesselSchedules(schedule, { source: "t" })).toThrow(
    /service AE1, vessel schedule 1: impossible voyage: CNSHA→NLRTM arrives/
  );
});
