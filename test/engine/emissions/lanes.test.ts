/**
 * Trade-lane selection for DEEPSEA and SHORTSEA: the region polygons of data/emission-factors.json
 * against real port coordinates, and the GLEC Framework v3.0 end-user WTW lane intensities
 * (Module 2, Tables 16-17) against the defaults (industry average 89.0; short sea 'Other' 108.3).
 */
import { loadEmissions } from "../../../src/data/emissions";
import { TradeLanes } from "../../../src/engine/emissions";
import { pointInPolygon } from "../../../src/engine/geo/polygon";
import { LatLng } from "../../../src/engine/types";

const calc = loadEmissions();
const lanes = new TradeLanes(calc.data.regions!, calc.data.modalities.DEEPSEA.lanes!);

// Port coordinates (rounded, as in common port lists).
const P: Record<string, LatLng> = {
  rotterdam: { lat: 51.95, lng: 4.05 },
  hamburg: { lat: 53.54, lng: 9.97 },
  algeciras: { lat: 36.13, lng: -5.44 },
  malaga: { lat: 36.72, lng: -4.42 },
  almeria: { lat: 36.83, lng: -2.46 },
  cagliari: { lat: 39.21, lng: 9.11 },
  marsala: { lat: 37.8, lng: 12.43 },
  marsaxlokk: { lat: 35.82, lng: 14.54 },
  piraeus: { lat: 37.94, lng: 23.63 },
  limassol: { lat: 34.67, lng: 33.04 },
  constanta: { lat: 44.17, lng: 28.65 },
  reykjavik: { lat: 64.15, lng: -21.94 },
  tangerMed: { lat: 35.89, lng: -5.5 },
  oran: { lat: 35.7, lng: -0.64 },
  algiers: { lat: 36.77, lng: 3.06 },
  bizerte: { lat: 37.27, lng: 9.87 },
  tunis: { lat: 36.8, lng: 10.2 },
  tripoli: { lat: 32.9, lng: 13.2 },
  alexandria: { lat: 31.2, lng: 29.9 },
  portSaid: { lat: 31.27, lng: 32.3 },
  casablanca: { lat: 33.6, lng: -7.6 },
  dakar: { lat: 14.68, lng: -17.43 },
  lagos: { lat: 6.45, lng: 3.39 },
  durban: { lat: -29.87, lng: 31.03 },
  mombasa: { lat: -4.05, lng: 39.67 },
  portSudan: { lat: 19.6, lng: 37.22 },
  djibouti: { lat: 11.6, lng: 43.15 },
  jeddah: { lat: 21.49, lng: 39.17 },
  aden: { lat: 12.78, lng: 45.03 },
  shanghai: { lat: 31.2, lng: 121.5 },
  newYork: { lat: 40.68, lng: -74.01 },
  felixstowe: { lat: 51.955, lng: 1.315 },
  gdansk: { lat: 54.395, lng: 18.705 },
  leHavre: { lat: 49.47, lng: 0.13 },
  genoa: { lat: 44.425, lng: 8.785 },
  novorossiysk: { lat: 44.72, lng: 37.79 },
  haifa: { lat: 32.82, lng: 35.0 },
  sines: { lat: 37.935, lng: -8.84 },
  busan: { lat: 35.08, lng: 128.83 },
  hongKong: { lat: 22.33, lng: 114.12 },
  kaohsiung: { lat: 22.6, lng: 120.28 },
  singapore: { lat: 1.26, lng: 103.8 },
  laemChabang: { lat: 13.08, lng: 100.9 },
  haiphong: { lat: 20.82, lng: 106.75 },
  jebelAli: { lat: 25.01, lng: 55.06 },
  nhavaSheva: { lat: 18.95, lng: 72.95 },
  colombo: { lat: 6.95, lng: 79.85 },
  losAngeles: { lat: 33.74, lng: -118.265 },
  vancouver: { lat: 49.29, lng: -123.095 },
  savannah: { lat: 32.125, lng: -81.145 },
  houston: { lat: 29.68, lng: -95.005 },
  manzanillo: { lat: 19.065, lng: -104.295 },
  santos: { lat: -23.94, lng: -46.31 },
  colon: { lat: 9.36, lng: -79.88 },
  kingston: { lat: 17.97, lng: -76.82 },
  sydney: { lat: -33.97, lng: 151.215 },
  auckland: { lat: -36.84, lng: 174.77 },
};

describe("regions", () => {
  const inRegion = (name: string, ports: string[]) =>
    test.each(ports)(`%s is in ${name}`, (port) =>
      expect(lanes.regionsOf(P[port]).has(name)).toBe(true)
    );
  const notInRegion = (name: string, ports: string[]) =>
    test.each(ports)(`%s is not in ${name}`, (port) =>
      expect(lanes.regionsOf(P[port]).has(name)).toBe(false)
    );
  const europe = ["rotterdam", "hamburg", "algeciras", "malaga", "almeria", "cagliari", "marsala"];
  inRegion("EUROPE_NORTH_MED", [
    ...europe,
    "marsaxlokk",
    "piraeus",
    "limassol",
    "constanta",
    "reykjavik",
    "sines",
  ]);
  inRegion("NORTH_EUROPE", [
    "rotterdam",
    "hamburg",
    "felixstowe",
    "gdansk",
    "leHavre",
    "reykjavik",
  ]);
  notInRegion("NORTH_EUROPE", ["genoa", "algeciras", "sines", "constanta"]);
  inRegion("MED_BLACK_SEA", [
    "algeciras",
    "genoa",
    "piraeus",
    "constanta",
    "novorossiysk",
    "haifa",
    "tangerMed",
    "algiers",
    "tunis",
    "alexandria",
    "portSaid",
  ]);
  notInRegion("MED_BLACK_SEA", ["sines", "casablanca", "leHavre", "jeddah"]);
  inRegion("AFRICA", [
    "casablanca",
    "dakar",
    "lagos",
    "durban",
    "mombasa",
    "portSudan",
    "djibouti",
  ]);
  notInRegion("AFRICA", ["tangerMed", "alexandria", "portSaid", "jeddah", "aden"]);
  inRegion("MIDDLE_EAST_INDIA", ["jeddah", "aden", "jebelAli", "nhavaSheva", "colombo"]);
  inRegion("NE_ASIA", ["shanghai", "busan", "hongKong", "kaohsiung"]);
  inRegion("SE_ASIA", ["singapore", "laemChabang", "haiphong"]);
  inRegion("ASIA", ["shanghai", "busan", "hongKong", "singapore", "haiphong"]);
  notInRegion("ASIA", ["colombo", "nhavaSheva", "jebelAli", "sydney"]);
  inRegion("NA_WEST", ["losAngeles", "vancouver", "manzanillo"]);
  inRegion("NA_EAST_GULF", ["newYork", "savannah", "houston"]);
  inRegion("SOUTH_AMERICA", ["santos", "colon", "kingston"]);
  notInRegion("SOUTH_AMERICA", ["houston", "savannah", "manzanillo"]);
  inRegion("OCEANIA", ["sydney", "auckland"]);
  notInRegion("OCEANIA", ["singapore"]);

  test("pointInPolygon on a unit square", () => {
    const sq: Array<[number, number]> = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    expect(pointInPolygon(0.5, 0.5, sq)).toBe(true);
    expect(pointInPolygon(0.5, 1.5, sq)).toBe(false);
  });

  test("a lane naming an unknown region is rejected when the calculator is built", () => {
    expect(
      () =>
        new TradeLanes({}, [
          { name: "x", between: ["A", "B"], gCo2eWtwPerTeuKm: 1, source: "test" },
        ])
    ).toThrow(/unknown region A/);
  });
});

describe("GLEC v3.0 lane intensities (end-user WTW)", () => {
  const sea = (from: LatLng, to: LatLng, extra: object = {}, modality = "DEEPSEA") =>
    calc.explain({
      modality: modality as "DEEPSEA",
      distanceMeters: 1_000_000,
      lane: { from, to },
      ...extra,
    });

  test.each([
    ["shanghai", "rotterdam", "Asia to-from North Europe", 49.9],
    ["rotterdam", "shanghai", "Asia to-from North Europe", 49.9],
    ["singapore", "genoa", "Asia to-from Mediterranean/Black Sea", 61.4],
    ["shanghai", "losAngeles", "Asia to-from North America WC", 82.9],
    ["busan", "savannah", "Asia to-from North America EC/Gulf", 79.6],
    ["hongKong", "jebelAli", "Asia to-from Middle East/India", 86.5],
    ["shanghai", "durban", "Asia to-from Africa", 105.7],
    ["shanghai", "sydney", "Asia to-from Oceania", 121.0],
    ["shanghai", "santos", "Asia to-from South America (incl. Central America)", 89.3],
    ["rotterdam", "lagos", "Europe (North & Med) to-from Africa", 125.8],
    ["piraeus", "durban", "Europe (North & Med) to-from Africa", 125.8],
    [
      "rotterdam",
      "santos",
      "Europe (North & Med) to-from South America (incl. Central America)",
      102.9,
    ],
    ["hamburg", "nhavaSheva", "Europe (North & Med) to-from Middle East/India", 79.8],
    ["rotterdam", "sydney", "Europe (North & Med) to-from Oceania", 103.2],
    ["rotterdam", "newYork", "North Europe to-from North America EC/Gulf", 112.1],
    ["hamburg", "vancouver", "North Europe to-from North America WC", 96.3],
    ["genoa", "newYork", "Mediterranean/Black Sea to-from North America EC/Gulf", 116.0],
    ["genoa", "losAngeles", "Mediterranean/Black Sea to-from North America WC", 61.6],
    ["sines", "newYork", "Trans-Atlantic", 105.0],
    ["newYork", "lagos", "North America EC/Gulf/WC to-from Africa", 166.1],
    ["losAngeles", "sydney", "North America EC/Gulf/WC to-from Oceania", 101.0],
    [
      "houston",
      "santos",
      "North America EC/Gulf/WC to-from South America (incl. Central America)",
      111.1,
    ],
    ["newYork", "jebelAli", "North America EC/Gulf/WC to-from Middle East/India", 94.9],
    ["santos", "lagos", "South America (incl. Central America) to-from Africa", 174.3],
    ["rotterdam", "tangerMed", "North Europe to-from Mediterranean/Black Sea", 92.2],
    ["rotterdam", "hamburg", "Intra North Europe", 177.0],
    ["genoa", "piraeus", "Intra Mediterranean/Black Sea", 200.3],
    ["shanghai", "busan", "Intra NE Asia", 139.6],
    ["singapore", "laemChabang", "Intra SE Asia", 157.9],
    ["singapore", "hongKong", "SE Asia to-from NE Asia", 124.3],
    ["jebelAli", "nhavaSheva", "Intra Middle East/India", 148.4],
    ["lagos", "durban", "Intra Africa", 168.6],
    ["newYork", "houston", "Intra North America EC/Gulf/WC", 256.0],
    ["santos", "colon", "Intra South America", 146.8],
  ])("%s -> %s: %s, %p g CO2e/TEU-km", (a, b, lane, grams) => {
    const out = sea(P[a as string], P[b as string]);
    expect([out.lane, out.co2eTeu]).toEqual([lane, grams]);
    expect(out.co2eTon).toBeCloseTo((grams as number) / 10, 6);
  });

  test("a pair no lane covers uses the industry average 89.0", () => {
    const out = sea(P.casablanca, { lat: -20, lng: -100 }); // Africa to the open Pacific
    expect([out.lane, out.co2eTeu]).toEqual([undefined, 89]);
  });

  test("reefers take the lane's published reefer value (no uplift); size class and fuel still apply", () => {
    const reefer = sea(P.shanghai, P.rotterdam, { containerType: "20RF" });
    expect([reefer.co2eTeu, reefer.reeferFactor]).toEqual([128.7, 1]);
    const vessel = { lengthCm: 39_990, widthCm: 6_100, draughtCm: 1_650 };
    expect(sea(P.rotterdam, P.lagos, { vessel }).co2eTeu).toBe(98.803); // 125.8 × 0.7854 = 98.80332
    expect(sea(P.rotterdam, P.lagos, { containerType: "40RF" }).co2eTeu).toBe(217.8);
    const lng = sea(P.rotterdam, P.lagos, { fuelType: "LNG" });
    expect(lng.co2eTeu).toBeCloseTo(125.8 * (82.868 / 91.392), 1);
  });

  test("SHORTSEA uses the same lanes (intra-regional ones in practice) and 108.3 'Other' elsewhere", () => {
    expect(sea(P.felixstowe, P.rotterdam, {}, "SHORTSEA").co2eTeu).toBe(177);
    expect(sea(P.rotterdam, P.genoa, {}, "SHORTSEA").lane).toBe(
      "North Europe to-from Mediterranean/Black Sea"
    );
    expect(sea(P.casablanca, { lat: -20, lng: -100 }, {}, "SHORTSEA").co2eTeu).toBe(108.3);
    // A vessel type replaces the lane intensity.
    expect(sea(P.felixstowe, P.rotterdam, { vesselType: "ROPAX" }, "SHORTSEA").co2eTeu).toBe(980);
  });

  test("BARGE, RAIL and TRUCK ignore sea lanes", () => {
    const truck = calc.compute({
      modality: "TRUCK",
      distanceMeters: 500_000,
      lane: { from: P.rotterdam, to: P.hamburg },
    });
    expect(truck.co2eTeu).toBe(513.65);
    expect(
      calc.explain({
        modality: "BARGE",
        distanceMeters: 1000,
        lane: { from: P.rotterdam, to: P.hamburg },
      }).lane
    ).toBeUndefined();
  });

  test("validation with distance 0 still reports bad input before any lane work", () => {
    expect(() =>
      calc.compute({
        modality: "DEEPSEA",
        distanceMeters: 0,
        fuelType: "ELECTRIC",
        lane: { from: P.rotterdam, to: P.lagos },
      })
    ).toThrow(/allowed values for DEEPSEA/);
  });
});
