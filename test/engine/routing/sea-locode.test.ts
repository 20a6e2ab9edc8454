/**
 * A LOCODE routes like its port: every pair of the published tables whose two ends have a port of
 * the place data within 15 km is routed by the LOCODEs' coordinates and by the published
 * positions (the tables' distances are not used). A LOCODE inside land (a town centre, quays 1:50m
 * fills in) starts at its port's water, so the two agree.
 */
import { compareByLocode, PortPoint, tablePairs } from "../../../src/bench/locode-position";
import { loadPlaces } from "../../../src/data/places";
import { loadSeaRouter } from "../../../src/data/sea";
import { DEFAULT_CLOSED } from "../../../src/engine/routing/vessels";

const router = loadSeaRouter();
const ports: PortPoint[] = loadPlaces()
  .ports.all()
  .filter((p) => p.lat !== undefined && p.lng !== undefined)
  .map((p) => ({ locode: p.locode, lat: p.lat!, lng: p.lng! }));
const results = compareByLocode(tablePairs(), ports, (a, b, avoid) => {
  const r = router.route(a, b, { closed: new Set([...DEFAULT_CLOSED, ...avoid]) });
  return r ? r.meters : null;
});

describe("LOCODE against the port's published position", () => {
  it("finds a LOCODE at both ends of at least 190 table pairs", () => {
    expect(results.length).toBeGreaterThanOrEqual(190);
  });

  it("routes none more than 15 % differently by LOCODE (Port Said-Alexandria was +135 %)", () => {
    expect(
      results
        .filter((r) => Math.abs(r.off) > 0.15)
        .map((r) => `${r.key}: ${(100 * r.off).toFixed(0)} %`)
    ).toEqual([]);
  });

  it("EGPSD → EGALY is within the published 152-164 nm (±5 %)", () => {
    const r = results.find((x) => x.from.locode === "EGPSD" && x.to.locode === "EGALY")!;
    expect(r.byLocode / 1852).toBeGreaterThan(152 * 0.95);
    expect(r.byLocode / 1852).toBeLessThan(164 * 1.05);
  });
});
