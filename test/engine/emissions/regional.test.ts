/**
 * Regional rail factors (North America: diesel at the Class I railroads' fuel efficiency) chosen
 * from the leg's ends, and short-sea vessel types (container feeder default, ro-ro), with the
 * shipped data/emission-factors.json.
 */
import { loadEmissions } from "../../../src/data/emissions";
import { loadEngine } from "../../../src/data/load-engine";
import { TradeLanes } from "../../../src/engine/emissions";

const calc = loadEmissions();
const at = (lat: number, lng: number) => ({ lat, lng });
const LOS_ANGELES = at(33.74, -118.265);
const CHICAGO = at(41.83, -87.68);
const NEW_YORK = at(40.685, -74.145);
const ROTTERDAM = at(51.955, 4.04);
const DUISBURG = at(51.455, 6.735);

describe("regional rail factors", () => {
  test("North America: diesel by default at GLEC v3's US average 16.2 g CO2e/t-km WTW", () => {
    const x = calc.explain({
      modality: "RAIL",
      distanceMeters: 3_592_000,
      lane: { from: LOS_ANGELES, to: CHICAGO },
    });
    expect(x.region).toBe("North America");
    expect(x.fuelType).toBe("DIESEL");
    expect(x.baseGramsPerTeuKm).toBeCloseTo(162, 6);
    expect(x.co2eTeu).toBeCloseTo((162 * 3592) / 1000, 3); // 581.904 kg
    expect(x.co2eTon).toBeCloseTo(58.19, 3);
  });

  test("North American diesel is 41 % below GLEC's European container diesel value (27.6 g)", () => {
    const na = calc.explain({
      modality: "RAIL",
      distanceMeters: 1_000_000,
      fuelType: "DIESEL",
      lane: { from: CHICAGO, to: NEW_YORK },
    });
    const eu = calc.explain({
      modality: "RAIL",
      distanceMeters: 1_000_000,
      fuelType: "DIESEL",
      lane: { from: ROTTERDAM, to: DUISBURG },
    });
    expect(na.co2eTeu).toBeCloseTo(162, 3);
    expect(eu.region).toBeUndefined();
    expect(eu.co2eTeu).toBeCloseTo(276, 3);
    expect(na.co2eTeu / eu.co2eTeu).toBeCloseTo(0.587, 3);
  });

  test("elsewhere, and for legs leaving North America, the modality defaults stay", () => {
    const eu = calc.explain({
      modality: "RAIL",
      distanceMeters: 500_000,
      lane: { from: ROTTERDAM, to: DUISBURG },
    });
    expect(eu.fuelType).toBe("ELECTRIC");
    expect(eu.co2eTeu).toBeCloseTo(32, 3);
    const noLane = calc.explain({ modality: "RAIL", distanceMeters: 500_000 });
    expect(noLane.fuelType).toBe("ELECTRIC");
    const mixed = calc.explain({
      modality: "RAIL",
      distanceMeters: 500_000,
      lane: { from: CHICAGO, to: ROTTERDAM },
    });
    expect(mixed.region).toBeUndefined();
    // An electric train asked for in North America keeps the published electric figure.
    const electric = calc.explain({
      modality: "RAIL",
      distanceMeters: 500_000,
      fuelType: "ELECTRIC",
      lane: { from: LOS_ANGELES, to: CHICAGO },
    });
    expect(electric.co2eTeu).toBeCloseTo(32, 3);
    // TRUCK has no regional set.
    expect(
      calc.explain({
        modality: "TRUCK",
        distanceMeters: 1000,
        lane: { from: LOS_ANGELES, to: CHICAGO },
      }).region
    ).toBeUndefined();
  });

  test("the NORTH_AMERICA polygon holds the continent's ports and hubs and nothing across the water", () => {
    const regions = new TradeLanes(calc.data.regions ?? {}, []);
    const inside = [
      LOS_ANGELES,
      CHICAGO,
      NEW_YORK,
      at(54.3, -130.34), // Prince Rupert
      at(49.29, -123.095), // Vancouver
      at(43.72, -79.75), // Toronto
      at(44.635, -63.565), // Halifax
      at(29.68, -95.005), // Houston
      at(19.065, -104.295), // Manzanillo (MX)
      at(19.205, -96.135), // Veracruz
      at(61.2, -149.9), // Anchorage
    ];
    for (const p of inside) expect(regions.regionOf(p)).toBe("NORTH_AMERICA");
    const outside = [
      ROTTERDAM,
      at(23.13, -82.38) /* Havana */,
      at(9.36, -79.88) /* Colón */,
      at(35.68, 139.65),
    ];
    for (const p of outside) expect(regions.regionOf(p)).not.toBe("NORTH_AMERICA");
  });

  test("through the engine: RAIL Los Angeles -> New York uses the North American diesel factor on the corridor distance", () => {
    const engine = loadEngine();
    const r = engine.emissions({ origin: "USLAX", destination: "USNYC", modality: "RAIL" });
    expect(r.distance).toBeGreaterThan(4_000_000);
    expect(r.co2eTeu).toBeCloseTo((162 * r.distance) / 1e6, 2);
  });
});

describe("short-sea vessel types", () => {
  test("container feeder stays the default; ro-ro 37.5 and ro-pax 98.0 g CO2e/t-km (GLEC v3.0 Tables 14-15, VLSFO, WTW)", () => {
    const feeder = calc.explain({ modality: "SHORTSEA", distanceMeters: 1_000_000 });
    expect(feeder.vesselType).toBeUndefined();
    expect(feeder.co2eTeu).toBeCloseTo(108.3, 3);
    const container = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "container",
    });
    expect(container.co2eTeu).toBeCloseTo(108.3, 3);
    const roro = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "ro-ro",
    });
    expect(roro.vesselType).toBe("RORO");
    expect(roro.co2eTeu).toBeCloseTo(375, 3);
    const ropax = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "RoPax",
    });
    expect(ropax.co2eTeu).toBeCloseTo(980, 3);
    // The previous single container proxy (89.4 g/TEU-km) was 11 x below the ro-pax value.
    expect(ropax.co2eTeu / 89.4).toBeCloseTo(10.96, 2);
    // Reefer boxes on a ro-ro pay the flat uplift (no published reefer value for ro-ro).
    const reefer = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "RORO",
      containerType: "20RF",
    });
    expect(reefer.co2eTeu).toBeCloseTo(375 * 1.12, 3);
  });

  test("an unknown vessel type is Incorrect Values naming vesselType and the allowed values", () => {
    expect(() =>
      calc.compute({ modality: "SHORTSEA", distanceMeters: 1000, vesselType: "TANKER" })
    ).toThrow(
      /vesselType "TANKER" is not known for SHORTSEA; allowed values: CONTAINER, RORO, ROPAX/
    );
    expect(() =>
      calc.compute({ modality: "RAIL", distanceMeters: 1000, vesselType: "RORO" })
    ).toThrow(/RAIL has no vessel types/);
  });
});

describe("barge vessel classes (GLEC v3.0 inland waterways, Table 2)", () => {
  const barge = (lengthM: number) =>
    calc.explain({
      modality: "BARGE",
      distanceMeters: 1_000_000,
      vessel: { lengthCm: lengthM * 100, widthCm: 1145, draughtCm: 300 },
    });

  test.each([
    [40, "Motor vessel < 50 m", 913],
    [63, "Motor vessel 50-85 m", 312],
    [110, "Container vessel 110 m", 270],
    [135, "Container vessel 135 m", 210],
    [185, "Container vessels - coupled convoy", 209],
  ])("%p m: %s, %p kg per TEU over 1,000 km", (length, name, kg) => {
    const x = barge(length as number);
    expect([x.sizeClass, x.co2eTeu]).toEqual([name, kg]);
  });

  test("without vessel dimensions: the 110 m container vessel (27.0 g CO2e/t-km)", () => {
    const x = calc.explain({ modality: "BARGE", distanceMeters: 1_000_000 });
    expect([x.sizeClass, x.co2eTeu]).toEqual([undefined, 270]);
    // HVO on a 135 m vessel: class intensity × WtW(HVO) / WtW(diesel).
    const hvo = calc.explain({
      modality: "BARGE",
      distanceMeters: 1_000_000,
      fuelType: "HVO",
      vessel: { lengthCm: 13500, widthCm: 1145, draughtCm: 350 },
    });
    expect(hvo.co2eTeu).toBeCloseTo((210 * 10) / 88.06, 2);
  });
});
