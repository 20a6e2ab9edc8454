/**
 * Through the real engine (real port, sea-network and factor files): RouteEngine.emissions hands the
 * resolved origin and destination to the calculator, so DEEPSEA legs between Europe and Africa get
 * the Europe-Africa lane intensity and the rest the global default.
 */
import { loadEngine } from "../../../src/data/load-engine";

const engine = loadEngine();

describe("RouteEngine.emissions with trade lanes", () => {
  test("NLRTM -> NGLOS (Rotterdam - Lagos): 89.4 g CO2e/TEU-km over the routed distance", () => {
    const r = engine.emissions({ origin: "NLRTM", destination: "NGLOS", modality: "DEEPSEA" });
    expect(r.distance).toBeGreaterThan(7_000_000);
    expect(r.co2eTeu).toBeCloseTo((89.4 * r.distance) / 1e6, 2);
    expect(r.co2eTon).toBeCloseTo((89.4 * r.distance) / 1e7, 2);
  });

  test("CNSHA -> NLRTM keeps the global default 80.4; the distance call is unchanged", () => {
    const r = engine.emissions({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      containerType: "40HC",
    });
    expect(r.distance).toBe(
      engine.distance({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" }).distance
    );
    expect(r.co2eTeu).toBeCloseTo((80.4 * r.distance) / 1e6, 2);
  });

  test("vesselInfo as dimensions picks the size class (400 m x 61 m: x 0.7854)", () => {
    const plain = engine.emissions({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" });
    const big = engine.emissions({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      vesselInfo: "39990,6100,1450",
    });
    expect(big.co2eTeu).toBeCloseTo((80.4 * 0.7854 * big.distance) / 1e6, 2);
    expect(big.co2eTeu).toBeLessThan(plain.co2eTeu);
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
