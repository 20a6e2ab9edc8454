/**
 * Through the real engine (real port, sea-network and factor files): RouteEngine.emissions hands the
 * resolved origin and destination to the calculator, so sea legs get their GLEC v3.0 trade-lane
 * intensity (end-user WTW) and barge legs their vessel class.
 */
import { loadEngine } from "../../../src/data/load-engine";

const engine = loadEngine();

describe("RouteEngine.emissions with trade lanes", () => {
  test("NLRTM -> NGLOS (Rotterdam - Lagos): Europe-Africa 125.8 g CO2e/TEU-km over the routed distance", () => {
    const r = engine.emissions({ origin: "NLRTM", destination: "NGLOS", modality: "DEEPSEA" });
    expect(r.distance).toBeGreaterThan(7_000_000);
    expect(r.co2eTeu).toBeCloseTo((125.8 * r.distance) / 1e6, 2);
    expect(r.co2eTon).toBeCloseTo((125.8 * r.distance) / 1e7, 2);
  });

  test("CNSHA -> NLRTM: Asia to-from North Europe 49.9 (GLEC's own worked example lane); the distance call is unchanged", () => {
    const r = engine.emissions({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      containerType: "40HC",
    });
    expect(r.distance).toBe(
      engine.distance({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" }).distance
    );
    expect(r.co2eTeu).toBeCloseTo((49.9 * r.distance) / 1e6, 2);
  });

  test("vesselInfo as dimensions picks the size class (400 m x 61 m: x 0.7854)", () => {
    const plain = engine.emissions({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" });
    const big = engine.emissions({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      vesselInfo: "39990,6100,1450",
    });
    expect(big.co2eTeu).toBeCloseTo((49.9 * 0.7854 * big.distance) / 1e6, 2);
    expect(big.co2eTeu).toBeLessThan(plain.co2eTeu);
  });

  test("SHORTSEA GBFXT -> NLRTM: Intra North Europe 177.0; BARGE by vessel length (GLEC inland classes)", () => {
    const ss = engine.emissions({ origin: "GBFXT", destination: "NLRTM", modality: "SHORTSEA" });
    expect(ss.co2eTeu).toBeCloseTo((177.0 * ss.distance) / 1e6, 2);
    const barge = engine.emissions({ origin: "NLRTM", destination: "DEDUI", modality: "BARGE" });
    expect(barge.co2eTeu).toBeCloseTo((270 * barge.distance) / 1e6, 2);
    const big = engine.emissions({
      origin: "NLRTM",
      destination: "DEDUI",
      modality: "BARGE",
      vesselInfo: "13500,1145,350",
    });
    expect(big.co2eTeu).toBeCloseTo((210 * big.distance) / 1e6, 2);
  });

  test("bad fuel is still Incorrect Values before routing (no route needed)", () => {
    expect(() =>
      engine.emissions({
        origin: "NLRTM",
        destination: "NGLOS",
        modality: "DEEPSEA",
        fuelType: "electric",
      })
    ).toThrow(/allowed values for DEEPSEA: VLSFO/);
  });
});
