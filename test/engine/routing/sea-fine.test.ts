/**
 * Fine regions (src/engine/routing/sea-fine/, data/sea-fine-land.json): routes with both ends in
 * one fjord, sound or strait region run on a water grid over Natural Earth 1:10m land.
 *
 * The property (no reference table): random pairs of water points in each region route without
 * crossing 1:10m land, and the route is the region's grid path pulled straight: never longer
 * than that grid path, never shorter than it divided by the 8-direction grid's worst stretch
 * (1.0824) and a little slack, never shorter than the great circle. Then the cases the issue names.
 */
import * as fs from "fs";
import { buildFineLandFile, FINE_LAND_FILE } from "../../../src/builders/sea-fine/make-sea-fine";
import { loadFineSeaRegions, loadSeaRouter } from "../../../src/data/sea";
import { geodesicMeters } from "../../../src/engine/geo/geodesy";
import { FineGrid } from "../../../src/engine/routing/sea-fine/fine-grid";
import { LatLng, Passage } from "../../../src/engine/types";

const NM = 1852;
const fine = loadFineSeaRegions()!;
const CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);

function rng(seed: number): () => number {
  return () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

/** Legs of a path that cross 1:10m land, but for the moves of query points that lie on land. */
function landLegs(grid: FineGrid, path: LatLng[]): number {
  let n = 0;
  for (let k = 1; k < path.length; k++) {
    const a = path[k - 1];
    const b = path[k];
    const fromQuery =
      (k === 1 && grid.isLand(a.lat, a.lng)) ||
      (k === path.length - 1 && grid.isLand(b.lat, b.lng));
    if (!fromQuery && grid.crossesLand(a.lat, a.lng, b.lat, b.lng)) n++;
  }
  return n;
}

describe("fine sea regions", () => {
  test("data/sea-fine-land.json is what the builder makes from its inputs", () => {
    const committed = JSON.parse(fs.readFileSync(FINE_LAND_FILE, "utf8"));
    const built = buildFineLandFile();
    expect(committed.inputsSha256).toBe(built.inputsSha256);
    expect(committed.regions.map((r: { id: string }) => r.id)).toEqual(
      built.regions.map((r) => r.id)
    );
    expect(committed.provenance).toMatch(/Natural Earth 1:10m/);
  });

  test("a grid put back from its snapshot parts answers as the grid made from the rings", () => {
    const file = JSON.parse(fs.readFileSync(FINE_LAND_FILE, "utf8"));
    const region = file.regions.find((r: { id: string }) => r.id === "SUNDA_STRAIT");
    const made = new FineGrid(region);
    const back = new FineGrid(region, made.parts());
    expect(Buffer.from(back.water).equals(Buffer.from(made.water))).toBe(true);
    expect(Buffer.from(back.stepMask).equals(Buffer.from(made.stepMask))).toBe(true);
    const r = rng(5);
    for (let i = 0; i < 200; i++) {
      const lat = made.south + r() * (made.north - made.south);
      const lng = made.west + r() * (made.east - made.west);
      expect(back.isLand(lat, lng)).toBe(made.isLand(lat, lng));
    }
    // A part of another size is refused, not read as this region's.
    expect(() => new FineGrid(region, { ...made.parts(), water: new Uint8Array(3) })).toThrow(
      /do not fit/
    );
  });

  test.each(fine.ids.map((id) => [id]))(
    "%s: random water pairs keep off 1:10m land and follow the grid path pulled straight",
    (id) => {
      const grid = fine.grid(id);
      const r = rng(id.length * 7919 + id.charCodeAt(0));
      // Coastal pairs: a water point and another within about 40 km of it.
      const water: LatLng[] = [];
      const near = Math.round(40_000 / grid.stepNorth);
      const point = (row: number, col: number): LatLng => ({
        // Inside the cell, off its centre, so legs do not start on the grid.
        lat: grid.rowLat(row) + (r() - 0.5) * grid.dLat * 0.5,
        lng: grid.colLng(col) + (r() - 0.5) * grid.dLng * 0.5,
      });
      const isWater = (row: number, col: number): boolean =>
        row >= 4 &&
        col >= 4 &&
        row < grid.rows - 4 &&
        col < grid.cols - 4 &&
        grid.water[row * grid.cols + col] === 1;
      while (water.length < 16) {
        const row = Math.floor(r() * grid.rows);
        const col = Math.floor(r() * grid.cols);
        if (!isWater(row, col)) continue;
        for (let tries = 0; tries < 50; tries++) {
          const row2 = row + Math.round((r() * 2 - 1) * near);
          const col2 = col + Math.round((r() * 2 - 1) * near);
          if (!isWater(row2, col2)) continue;
          water.push(point(row, col), point(row2, col2));
          break;
        }
      }
      let routed = 0;
      for (let i = 0; i + 1 < water.length; i += 2) {
        const a = water[i];
        const b = water[i + 1];
        const route = fine.route(a, b, new Set());
        const gridM = fine.gridMeters(a, b);
        if (!route || gridM === null) {
          // Not joined by water inside the region (a lake, a closed basin): neither finds a way.
          expect([route ?? null, gridM]).toEqual([null, null]);
          continue;
        }
        routed++;
        expect(landLegs(grid, route.path)).toBe(0);
        const gc = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
        expect(route.meters).toBeGreaterThanOrEqual(gc * 0.999);
        // The pulled route against the grid path (its ends are the points, the grid's the cells).
        const cells = 2 * Math.hypot(grid.stepNorth, grid.stepEast[0]);
        expect(route.meters).toBeLessThanOrEqual(gridM + cells);
        expect(route.meters).toBeGreaterThanOrEqual(gridM / 1.0824 / 1.02 - cells);
      }
      expect(routed).toBeGreaterThanOrEqual(4);
    }
  );

  describe("the cases the issue names", () => {
    const router = loadSeaRouter();
    const route = (a: LatLng, b: LatLng) => router.route(a, b, { closed: CLOSED })!;

    test("Simon's Town → Cape Town goes round Cape Point (≥ 43 nm), not across the peninsula", () => {
      const r = route({ lat: -34.19, lng: 18.435 }, { lat: -33.905, lng: 18.435 });
      expect(r.meters / NM).toBeGreaterThanOrEqual(43);
      expect(r.meters / NM).toBeLessThan(55);
      expect(r.path.some((p) => p.lat < -34.33)).toBe(true); // off Cape Point
      expect(landLegs(fine.grid("CAPE_PENINSULA"), r.path)).toBe(0);
    });

    test("Bergen → Florø keeps to the leads inside the islands", () => {
      const a = { lat: 60.398, lng: 5.315 };
      const b = { lat: 61.6, lng: 5.03 };
      const r = route(a, b);
      const gc = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
      expect(r.meters).toBeLessThan(gc * 1.15);
      expect(landLegs(fine.grid("NORWAY_LEADS"), r.path)).toBe(0);
    });

    test("Wellington → Picton runs through Tory Channel", () => {
      const r = route({ lat: -41.28, lng: 174.78 }, { lat: -41.29, lng: 174.005 });
      expect(r.meters / NM).toBeGreaterThan(40);
      expect(r.meters / NM).toBeLessThan(55);
      // Tory Channel's entrance, between Arapawa Island and the South Island.
      expect(r.path.some((p) => geodesicMeters(p.lat, p.lng, -41.215, 174.32) < 3_000)).toBe(true);
      expect(landLegs(fine.grid("COOK_STRAIT_SOUNDS"), r.path)).toBe(0);
    });

    test("the Bosporus is followed bend by bend, not as a straight line", () => {
      const a = { lat: 41.0, lng: 29.01 };
      const b = { lat: 41.25, lng: 29.12 };
      const r = route(a, b);
      expect(r.path.length).toBeGreaterThan(4);
      expect(r.meters).toBeGreaterThan(geodesicMeters(a.lat, a.lng, b.lat, b.lng) * 1.02);
      expect(landLegs(fine.grid("BOSPORUS"), r.path)).toBe(0);
      expect(r.passages).toContain("BOSPORUS");
    });

    test("Wellington → Nelson leaves Cook Strait's region by its 1:10m water, not round D'Urville at 1:50m", () => {
      // Nelson lies west of the region: the route leaves it through a gate on its edge. At
      // 0fcff4f (one end outside: 1:50m only) it came out at 172 nm.
      const r = route({ lat: -41.28, lng: 174.78 }, { lat: -41.26, lng: 173.28 });
      expect(r.meters / NM).toBeLessThan(110);
      expect(r.meters / NM).toBeGreaterThan(80);
      const grid = fine.grid("COOK_STRAIT_SOUNDS");
      for (let k = 2; k < r.path.length; k++)
        expect(grid.legCrossesEdges(r.path[k - 1], r.path[k])).toBe(false);
    });

    test("a route with its other end outside is the same both ways", () => {
      const a = { lat: -41.28, lng: 174.78 };
      const b = { lat: -41.26, lng: 173.28 };
      expect(route(b, a).meters).toBe(route(a, b).meters);
    });

    test("a closed Bosporus is not sailed through", () => {
      const closed = new Set<Passage>([...CLOSED, "BOSPORUS"]);
      const r = fine.route({ lat: 41.0, lng: 29.01 }, { lat: 41.25, lng: 29.12 }, closed);
      expect(r ?? null).toBeNull();
    });
  });
});
