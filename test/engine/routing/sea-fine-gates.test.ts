/**
 * The ways out of a fine region (src/engine/routing/sea-fine/fine-router.ts): a route with one end
 * in a region leaves it by a gate on its edge, and the grid metres from a start cell to every gate
 * come from one search per start cell (kept, a Dijkstra with a bucket queue) instead of an A*
 * towards the other end per pair.
 *
 * Properties (no reference table): from random water points, every gate the search reaches is at
 * the A*'s grid metres between the two points, by a way of neighbouring cells whose steps add up
 * to those metres; a closed passage cuts the gates beyond it off; routes from random water points
 * of a region to a port outside it keep off 1:10m land inside it and are the same both ways.
 */
import { loadFineSeaRegions, loadSeaRouter } from "../../../src/data/sea";
import { geodesicMeters } from "../../../src/engine/geo/geodesy";
import { FineGrid } from "../../../src/engine/routing/sea-fine/fine-grid";
import { LatLng, Passage } from "../../../src/engine/types";

const fine = loadFineSeaRegions()!;
const CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Random points on water cells well inside the region's box. */
function waterPoints(grid: FineGrid, n: number, seed: number): LatLng[] {
  const r = rng(seed);
  const out: LatLng[] = [];
  while (out.length < n) {
    const row = 8 + Math.floor(r() * (grid.rows - 16));
    const col = 8 + Math.floor(r() * (grid.cols - 16));
    if (grid.water[row * grid.cols + col] === 1)
      out.push({ lat: grid.rowLat(row), lng: grid.colLng(col) });
  }
  return out;
}

/** Metres of a way of cell centres by the grid's own steps (a row's step east; south row's on a diagonal). */
function stepMetres(grid: FineGrid, way: LatLng[]): number {
  let m = 0;
  for (let k = 1; k < way.length; k++) {
    const ra = grid.row(way[k - 1].lat);
    const rb = grid.row(way[k].lat);
    const dr = rb - ra;
    const dc = grid.col(way[k].lng) - grid.col(way[k - 1].lng);
    expect(Math.max(Math.abs(dr), Math.abs(dc))).toBe(1);
    const ex = dc * grid.stepEast[Math.min(ra, rb)];
    m += Math.sqrt(ex * ex + (dr * grid.stepNorth) ** 2);
  }
  return m;
}

describe("ways out of a fine region", () => {
  test.each([["BOSPORUS"], ["SUNDA_STRAIT"]])(
    "%s: every gate reached is at the A*'s grid metres, by a way of neighbouring cells",
    (id) => {
      const grid = fine.grid(id);
      const r = rng(id.length);
      let checked = 0;
      for (const p of waterPoints(grid, 2, id.charCodeAt(0) * 31)) {
        const ways = fine.waysOut(id, p);
        expect(ways.length).toBeGreaterThan(0);
        // The same search again is the one kept: the same metres.
        expect(fine.waysOut(id, p).map((w) => w.metres)).toEqual(ways.map((w) => w.metres));
        for (const w of ways) {
          if (r() > 0.35) continue;
          const aStar = fine.gridMetersIn(id, p, w.gate);
          expect(aStar).not.toBeNull();
          expect(Math.abs(w.metres - aStar!)).toBeLessThan(1e-6 * aStar! + 1e-6);
          expect(w.way[0]).toEqual({ lat: p.lat, lng: p.lng });
          expect(w.way[w.way.length - 1]).toEqual(w.gate);
          expect(Math.abs(stepMetres(grid, w.way) - w.metres)).toBeLessThan(1e-6 * w.metres + 1e-6);
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(4);
    }
  );

  test("a search kept for a start cell is made again, farther, when a later route needs more", () => {
    const grid = fine.grid("DARDANELLES");
    const [p] = waterPoints(grid, 1, 3);
    const all = loadFineSeaRegions()!.waysOut("DARDANELLES", p);
    const far = Math.max(...all.map((w) => w.metres));
    const near = fine.waysOut("DARDANELLES", p, new Set(), far / 3);
    // Every gate within the radius, at its metres (a few beyond it, in the last bucket, too).
    const within = all.filter((w) => w.metres < far / 3);
    expect(within.length).toBeGreaterThan(0);
    expect(within.length).toBeLessThan(all.length);
    const metres = (ways: typeof all) =>
      new Map(ways.map((w) => [JSON.stringify(w.gate), w.metres]));
    const nearMetres = metres(near);
    for (const w of within) expect(nearMetres.get(JSON.stringify(w.gate))).toBe(w.metres);
    expect(near.length).toBeLessThan(all.length);
    // Asked again for all of them: the whole search, as a fresh one.
    expect(metres(fine.waysOut("DARDANELLES", p))).toEqual(metres(all));
  });

  test.each([["DARDANELLES"], ["SUNDA_STRAIT"]])(
    "%s: a search grown in steps (or made again after another) settles what one search does",
    (id) => {
      const grid = fine.grid(id);
      const r = rng(id.length * 7);
      const points = waterPoints(grid, 3, id.charCodeAt(1) * 13);
      const full = points.map((p) => loadFineSeaRegions()!.waysOut(id, p));
      let compared = 0;
      for (let k = 0; k < points.length; k++) {
        const far = Math.max(...full[k].map((w) => w.metres));
        // Radii that grow at random; now and then a search from another point comes between.
        const stepped = loadFineSeaRegions()!;
        let radius = 0;
        for (let step = 0; step < 5; step++) {
          radius += (r() * far) / 3;
          if (r() < 0.4) stepped.waysOut(id, points[(k + 1) % points.length], new Set(), radius);
          const ways = stepped.waysOut(id, points[k], new Set(), radius);
          const once = loadFineSeaRegions()!.waysOut(id, points[k], new Set(), radius);
          // The same gates at the same metres by the same cells (a grown search may hold more).
          const byGate = new Map(ways.map((w) => [JSON.stringify(w.gate), w]));
          for (const w of once) expect(byGate.get(JSON.stringify(w.gate))).toEqual(w);
          compared += once.length;
        }
        expect(stepped.waysOut(id, points[k])).toEqual(full[k]);
      }
      expect(compared).toBeGreaterThan(10);
    }
  );

  test("a closed Bosporus cuts off the gates beyond it", () => {
    const south = { lat: 41.0, lng: 29.01 };
    const north = (ways: Array<{ gate: LatLng }>) => ways.filter((w) => w.gate.lat > 41.2).length;
    expect(north(fine.waysOut("BOSPORUS", south))).toBeGreaterThan(0);
    const closed = fine.waysOut("BOSPORUS", south, new Set<Passage>(["BOSPORUS"]));
    expect(closed.length).toBeGreaterThan(0);
    expect(north(closed)).toBe(0);
  });

  test("routes from random water points of Cook Strait to Nelson keep off 1:10m land, both ways alike", () => {
    const router = loadSeaRouter();
    const grid = fine.grid("COOK_STRAIT_SOUNDS");
    const nelson = { lat: -41.26, lng: 173.28 };
    let routed = 0;
    for (const p of waterPoints(grid, 4, 17)) {
      const there = router.route(p, nelson, { closed: CLOSED });
      const back = router.route(nelson, p, { closed: CLOSED });
      if (!there) {
        expect(back).toBeNull();
        continue;
      }
      routed++;
      expect(back!.meters).toBe(there.meters);
      expect(there.meters).toBeGreaterThanOrEqual(
        geodesicMeters(p.lat, p.lng, nelson.lat, nelson.lng) * 0.999
      );
      // Nelson itself lies outside the region: its last leg (its own shore) is not checked.
      for (let k = 1; k < there.path.length - 1; k++)
        expect(grid.legCrossesEdges(there.path[k - 1], there.path[k])).toBe(false);
    }
    expect(routed).toBeGreaterThanOrEqual(3);
  });
});
