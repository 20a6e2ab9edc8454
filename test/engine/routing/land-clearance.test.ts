/**
 * The exact land test skips the pieces of a leg that lie far from every coast (clearance.ts): a
 * property over random islands and random legs that the skipping changes no answer. crossesLand
 * (which skips) must agree with landMeters (which measures every piece) wherever the leg is not
 * tangent to a coast, and clearMeters must never reach a cell that holds a coast.
 */
import { buildLandIndexParts, LandIndex } from "../../../src/engine/routing/sea/land-crossing";
import { loadSeaParts } from "../../../src/data/sea";
import { edgeClearance } from "../../../src/engine/routing/sea/clearance";
import { MEAN_RADIUS_M } from "../../../src/engine/geo/geodesy";

/** The point `meters` from p on the sphere along the initial bearing (degrees). */
function destination(lat: number, lng: number, bearing: number, meters: number) {
  const d = meters / MEAN_RADIUS_M;
  const f = (lat * Math.PI) / 180;
  const t = (bearing * Math.PI) / 180;
  const f2 = Math.asin(Math.sin(f) * Math.cos(d) + Math.cos(f) * Math.sin(d) * Math.cos(t));
  const l2 =
    (lng * Math.PI) / 180 +
    Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(f), Math.cos(d) - Math.sin(f) * Math.sin(f2));
  const out = { lat: (f2 * 180) / Math.PI, lng: (l2 * 180) / Math.PI };
  out.lng = ((((out.lng + 180) % 360) + 360) % 360) - 180;
  return out;
}

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Random islands: polygons of 5–12 vertices round random centres, a few degrees wide. */
function islands(r: () => number, n: number): number[][][][] {
  const out: number[][][][] = [];
  for (let i = 0; i < n; i++) {
    const lat = r() * 140 - 70;
    const lng = r() * 360 - 180;
    const k = 5 + Math.floor(r() * 8);
    const size = 0.2 + r() * 4;
    const ring: number[][] = [];
    for (let j = 0; j < k; j++) {
      const a = (2 * Math.PI * j) / k;
      const s = size * (0.5 + r());
      ring.push([
        Math.max(-180, Math.min(179.999, lng + s * Math.cos(a))),
        Math.max(-85, Math.min(85, lat + s * Math.sin(a))),
      ]);
    }
    out.push([ring]);
  }
  return out;
}

describe("land test clearance", () => {
  const r = rng(29);
  const index = new LandIndex(islands(r, 120), 1);

  it("crossesLand (skipping open water) agrees with landMeters (every piece) on random legs", () => {
    let crossing = 0;
    for (let i = 0; i < 3000; i++) {
      const a = { lat: r() * 150 - 75, lng: r() * 360 - 180 };
      const b = destination(a.lat, a.lng, r() * 360, 20_000 + r() * 6_000_000);
      const meters = index.landMeters(a, b);
      if (meters > 0 && meters < 1) continue; // tangent to a coast: either answer is right
      const crosses = index.crossesLand(a, b);
      expect(crosses).toBe(meters > 0);
      if (crosses) crossing++;
    }
    // The property is not vacuous: many legs cross an island, many do not.
    expect(crossing).toBeGreaterThan(300);
    expect(crossing).toBeLessThan(2700);
  });

  it("clearMeters never reaches a cell holding a coast", () => {
    const clearance = edgeClearance(
      (index as unknown as { cellStart: Int32Array }).cellStart,
      360,
      180
    );
    let positive = 0;
    for (let i = 0; i < 3000; i++) {
      const p = { lat: r() * 170 - 85, lng: r() * 360 - 180 };
      const reach = index.clearMeters(p.lat, p.lng);
      if (reach <= 0) continue;
      positive++;
      for (let k = 0; k < 8; k++) {
        const q = destination(p.lat, p.lng, r() * 360, reach * r());
        const row = Math.min(179, Math.floor(q.lat + 90));
        const col = Math.floor((((q.lng + 180) % 360) + 360) % 360);
        expect(clearance[row * 360 + col]).toBeGreaterThan(0);
      }
    }
    expect(positive).toBeGreaterThan(500);
  });

  it("is made with the parts and kept by the sea snapshot, equal to a fresh pass", () => {
    const parts = buildLandIndexParts(islands(rng(7), 80), 2);
    expect(parts.clearance).toEqual(edgeClearance(parts.cellStart, parts.cols, parts.rows));
    // An index from parts without it computes the same clearance, so the same answers.
    const withIt = new LandIndex(parts);
    const without = new LandIndex({ ...parts, clearance: undefined });
    const r2 = rng(11);
    for (let i = 0; i < 2000; i++) {
      const lat = r2() * 178 - 89;
      const lng = r2() * 360 - 180;
      expect(withIt.clearMeters(lat, lng)).toBe(without.clearMeters(lat, lng));
    }
    const coast = loadSeaParts().value.coast;
    expect(coast.clearance).toBeInstanceOf(Uint8Array);
    expect(coast.clearance).toEqual(edgeClearance(coast.cellStart, coast.cols, coast.rows));
    // Not all 255 or all 0: the world's coasts give a spread of distances.
    expect(new Set(coast.clearance).size).toBeGreaterThan(10);
  });
});
