/** The search form model: form values → the query string of /route-optimizer/api/external, with field errors. */
import {
  buildSearchQuery,
  emptySearchForm,
  fieldOfDetail,
  leadTimeDuration,
  SearchFormValues,
  splitLocodes,
} from "../../src/taskpane/search-form";

const form = (over: Partial<SearchFormValues>): SearchFormValues => ({
  ...emptySearchForm(),
  ...over,
});

describe("buildSearchQuery", () => {
  test("LOCODE to LOCODE with the default sort", () => {
    const built = buildSearchQuery(form({ origin: " cnsha ", destination: "NLRTM" }));
    expect(built.errors).toEqual([]);
    expect(built.queryString).toBe(
      "destination=NLRTM&destinationType=LOCODE&origin=CNSHA&originType=LOCODE&sort=LEAD_TIME"
    );
  });

  test("every parameter, arrays as repeated keys, types detected from the text", () => {
    const built = buildSearchQuery({
      origin: "31.23, 121.47",
      destination: "9f0a3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b",
      modalities: ["DEEPSEA", "BARGE"],
      minDeparture: "2026-03-01",
      maxDeparture: "2026-03-10",
      maxArrival: "2026-04-30",
      maxTransfers: "2",
      allRequiredOperators: ["MAEU"],
      anyRequiredOperators: ["CMDU", "HLCU"],
      excludedOperators: ["COSU"],
      anyRequiredLocodes: "sgsin, lkcmb",
      allRequiredLocodes: "NLRTM",
      excludedLocodes: "EGPSD;EGSUZ",
      maxFirstMileTruckingKm: "50",
      maxLastMileTruckingKm: "150",
      sort: "emissions",
      directSeaOnly: true,
      maxEmission: "2500.7",
      maxLeadTime: "40",
    });
    expect(built.errors).toEqual([]);
    expect(built.params).toMatchObject({
      originType: "GEO",
      origin: "31.23,121.47",
      destinationType: "TERMINAL",
      maxEmission: 2500,
      maxLeadTime: "P40D",
      sort: "EMISSIONS",
    });
    expect(built.queryString).toBe(
      "allRequiredLocodes=NLRTM&allRequiredOperators=MAEU&anyRequiredLocodes=SGSIN&anyRequiredLocodes=LKCMB" +
        "&anyRequiredOperators=CMDU&anyRequiredOperators=HLCU&destination=9f0a3c1e-2b4d-4e6f-8a9b-0c1d2e3f4a5b" +
        "&destinationType=TERMINAL&directSeaOnly=true&excludedLocodes=EGPSD&excludedLocodes=EGSUZ&excludedOperators=COSU" +
        "&maxArrival=2026-04-30&maxDeparture=2026-03-10&maxEmission=2500&maxFirstMileTruckingKm=50&maxLastMileTruckingKm=150" +
        "&maxLeadTime=P40D&maxTransfers=2&minDeparture=2026-03-01&modalities=DEEPSEA&modalities=BARGE" +
        "&origin=31.23%2C121.47&originType=GEO&sort=EMISSIONS"
    );
  });

  test("all modalities ticked is the same as none", () => {
    const built = buildSearchQuery(
      form({
        origin: "CNSHA",
        destination: "NLRTM",
        modalities: ["DEEPSEA", "SHORTSEA", "BARGE", "RAIL", "TRUCK"],
      })
    );
    expect(built.params?.modalities).toBeUndefined();
  });

  test("errors name the field and what it accepts; no params then", () => {
    const built = buildSearchQuery(
      form({
        origin: "1,2,3",
        destination: "",
        minDeparture: "2026-03-10",
        maxDeparture: "2026-03-01",
        maxArrival: "2026-02-30",
        maxTransfers: "-1",
        excludedLocodes: "NLRTM, ROTTERDAM",
        maxEmission: "lots",
        maxLeadTime: "P1M",
        maxFirstMileTruckingKm: "6000",
        allRequiredOperators: ["MAEU"],
        excludedOperators: ["MAEU"],
        sort: "cheapest",
      })
    );
    expect(built.params).toBeUndefined();
    const byField = Object.fromEntries(built.errors.map((e) => [e.field, e.message]));
    expect(Object.keys(byField).sort()).toEqual([
      "destination",
      "excludedLocodes",
      "excludedOperators",
      "maxArrival",
      "maxDeparture",
      "maxEmission",
      "maxFirstMileTruckingKm",
      "maxLeadTime",
      "maxTransfers",
      "origin",
      "sort",
    ]);
    // Messages name the fields as the pane labels them (From, To, Depart by…).
    expect(byField.origin).toMatch(/^From "1,2,3": with decimal commas put ; between lat and lng/);
    expect(byField.destination).toMatch(/^To is required/);
    expect(byField.maxDeparture).toBe("Depart by must not be before Depart from.");
    expect(byField.maxArrival).toMatch(/"2026-02-30" is not a date: use YYYY-MM-DD/);
    expect(byField.maxTransfers).toMatch(/whole number from 0 to 1000/);
    expect(byField.excludedLocodes).toMatch(/"ROTTERDAM" is not a UN\/LOCODE/);
    expect(byField.sort).toMatch(
      /allowed values: LEAD_TIME, EMISSIONS, TRANSFERS, DEPARTURE, ARRIVAL/
    );
  });
});

test("lead time: days or ISO 8601 durations", () => {
  expect(leadTimeDuration("21")).toBe("P21D");
  expect(leadTimeDuration("2.5")).toBe("P2DT12H");
  expect(leadTimeDuration("0.25")).toBe("PT6H");
  expect(leadTimeDuration("pt36h")).toBe("PT36H");
  expect(leadTimeDuration("0")).toBeUndefined();
  expect(leadTimeDuration("P0D")).toBeUndefined();
  expect(leadTimeDuration("P1M")).toBeUndefined();
});

test("LOCODE lists split on commas, semicolons and spaces", () => {
  expect(splitLocodes(" nlrtm, BEANR;deham  nlrtm ")).toEqual(["NLRTM", "BEANR", "DEHAM"]);
});

test("a problem detail maps to the field it names first", () => {
  expect(
    fieldOfDetail("maxDeparture must not be before minDeparture (2026-01-01T00:00:00.000Z).")
  ).toBe("maxDeparture");
  expect(
    fieldOfDetail('originType "X" is not allowed; allowed values: LOCODE, TERMINAL, GEO.')
  ).toBe("originType");
  expect(fieldOfDetail('origin "NLXXX" is a LOCODE but originType is TERMINAL')).toBe("origin");
  expect(fieldOfDetail("querystring/maxTransfers must be integer")).toBe("maxTransfers");
  expect(fieldOfDetail('excludedOperators "ZZZZ" is not a known operator; give a SCAC')).toBe(
    "excludedOperators"
  );
  expect(fieldOfDetail("No route between the places")).toBeUndefined();
});
