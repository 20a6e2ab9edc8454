/**
 * The terrain's barrier peaks (peaksInRanges in terrain.ts) skip pairs far apart in latitude: a
 * property over seeded random peaks that this picks the same peaks as measuring every pair.
 */
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";
import { Peak, peaksInRanges, Terrain } from "../../../src/engine/routing/overland/terrain";
import { loadPeaks } from "../../../src/data/inland";

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Every pair measured: what the terrain did before. */
function everyPair(peaks: Peak[], spacing: number): Peak[] {
  return peaks.filter((p) =>
    peaks.some((q) => q !== p && fastGeodesicMeters(p.lat, p.lng, q.lat, q.lng) <= spacing)
  );
}

/** Clusters of peaks, some spread along meridians (latitude-dominant pairs), some near the poles. */
function randomPeaks(r: () => number, n: number): Peak[] {
  const peaks: Peak[] = [];
  while (peaks.length < n) {
    const lat = r() * 178 - 89;
    const lng = r() * 360 - 180;
    const k = 1 + Math.floor(r() * 5);
    const spread = r() * 3;
    for (let i = 0; i < k; i++) {
      const pLat = Math.max(-89.9, Math.min(89.9, lat + (r() - 0.5) * spread));
      const pLng = lng + (r() < 0.5 ? 0 : (r() - 0.5) * spread);
      peaks.push({ name: `p${peaks.length}`, lat: pLat, lng: pLng, elevationMeters: 5000 });
    }
  }
  return peaks;
}

describe("peaksInRanges", () => {
  it("picks the same peaks, in the same order, as measuring every pair", () => {
    const r = rng(2026);
    let picked = 0;
    let total = 0;
    for (let t = 0; t < 60; t++) {
      const peaks = randomPeaks(r, 20 + Math.floor(r() * 80));
      const spacing = [20_000, 120_000, 250_000][t % 3];
      const fast = peaksInRanges(peaks, spacing);
      expect(fast).toEqual(everyPair(peaks, spacing));
      picked += fast.length;
      total += peaks.length;
    }
    // Not vacuous: many peaks are in a range, many are not.
    expect(picked).toBeGreaterThan(total * 0.2);
    expect(picked).toBeLessThan(total * 0.8);
  });

  it("gives the shipped peaks' barriers of the default terrain", () => {
    const peaks = loadPeaks();
    const terrain = new Terrain(peaks, () => false);
    const barriers = (terrain as unknown as { barriers: Peak[] }).barriers;
    expect(barriers).toEqual(everyPair(peaks, 120_000));
    expect(barriers.length).toBe(8);
  });
});
