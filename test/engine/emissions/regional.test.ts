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
  test("North America: diesel by default at 18.73 g CO2e/t-km (AAR 470 ton-miles/gal, EIA 22.38 lb/gal, EN 16258 WTW)", () => {
    const x = calc.explain({
      modality: "RAIL",
      distanceMeters: 3_592_000,
      lane: { from: LOS_ANGELES, to: CHICAGO },
    });
    expect(x.region).toBe("North America");
    expect(x.fuelType).toBe("DIESEL");
    expect(x.baseGramsPerTeuKm).toBeCloseTo(187.3, 6);
    expect(x.co2eTeu).toBeCloseTo((187.3 * 3592) / 1000, 3); // 672.782 kg
    expect(x.co2eTon).toBeCloseTo(67.278, 3);
  });

  test("North American diesel is 41 % below the European diesel value (25 g CO2 TTW, 31.65 g WTW-equivalent)", () => {
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
    expect(na.co2eTeu).toBeCloseTo(187.3, 3);
    expect(eu.region).toBeUndefined();
    expect(eu.co2eTeu).toBeCloseTo(250, 3);
    expect(na.co2eTeu / (eu.co2eTeu * (3.76 / 2.97))).toBeCloseTo(0.592, 3);
  });

  test("elsewhere, and for legs leaving North America, the modality defaults stay", () => {
    const eu = calc.explain({
      modality: "RAIL",
      distanceMeters: 500_000,
      lane: { from: ROTTERDAM, to: DUISBURG },
    });
    expect(eu.fuelType).toBe("ELECTRIC");
    expect(eu.co2eTeu).toBeCloseTo(95, 3);
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
    expect(electric.co2eTeu).toBeCloseTo(95, 3);
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
    expect(r.co2eTeu).toBeCloseTo((187.3 * r.distance) / 1e6, 2);
  });
});

describe("short-sea vessel types", () => {
  test("container feeder stays the default (89.4 g/TEU-km); ro-ro is 367 g/TEU-km (GLEC v3.2 31.3 g TTW x 1.1725 WTW)", () => {
    const feeder = calc.explain({ modality: "SHORTSEA", distanceMeters: 1_000_000 });
    expect(feeder.vesselType).toBeUndefined();
    expect(feeder.co2eTeu).toBeCloseTo(89.4, 3);
    const container = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "container",
    });
    expect(container.co2eTeu).toBeCloseTo(89.4, 3);
    const roro = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "ro-ro".replace("-", ""),
    });
    expect(roro.vesselType).toBe("RORO");
    expect(roro.co2eTeu).toBeCloseTo(367, 3);
    expect(roro.co2eTeu / feeder.co2eTeu).toBeCloseTo(4.105, 3);
    // Fuel and reefer adjustments still apply on top of the vessel type.
    const reefer = calc.explain({
      modality: "SHORTSEA",
      distanceMeters: 1_000_000,
      vesselType: "RORO",
      containerType: "20RF",
    });
    expect(reefer.co2eTeu).toBeCloseTo(367 * 1.12, 3);
  });

  test("an unknown vessel type is Incorrect Values naming vesselType and the allowed values", () => {
    expect(() =>
      calc.compute({ modality: "SHORTSEA", distanceMeters: 1000, vesselType: "TANKER" })
    ).toThrow(/vesselType "TANKER" is not known for SHORTSEA; allowed values: CONTAINER, RORO/);
    expect(() =>
      calc.compute({ modality: "RAIL", distanceMeters: 1000, vesselType: "RORO" })
    ).toThrow(/RAIL has no vessel types/);
  });
});
