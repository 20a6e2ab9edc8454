/**
 * DEEPSEA's default vessel per trade (data/sea-trade-vessels.json): an Asia-Europe lane is sailed
 * by a ULCV, which fits no Panama lock (data/canal-limits.csv, Neopanamax 366 m x 51.25 m x
 * 15.2 m), so with Suez avoided it goes round the Cape, not through Panama.
 */
import { loadEngine } from "../../../src/data/load-engine";
import { loadVesselResolver } from "../../../src/data/sea";

const NM = 1852;
const engine = loadEngine();

describe("default DEEPSEA vessel per trade", () => {
  it("every trade names its vessel class, its two regions and a source", () => {
    const trades = loadVesselResolver().trades!.trades;
    expect(trades.map((t) => t.trade)).toEqual(["Asia-Europe", "Trans-Pacific"]);
    for (const t of trades) {
      expect(t.source).toMatch(/https?:\/\//);
      expect(t.vesselClass.length).toBeGreaterThan(3);
    }
  });

  it("Asia-Europe: the ULCV does not fit Panama's Neopanamax locks, so avoid=SUEZ goes round the Cape", () => {
    const vessels = loadVesselResolver();
    const shanghai = { lat: 30.63, lng: 122.07 };
    const rotterdam = { lat: 51.95, lng: 4.05 };
    const closed = vessels.closedPassages(undefined, "DEEPSEA", { from: shanghai, to: rotterdam });
    expect(closed.has("PANAMA")).toBe(true);
    expect(closed.has("SUEZ")).toBe(false);
    const r = engine.distance({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      avoid: "SUEZ",
    });
    expect(r.passages).not.toContain("PANAMA");
    expect(r.passages).not.toContain("SUEZ");
    // Round the Cape of Good Hope: about 13,800 nm published (test/fixtures/sea-distances.csv).
    expect(r.distance / NM).toBeGreaterThan(13_300);
    expect(r.distance / NM).toBeLessThan(14_300);
    // The path passes south of Africa.
    expect(Math.min(...r.path.map((p) => p.lat))).toBeLessThan(-33);
  });

  it("a ship that fits the Neopanamax locks, given as vesselInfo, still goes through Panama", () => {
    const r = engine.distance({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      avoid: "SUEZ",
      vesselInfo: "36600,5125,1520",
    });
    expect(r.passages).toContain("PANAMA");
  });

  it("a lane of no listed trade keeps the general default (Panama open)", () => {
    const vessels = loadVesselResolver();
    const closed = vessels.closedPassages(undefined, "DEEPSEA", {
      from: { lat: 40.68, lng: -74.04 },
      to: { lat: -33.03, lng: -71.63 },
    });
    expect([...closed].sort()).toEqual(["CORINTH", "KIEL", "NORTHEAST", "NORTHWEST"]);
  });
});
