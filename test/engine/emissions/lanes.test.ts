/**
 * Trade-lane selection for DEEPSEA: the region polygons of data/emission-factors.json against real
 * port coordinates, and the lane intensity (GLEC v3.1 'Europe (North & Med) to/from Africa',
 * 89.4 g CO2e/TEU-km) against the global default (Panama trade, 80.4).
 */
import { loadEmissions } from "../../../src/data/emissions";
import { TradeLanes, insidePolygon } from "../../../src/engine/emissions";
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
};

describe("regions", () => {
  test.each([
    "rotterdam",
    "hamburg",
    "algeciras",
    "malaga",
    "almeria",
    "cagliari",
    "marsala",
    "marsaxlokk",
    "piraeus",
    "limassol",
    "constanta",
    "reykjavik",
  ])("%s is in Europe (North & Med)", (port) =>
    expect(lanes.regionOf(P[port])).toBe("EUROPE_NORTH_MED")
  );

  test.each(["casablanca", "dakar", "lagos", "durban", "mombasa", "portSudan", "djibouti"])(
    "%s is in Africa",
    (port) => expect(lanes.regionOf(P[port])).toBe("AFRICA")
  );

  test.each([
    "tangerMed",
    "oran",
    "algiers",
    "bizerte",
    "tunis",
    "tripoli",
    "alexandria",
    "portSaid",
    "jeddah",
    "aden",
    "shanghai",
  ])("%s is in no lane region (North-African Med shore, Asia)", (port) =>
    expect(lanes.regionOf(P[port])).toBeUndefined()
  );

  test("New York is in the NORTH_AMERICA region (rail factors), which no DEEPSEA lane uses", () => {
    expect(lanes.regionOf(P.newYork)).toBe("NORTH_AMERICA");
    expect(lanes.find({ from: P.newYork, to: P.lagos })).toBeUndefined();
  });

  test("insidePolygon on a unit square", () => {
    const sq: Array<[number, number]> = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 1],
    ];
    expect(insidePolygon({ lat: 0.5, lng: 0.5 }, sq)).toBe(true);
    expect(insidePolygon({ lat: 1.5, lng: 0.5 }, sq)).toBe(false);
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

describe("DEEPSEA lane intensity", () => {
  const sea = (from: LatLng, to: LatLng, extra: object = {}) =>
    calc.explain({ modality: "DEEPSEA", distanceMeters: 1_000_000, lane: { from, to }, ...extra });

  test("Rotterdam -> Lagos and back use the Europe-Africa lane: 89.4 g/TEU-km", () => {
    const out = sea(P.rotterdam, P.lagos);
    expect([out.lane, out.co2eTeu, out.co2eTon]).toEqual([
      "Europe (North & Med) to/from Africa",
      89.4,
      8.94,
    ]);
    expect(sea(P.lagos, P.rotterdam).co2eTeu).toBe(89.4);
    expect(sea(P.piraeus, P.durban).co2eTeu).toBe(89.4);
  });

  test("pairs without a lane use the global default 80.4", () => {
    for (const [a, b] of [
      ["shanghai", "rotterdam"],
      ["rotterdam", "tangerMed"],
      ["rotterdam", "hamburg"],
      ["lagos", "durban"],
      ["newYork", "lagos"],
    ]) {
      const out = sea(P[a], P[b]);
      expect([a, b, out.lane, out.co2eTeu]).toEqual([a, b, undefined, 80.4]);
    }
  });

  test("lane, then size class, fuel and reefer multiply", () => {
    const vessel = { lengthCm: 39_990, widthCm: 6_100, draughtCm: 1_650 };
    expect(sea(P.rotterdam, P.lagos, { vessel }).co2eTeu).toBe(70.215); // 89.4 × 0.7854 = 70.21476
    expect(sea(P.rotterdam, P.lagos, { containerType: "40RF" }).co2eTeu).toBe(100.128); // 89.4 × 1.12
    const lng = sea(P.rotterdam, P.lagos, { fuelType: "LNG" });
    expect(lng.co2eTeu).toBeCloseTo(89.4 * (82.868 / 91.392), 1);
  });

  test("other modalities ignore the lane", () => {
    const out = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      lane: { from: P.rotterdam, to: P.lagos },
    });
    expect([out.lane, out.co2eTeu]).toEqual([undefined, 89.4]);
    const truck = calc.compute({
      modality: "TRUCK",
      distanceMeters: 500_000,
      lane: { from: P.rotterdam, to: P.hamburg },
    });
    expect(truck.co2eTeu).toBe(513.65);
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
