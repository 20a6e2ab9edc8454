/**
 * Sea defaults per modality when no vesselInfo is given: SHORTSEA assumes a feeder that fits the
 * Kiel Canal, DEEPSEA a large container ship (Kiel closed). vesselInfo still decides when given.
 */
import { loadEngine } from "../../../src/data/load-engine";
import { loadVesselResolver } from "../../../src/data/sea";
import { DEFAULT_SHORTSEA_VESSEL } from "../../../src/engine/routing/vessels";

const ROTTERDAM = "51.95,4.05";
const GDANSK = "54.4,18.67";
const KM = 1000;

describe("sea defaults per modality (Rotterdam → Gdańsk)", () => {
  const engine = loadEngine({});
  const route = (modality: string, vesselInfo?: string) =>
    engine.distance({ origin: ROTTERDAM, destination: GDANSK, modality, vesselInfo });

  it("SHORTSEA without vesselInfo goes through the Kiel Canal", () => {
    const r = route("SHORTSEA");
    expect(r.passages).toContain("KIEL");
    expect(r.distance / KM).toBeGreaterThan(1150);
    expect(r.distance / KM).toBeLessThan(1350);
    expect(Math.max(...r.path!.map((p) => p.lat))).toBeLessThan(55.5);
  });

  it("DEEPSEA without vesselInfo goes round Skagen", () => {
    const r = route("DEEPSEA");
    expect(r.passages).not.toContain("KIEL");
    expect(r.distance / KM).toBeGreaterThan(1550);
    expect(Math.max(...r.path!.map((p) => p.lat))).toBeGreaterThan(57.5);
  });

  it("vesselInfo decides when given: a 300 m ship on SHORTSEA goes round Skagen, a small one on DEEPSEA through Kiel", () => {
    const big = route("SHORTSEA", "30000,4000,1200");
    expect(big.passages).not.toContain("KIEL");
    expect(big.distance).toBe(route("DEEPSEA").distance);
    const small = route("DEEPSEA", "15000,2000,700");
    expect(small.passages).toContain("KIEL");
    expect(small.distance).toBe(route("SHORTSEA").distance);
  });

  it("the default feeder fits Kiel but not Corinth; without a modality the DEEPSEA default applies", () => {
    const vessels = loadVesselResolver();
    const shortsea = vessels.closedPassages(undefined, "SHORTSEA");
    expect([...shortsea].sort()).toEqual(["CORINTH", "NORTHEAST", "NORTHWEST"]);
    expect(vessels.closedPassages(DEFAULT_SHORTSEA_VESSEL)).toEqual(shortsea);
    expect([...vessels.closedPassages(undefined)].sort()).toEqual([
      "CORINTH",
      "KIEL",
      "NORTHEAST",
      "NORTHWEST",
    ]);
  });
});
