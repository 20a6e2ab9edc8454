/**
 * The land raster's compact form (blocks: all sea, all land, or their bits) answers every cell
 * exactly as the plain bit set, on Natural Earth land at the snapping resolution, and is smaller.
 */
import { loadLandPolygons } from "../../../src/data/inland";
import { SNAP_LAND_CELL_DEGREES } from "../../../src/data/sea";
import { compactLandMask, isLand, rasteriseLand } from "../../../src/engine/routing/sea/land-mask";

describe("compact land raster", () => {
  const full = rasteriseLand(loadLandPolygons(), SNAP_LAND_CELL_DEGREES);
  const compact = compactLandMask(full);

  it("gives every cell of the plain raster, at cell centres and on block edges", () => {
    let differ = 0;
    let land = 0;
    const d = full.cellDegrees;
    // Every 7th row and column (all block positions are hit: 7 and 20 are coprime).
    for (let r = 0; r < full.rows; r += 7) {
      for (let c = 0; c < full.cols; c += 7) {
        const lat = -90 + (r + 0.5) * d;
        const lng = -180 + (c + 0.5) * d;
        const a = isLand(full, lat, lng);
        if (a) land++;
        if (a !== isLand(compact, lat, lng)) differ++;
      }
    }
    expect(differ).toBe(0);
    // About 29 % of the globe is land; more at this raster's poles.
    expect(land / ((full.rows / 7) * (full.cols / 7))).toBeGreaterThan(0.25);
    for (const [lat, lng] of [
      [52.2, 1.2], // Suffolk
      [52.0, 2.5], // North Sea
      [-85, 100], // Antarctica
      [0, -30], // Atlantic
      [51.95, 4.0], // Maasvlakte coast
    ])
      expect(isLand(compact, lat, lng)).toBe(isLand(full, lat, lng));
  });

  it("keeps bits only for coastal blocks", () => {
    const mixed = Array.from(compact.blocks).filter((v) => v >= 2).length;
    expect(mixed).toBeGreaterThan(5_000);
    expect(compact.mixedBits.length).toBe(mixed * 50);
    expect(compact.blocks.byteLength + compact.mixedBits.byteLength).toBeLessThan(
      full.bits.byteLength / 3
    );
  });
});
