/** Every filter and sort of the route search on a small hand-made network with known times. */
import { ErrorKind, isRouteSheetsError, RouteSheetsError } from "../../../src/engine/errors";
import { RawQuery, RouteOption } from "../../../src/engine/optimizer/types";
import { GRAMS_PER_TEU_KM, optimizerFor, scheduleOf, T0, TestPort } from "./helpers";

const PORTS: TestPort[] = [
  { locode: "CNSHA", lat: 31.2, lng: 121.5, terminals: ["Yangshan Phase IV"] },
  { locode: "SGSIN", lat: 1.26, lng: 103.8 },
  { locode: "NLRTM", lat: 51.95, lng: 4.05, terminals: ["ECT Delta"] },
  { locode: "DEHAM", lat: 53.54, lng: 9.93 },
  { locode: "DEDUI", lat: 51.43, lng: 6.76, terminals: ["DeCeTe"] },
  { locode: "BEANR", lat: 51.27, lng: 4.26 },
];
const OPS: Array<[string, string]> = [
  ["MAEU", "Maersk"],
  ["HLCU", "Hapag-Lloyd"],
  ["MSCU", "MSC"],
  ["CMDU", "CMA CGM"],
  ["ZIMU", "ZIM"],
  ["CTGO", "Contargo"],
  ["TFG", "TFG Transfracht"],
];
const VESSEL = { name: "TEST VESSEL", imo: "9811000", mmsi: "353136000" };
const data = scheduleOf(OPS, [
  {
    op: "MAEU",
    partners: ["HLCU"],
    code: "AE1",
    modality: "DEEPSEA",
    vessel: VESSEL,
    calls: [
      ["CNSHA", 0, 0],
      ["SGSIN", 120, 144],
      ["NLRTM", 600, 620],
      ["DEHAM", 650, 650],
    ],
  },
  {
    op: "MSCU",
    code: "SWAN",
    modality: "DEEPSEA",
    calls: [
      ["CNSHA", 24, 24],
      ["NLRTM", 560, 560],
    ],
  },
  {
    op: "CMDU",
    code: "FAL1",
    modality: "DEEPSEA",
    calls: [
      ["CNSHA", 0, 0],
      ["SGSIN", 96, 96],
    ],
  },
  {
    op: "CMDU",
    code: "FAL3",
    modality: "DEEPSEA",
    calls: [
      ["SGSIN", 130, 130],
      ["BEANR", 560, 560],
    ],
  },
  {
    op: "CTGO",
    code: "RTM-DUI",
    modality: "BARGE",
    calls: [
      ["NLRTM", 640, 640],
      ["DEDUI", 670, 670],
    ],
  },
  {
    op: "TFG",
    code: "RTM-DUI-RAIL",
    modality: "RAIL",
    calls: [
      ["NLRTM", 630, 630],
      ["DEDUI", 650, 650],
    ],
  },
  {
    op: "TFG",
    code: "ANR-DUI-RAIL",
    modality: "RAIL",
    calls: [
      ["BEANR", 600, 600],
      ["DEDUI", 630, 630],
    ],
  },
]);
const { optimizer, geo } = optimizerFor(PORTS, data);

const base: RawQuery = {
  origin: "CNSHA",
  originType: "LOCODE",
  destination: "DEDUI",
  destinationType: "LOCODE",
  minDeparture: "2030-01-07",
};
const search = (extra: RawQuery = {}) => optimizer.search({ ...base, ...extra }).results;
const hoursAfterT0 = (isoText: string) => (Date.parse(isoText) - T0) / 3_600_000;
/** A route as its service codes, e.g. "SWAN>RTM-DUI-RAIL" (truck legs as TRUCK). */
const codes = (o: RouteOption) =>
  o.legs.map((l) => (l.modality === "TRUCK" ? "TRUCK" : l.operators[0].serviceCodes[0])).join(">");
const routes = (extra: RawQuery = {}) => search(extra).map(codes);

function expectError(
  query: RawQuery,
  kind: ErrorKind,
  parameter: string,
  detailPart?: string
): RouteSheetsError {
  try {
    optimizer.search(query);
  } catch (e) {
    if (!isRouteSheetsError(e)) throw e;
    expect(e.kind).toBe(kind);
    expect(e.parameter).toBe(parameter);
    expect(e.detail).toContain(parameter);
    if (detailPart) expect(e.detail).toContain(detailPart);
    return e;
  }
  throw new Error(`expected ${kind} for ${parameter}`);
}

describe("route search on a known network", () => {
  test("returns the Pareto set: fastest direct+rail and the earlier-arriving double transshipment", () => {
    const results = search();
    expect(results.map(codes)).toEqual(["SWAN>RTM-DUI-RAIL", "FAL1>FAL3>ANR-DUI-RAIL"]);
    const [fast, early] = results;
    expect(fast.leadTimeInMinutes).toBe(626 * 60);
    expect(hoursAfterT0(fast.latestDropOff)).toBe(24);
    expect(hoursAfterT0(fast.earliestPickup)).toBe(650);
    expect(fast.transfers).toBe(1);
    expect(early.leadTimeInMinutes).toBe(630 * 60);
    expect(early.transfers).toBe(2);
    expect(hoursAfterT0(early.earliestPickup)).toBe(630);
  });

  test("fills every field of options, legs and operators with consistent values", () => {
    for (const o of search()) {
      expect(o.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(o.legs[0].origin).toBe("CNSHA");
      expect(o.legs[o.legs.length - 1].destination).toBe("DEDUI");
      expect(o.latestDropOff).toBe(o.legs[0].departureDate);
      expect(o.earliestPickup).toBe(o.legs[o.legs.length - 1].arrivalDate);
      expect(o.leadTimeInMinutes).toBe(
        (Date.parse(o.earliestPickup) - Date.parse(o.latestDropOff)) / 60000
      );
      expect(o.truckToOriginInMeters).toBe(0);
      expect(o.truckToDestinationInMeters).toBe(0);
      // Handling at every change of vehicle: sea terminal factor (10 kg) when a ship is involved.
      expect(o.transferEmissionsInKgCo2e).toBe(o.transfers * 10);
      const legSum = o.legs.reduce((s, l) => s + l.emissionsInKgCo2e, 0);
      expect(o.emissionsInKgCo2e).toBeCloseTo(legSum + o.transferEmissionsInKgCo2e, 6);
      for (let i = 1; i < o.legs.length; i++) {
        expect(o.legs[i].origin).toBe(o.legs[i - 1].destination);
        expect(Date.parse(o.legs[i].departureDate)).toBeGreaterThanOrEqual(
          Date.parse(o.legs[i - 1].arrivalDate) + 6 * 3_600_000
        );
      }
      for (const l of o.legs) {
        expect(l.distanceInMeters).toBeGreaterThan(0);
        // Emissions per leg: the geography's factor over the leg's distance, chosen by the
        // leg's own ends (long haul lower), not summed over the calls in between.
        const ends = { from: geo.port(l.origin)!, to: geo.port(l.destination)! };
        expect(l.emissionsInKgCo2e).toBeCloseTo(
          geo.emissionsKgPerTeu(l.modality, l.distanceInMeters, ends),
          2
        );
        expect(GRAMS_PER_TEU_KM[l.modality]).toBeGreaterThan(0);
        expect(l.operators).toHaveLength(1);
        expect(l.operators[0].serviceCodes.length).toBe(1);
      }
    }
    const fast = search()[0];
    expect(fast.legs[0].operators[0]).toMatchObject({
      name: "MSC",
      scac: "MSCU",
      serviceCodes: ["SWAN"],
      collaboratingOperators: [],
    });
    expect(fast.legs[0].destinationTerminals).toEqual([
      { id: geo.terminalIds.get("NLRTM:ECT Delta"), name: "ECT Delta" },
    ]);
    expect(fast.legs[1].originTerminals).toEqual([
      { id: geo.terminalIds.get("NLRTM:ECT Delta"), name: "ECT Delta" },
    ]);
    expect(fast.legs[1].destinationTerminals[0].name).toBe("DeCeTe");
  });

  test("vessel, service code and collaborating operators on a vessel-sharing leg", () => {
    const [o] = search({ allRequiredOperators: "HLCU" });
    const leg = o.legs[0];
    expect(leg.vessel).toEqual(VESSEL);
    expect(leg.operators[0].scac).toBe("MAEU");
    expect(leg.operators[0].serviceCodes).toEqual(["AE1"]);
    expect(leg.operators[0].collaboratingOperators).toEqual([
      {
        id: optimizer.operators().find((x) => x.scac === "HLCU")!.id,
        name: "Hapag-Lloyd",
        scac: "HLCU",
      },
    ]);
    // A leg stays on board through SGSIN: one leg CNSHA→NLRTM.
    expect(leg.origin).toBe("CNSHA");
    expect(leg.destination).toBe("NLRTM");
  });

  test("ids are stable between searches and differ between options", () => {
    const a = search().map((o) => o.id);
    const b = search({ sort: "ARRIVAL" })
      .map((o) => o.id)
      .reverse();
    expect(a).toEqual(b);
    expect(new Set(a).size).toBe(a.length);
  });

  describe("sort", () => {
    test("LEAD_TIME (default), ARRIVAL, DEPARTURE, TRANSFERS, EMISSIONS; case-insensitive", () => {
      expect(routes()).toEqual(["SWAN>RTM-DUI-RAIL", "FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ sort: "lead_time" })).toEqual([
        "SWAN>RTM-DUI-RAIL",
        "FAL1>FAL3>ANR-DUI-RAIL",
      ]);
      expect(routes({ sort: "ARRIVAL" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL", "SWAN>RTM-DUI-RAIL"]);
      expect(routes({ sort: "departure" })).toEqual([
        "FAL1>FAL3>ANR-DUI-RAIL",
        "SWAN>RTM-DUI-RAIL",
      ]);
      expect(routes({ sort: "Transfers" })).toEqual([
        "SWAN>RTM-DUI-RAIL",
        "FAL1>FAL3>ANR-DUI-RAIL",
      ]);
      const byEm = search({ sort: "EMISSIONS" });
      expect(byEm[0].emissionsInKgCo2e).toBeLessThanOrEqual(byEm[1].emissionsInKgCo2e);
      // The direct Shanghai–Rotterdam leg is shorter than the Singapore detour, so it also emits less.
      expect(codes(byEm[0])).toBe("SWAN>RTM-DUI-RAIL");
    });
    test("unknown sort → Incorrect Values naming sort and the allowed values", () => {
      expectError(
        { ...base, sort: "PRICE" },
        "bad-value",
        "sort",
        "LEAD_TIME, EMISSIONS, TRANSFERS, DEPARTURE, ARRIVAL"
      );
    });
  });

  describe("filters", () => {
    test("maxTransfers", () => {
      expect(routes({ maxTransfers: "1" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      expect(routes({ maxTransfers: "0" })).toEqual([]);
      expectError({ ...base, maxTransfers: "-1" }, "bad-value", "maxTransfers");
    });

    test("excludedOperators by SCAC and by id; a partner counts as appearing", () => {
      expect(routes({ excludedOperators: "MSCU" })).toEqual([
        "FAL1>FAL3>ANR-DUI-RAIL",
        "AE1>RTM-DUI-RAIL",
      ]);
      const msc = optimizer.operators().find((o) => o.scac === "MSCU")!.id;
      expect(routes({ excludedOperators: msc })).toEqual(routes({ excludedOperators: "MSCU" }));
      expect(routes({ excludedOperators: ["MSCU", "HLCU"] })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
    });

    test("allRequiredOperators and anyRequiredOperators (repeated keys and comma lists)", () => {
      expect(routes({ allRequiredOperators: "HLCU" })).toEqual(["AE1>RTM-DUI-RAIL"]);
      expect(routes({ allRequiredOperators: "hlcu,ctgo" })).toEqual(["AE1>RTM-DUI"]);
      expect(routes({ anyRequiredOperators: "CMDU,ZIMU" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ anyRequiredOperators: ["CMDU", "ZIMU"] })).toEqual([
        "FAL1>FAL3>ANR-DUI-RAIL",
      ]);
      expect(routes({ anyRequiredOperators: "ZIMU" })).toEqual([]);
      expectError(
        { ...base, anyRequiredOperators: "NOPE" },
        "unknown-data",
        "anyRequiredOperators",
        "MAEU"
      );
    });

    test("excludedLocodes: no loading or unloading there; passing through on board is allowed", () => {
      expect(routes({ excludedLocodes: "SGSIN" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      expect(routes({ excludedLocodes: "SGSIN", allRequiredOperators: "HLCU" })).toEqual([
        "AE1>RTM-DUI-RAIL",
      ]);
      expect(routes({ excludedLocodes: "NLRTM" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ excludedLocodes: "DEDUI" })).toEqual([]);
      expectError({ ...base, excludedLocodes: "XX" }, "bad-value", "excludedLocodes", "UN/LOCODE");
    });

    test("allRequiredLocodes and anyRequiredLocodes", () => {
      expect(routes({ allRequiredLocodes: "SGSIN" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ allRequiredLocodes: "SGSIN,BEANR" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      // Transshipment at Singapore onto AE1 is the only way to unload at both.
      expect(routes({ allRequiredLocodes: ["SGSIN", "NLRTM"] })).toEqual(["FAL1>AE1>RTM-DUI-RAIL"]);
      expect(routes({ allRequiredLocodes: ["SGSIN", "DEHAM"] })).toEqual([]);
      expect(routes({ anyRequiredLocodes: "BEANR,DEHAM" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ anyRequiredLocodes: "NLRTM" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      // The origin itself is on every route.
      expect(routes({ allRequiredLocodes: "CNSHA" })).toEqual(routes());
    });

    test("modalities", () => {
      expect(routes({ modalities: "DEEPSEA,BARGE" })).toEqual(["SWAN>RTM-DUI"]);
      expect(routes({ modalities: ["DEEPSEA", "RAIL"] })).toEqual(routes());
      expect(routes({ modalities: "BARGE" })).toEqual([]);
      expectError(
        { ...base, modalities: "DEEPSEA,AIR" },
        "bad-value",
        "modalities",
        "DEEPSEA, SHORTSEA, BARGE, RAIL, TRUCK"
      );
    });

    test("directSeaOnly excludes transshipment between sea legs", () => {
      expect(routes({ directSeaOnly: "true" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      expect(routes({ directSeaOnly: "false" })).toEqual(routes());
      expectError({ ...base, directSeaOnly: "yes" }, "bad-value", "directSeaOnly", "true, false");
    });

    test("maxEmission (kg CO2e per TEU, whole route)", () => {
      const [a, b] = search({ sort: "EMISSIONS" });
      const between = Math.floor((a.emissionsInKgCo2e + b.emissionsInKgCo2e) / 2);
      expect(routes({ maxEmission: String(between) })).toEqual([codes(a)]);
      expect(routes({ maxEmission: String(Math.ceil(b.emissionsInKgCo2e)) }).sort()).toEqual(
        [codes(a), codes(b)].sort()
      );
      expect(routes({ maxEmission: "1" })).toEqual([]);
      expectError({ ...base, maxEmission: "lots" }, "bad-value", "maxEmission");
    });

    test("maxLeadTime as ISO 8601 duration", () => {
      expect(routes({ maxLeadTime: "PT627H" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      expect(routes({ maxLeadTime: "P26DT6H" })).toEqual([
        "SWAN>RTM-DUI-RAIL",
        "FAL1>FAL3>ANR-DUI-RAIL",
      ]);
      expect(routes({ maxLeadTime: "P26D" })).toEqual([]);
      expectError({ ...base, maxLeadTime: "P1M" }, "bad-value", "maxLeadTime", "P21D");
      expectError({ ...base, maxLeadTime: "21 days" }, "bad-value", "maxLeadTime");
    });

    test("maxArrival", () => {
      // T0 + 630 h = 2030-02-02T06:00Z
      expect(routes({ maxArrival: "2030-02-02T06:00:00Z" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ maxArrival: "2030-02-02" })).toEqual(["FAL1>FAL3>ANR-DUI-RAIL"]);
      expect(routes({ maxArrival: "2030-02-03" }).length).toBe(2);
      expectError({ ...base, maxArrival: "2030-02-30" }, "bad-value", "maxArrival", "YYYY-MM-DD");
    });

    test("minDeparture and maxDeparture bound the first departure", () => {
      expect(routes({ minDeparture: "2030-01-08" })).toEqual(["SWAN>RTM-DUI-RAIL"]);
      expect(routes({ maxDeparture: "2030-01-07" })).toEqual([
        "FAL1>FAL3>ANR-DUI-RAIL",
        "AE1>RTM-DUI-RAIL",
      ]);
      expect(routes({ minDeparture: "2030-01-09" })).toEqual([]);
      expectError(
        { ...base, minDeparture: "2030-01-09", maxDeparture: "2030-01-08" },
        "bad-value",
        "maxDeparture"
      );
      // Omitted minDeparture: from "now" (the loader's clock; here T0) for the default window.
      const { minDeparture: _omit, ...rest } = base;
      expect(optimizer.search(rest).results.map(codes)).toEqual(routes());
    });
  });

  describe("first and last mile by truck", () => {
    test("last mile within maxLastMileTruckingKm when TRUCK is allowed", () => {
      const withTruck = search({ maxLastMileTruckingKm: "300" });
      const trucked = withTruck.filter((o) => o.truckToDestinationInMeters > 0);
      expect(trucked.length).toBeGreaterThan(0);
      for (const o of trucked) {
        const last = o.legs[o.legs.length - 1];
        expect(last.modality).toBe("TRUCK");
        expect(last.operators).toEqual([]);
        expect(last.distanceInMeters).toBe(o.truckToDestinationInMeters);
        expect(last.distanceInMeters).toBeLessThanOrEqual(300_000);
        expect(last.emissionsInKgCo2e).toBeCloseTo((100 * last.distanceInMeters) / 1e6, 2);
        expect(last.arrivalDate).toBe(o.earliestPickup);
      }
      // Trucking from Rotterdam beats waiting for the train.
      expect(codes(withTruck[0])).toBe("SWAN>TRUCK");
      expect(withTruck[0].leadTimeInMinutes).toBeLessThan(626 * 60);
      expect(routes({ maxLastMileTruckingKm: "300", modalities: "DEEPSEA,RAIL,BARGE" })).toEqual(
        routes()
      );
      expect(routes({ maxLastMileTruckingKm: "100" })).toEqual(routes());
    });

    test("GEO origin reaches the port by truck within maxFirstMileTruckingKm", () => {
      const geoQ = { ...base, origin: "31.0,121.3", originType: "GEO" };
      const results = optimizer.search(geoQ).results;
      expect(results.length).toBeGreaterThan(0);
      for (const o of results) {
        expect(o.legs[0].modality).toBe("TRUCK");
        expect(o.legs[0].origin).toBe("31,121.3");
        expect(o.truckToOriginInMeters).toBe(o.legs[0].distanceInMeters);
        expect(o.truckToOriginInMeters).toBeGreaterThan(0);
        expect(o.latestDropOff).toBe(o.legs[0].departureDate);
        // Cut-off: the truck arrives 6 h (TRUCK-SEA transfer) before the ship leaves.
        expect(Date.parse(o.legs[1].departureDate) - Date.parse(o.legs[0].arrivalDate)).toBe(
          6 * 3_600_000
        );
      }
      expect(optimizer.search({ ...geoQ, maxFirstMileTruckingKm: "5" }).results).toEqual([]);
      expect(optimizer.search({ ...geoQ, modalities: "DEEPSEA,RAIL" }).results).toEqual([]);
    });
  });

  describe("places", () => {
    test("TERMINAL origin behaves as its port", () => {
      const id = geo.terminalIds.get("CNSHA:Yangshan Phase IV")!;
      expect(
        optimizer.search({ ...base, origin: id, originType: "TERMINAL" }).results.map(codes)
      ).toEqual(routes());
    });
    test("value/type mismatch → Incorrect Values naming the place parameter", () => {
      expectError({ ...base, originType: "TERMINAL" }, "bad-value", "origin", "LOCODE");
      expectError({ ...base, destination: "51.4,6.7" }, "bad-value", "destination");
      expectError(
        { ...base, originType: "PORT" },
        "bad-value",
        "originType",
        "LOCODE, TERMINAL, GEO"
      );
      expectError({ ...base, destinationType: undefined }, "bad-value", "destinationType");
      expectError({ ...base, origin: " " }, "bad-value", "origin");
    });
    test("unknown LOCODE → Unknown Data; no route → empty results", () => {
      expectError({ ...base, destination: "USNYC" }, "unknown-data", "destination");
      expect(optimizer.search({ ...base, origin: "DEHAM", destination: "CNSHA" })).toEqual({
        results: [],
      });
      // Same place at both ends (AE1 is a loop back to Shanghai, which is no answer).
      expect(optimizer.search({ ...base, destination: "CNSHA" })).toEqual({ results: [] });
    });
    test("a scalar given twice with different values is rejected", () => {
      expectError({ ...base, sort: ["ARRIVAL", "DEPARTURE"] }, "bad-value", "sort");
    });
  });

  test("operators(): every operator with uuid id, name and SCAC", () => {
    const ops = optimizer.operators();
    expect(ops.map((o) => o.scac)).toEqual(OPS.map(([s]) => s));
    for (const o of ops) {
      expect(Object.keys(o).sort()).toEqual(["id", "name", "scac"]);
      expect(o.id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
