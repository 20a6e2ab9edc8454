/**
 * RAIL/TRUCK: great-circle × circuity on Natural Earth landmasses, with the real data files
 * (data/circuity.csv, data/land-links.csv, world-atlas 1:50m); RAIL near the freight corridors of
 * data/rail-corridors.json runs along them (more in rail-corridors.test.ts).
 */
import { Geodesic } from "geographiclib-geodesic";
import {
  loadCircuityFactors,
  loadLandLinks,
  loadLandPolygons,
  loadOverlandRouter,
} from "../../../src/data/inland";
import { LatLng } from "../../../src/engine/types";
import { CIRCUITY_REGIONS, CircuityTable } from "../../../src/engine/routing/overland/circuity";

const at = (lat: number, lng: number): LatLng => ({ lat, lng });
// Port/city coordinates (UN/LOCODE-style positions, rounded).
const ROTTERDAM = at(51.9225, 4.4792);
const MILAN = at(45.4642, 9.19);
const NEW_YORK = at(40.7128, -74.006);
const SHANGHAI = at(31.2304, 121.4737);
const LOS_ANGELES = at(33.7405, -118.2775);
const CHONGQING = at(29.563, 106.5516);
const DUISBURG = at(51.4344, 6.7623);
const LONDON = at(51.5072, -0.1276);
const PARIS = at(48.8566, 2.3522);
const DUBLIN = at(53.3498, -6.2603);
const TOKYO = at(35.6762, 139.6503);
const SAPPORO = at(43.06, 141.35);
const COPENHAGEN = at(55.6761, 12.5683);
const HAMBURG = at(53.5511, 9.9937);
const MID_ATLANTIC = at(30, -40);

// The plain estimate: no corridors, no networks of data/land/, no terrain.
const circuityOnly = loadOverlandRouter({
  railCorridors: false,
  landNetworks: false,
  terrain: false,
});
let loadMs = 0;
const router = (() => {
  const t0 = performance.now();
  const r = loadOverlandRouter();
  loadMs = performance.now() - t0;
  return r;
})();
const factors = loadCircuityFactors();
const factor = (modality: string, region: string) =>
  factors.find((f) => f.modality === modality && f.region === region)!.factor;

function geodesic(a: LatLng, b: LatLng): number {
  return Geodesic.WGS84.Inverse(a.lat, a.lng, b.lat, b.lng).s12!;
}

describe("overland router (great circle × circuity)", () => {
  test("loads land, fixed links and a factor for every modality and region", () => {
    // Timing is measured by the benchmarks, not asserted here (the machine is shared).
    console.log(`overland router load: ${loadMs.toFixed(0)} ms`);
    expect(loadLandPolygons().length).toBeGreaterThan(1000);
    expect(loadLandLinks().length).toBeGreaterThanOrEqual(30);
    for (const modality of ["RAIL", "TRUCK"]) {
      // Every region without a row of its own falls back to DEFAULT.
      expect(factors.some((f) => f.modality === modality && f.region === "DEFAULT")).toBe(true);
      for (const f of factors.filter((x) => x.modality === modality)) {
        expect(CIRCUITY_REGIONS).toContain(f.region);
        expect(f.factor).toBeGreaterThanOrEqual(1);
        expect(f.factor).toBeLessThan(2);
      }
    }
    // Loaded and working: a trip inside Europe is priced.
    expect(router.route(ROTTERDAM, MILAN, "TRUCK")?.basis).toBe("great circle × circuity");
  });

  test("TRUCK Rotterdam→Milan is the geodesic × the EUROPE road factor × the Alps' relief, near the ~1,100 km road distance", () => {
    const r = router.route(ROTTERDAM, MILAN, "TRUCK")!;
    expect(r).not.toBeNull();
    expect(router.regionFor(ROTTERDAM, MILAN, "TRUCK")).toBe("EUROPE");
    expect(factor("TRUCK", "EUROPE")).toBe(1.2);
    // Without relief: the geodesic × 1.2 (956.5 km); the line over the Alps climbs more than 2 m
    // per km beyond its net change, so relief adds its full 7.5 % (terrain.ts).
    const flat = loadOverlandRouter({ relief: false }).route(ROTTERDAM, MILAN, "TRUCK")!;
    expect(flat.meters).toBeCloseTo(geodesic(ROTTERDAM, MILAN) * 1.2, 3);
    expect(flat.meters / 1000).toBeCloseTo(956.5, 0);
    expect(r.meters).toBeCloseTo(geodesic(ROTTERDAM, MILAN) * 1.2 * 1.075, 3);
    // Real road distance is about 1,050–1,100 km (via Basel/Gotthard); the circuity estimate is within 15 %.
    expect(r.meters / 1000).toBeGreaterThan(1100 * 0.85);
    expect(r.meters / 1000).toBeLessThan(1100 * 1.15);
    expect(r.path[0]).toEqual(ROTTERDAM);
    expect(r.path[r.path.length - 1]).toEqual(MILAN);
    expect(r.path.length).toBeGreaterThanOrEqual(3);
    // Drawn when first read, once: points along the geodesic, one every ~250 km.
    expect(r.path).toBe(r.path);
    const along = r.path.slice(1).reduce((m, p, i) => m + geodesic(r.path[i], p), 0);
    expect(along).toBeCloseTo(geodesic(ROTTERDAM, MILAN), 0);
    expect(r.path.length).toBe(Math.ceil(geodesic(ROTTERDAM, MILAN) / 250_000) + 1);
  });

  test("different landmasses give null, never a number", () => {
    expect(router.route(ROTTERDAM, NEW_YORK, "TRUCK")).toBeNull();
    expect(router.route(SHANGHAI, LOS_ANGELES, "RAIL")).toBeNull();
    expect(router.route(SHANGHAI, TOKYO, "RAIL")).toBeNull();
    expect(router.route(DUBLIN, LONDON, "TRUCK")).toBeNull(); // Ireland has no fixed link
    expect(router.route(MID_ATLANTIC, NEW_YORK, "TRUCK")).toBeNull(); // at sea, far from land
  });

  test("RAIL Chongqing→Duisburg: circuity alone uses the China–Europe factor; with the corridors it runs via Alashankou", () => {
    const circuity = circuityOnly.route(CHONGQING, DUISBURG, "RAIL")!;
    expect(circuityOnly.regionFor(CHONGQING, DUISBURG, "RAIL")).toBe("CHINA_EUROPE_RAIL");
    expect(circuity.meters).toBeCloseTo(
      geodesic(CHONGQING, DUISBURG) * factor("RAIL", "CHINA_EUROPE_RAIL"),
      3
    );
    const corridor = router.explainRail(CHONGQING, DUISBURG)!;
    expect(corridor.method).toBe("corridor");
    expect(corridor.junctions).toEqual(
      expect.arrayContaining(["Alashankou", "Dostyk", "Brest (BY)"])
    );
    expect(router.route(CHONGQING, DUISBURG, "RAIL")!.meters).toBeCloseTo(corridor.meters, 3);
    // Published Yuxinou route length is 11,179 km via Xi'an, Lanzhou, Ürümqi (China Daily 2013);
    // the shortest corridor route takes the newer Chongqing-Lanzhou line instead.
    const published = router.explainRail(CHONGQING, DUISBURG, ["XIAN", "ALASHANKOU"])!;
    expect(Math.abs(published.meters / 1000 - 11179) / 11179).toBeLessThan(0.05);
    expect(corridor.meters).toBeLessThan(published.meters);
    // The same trip by truck uses the DEFAULT factor of its distance band (no cross-region road
    // value); the plain estimate, without terrain.
    expect(router.regionFor(CHONGQING, DUISBURG, "TRUCK")).toBe("DEFAULT");
    const km = geodesic(CHONGQING, DUISBURG) / 1000;
    expect(circuityOnly.route(CHONGQING, DUISBURG, "TRUCK")!.meters).toBeCloseTo(
      geodesic(CHONGQING, DUISBURG) *
        new CircuityTable(factors).lookup("TRUCK", "DEFAULT", km).factor,
      3
    );
    expect(router.route(CHONGQING, DUISBURG, "TRUCK")!.meters).toBeGreaterThanOrEqual(
      circuityOnly.route(CHONGQING, DUISBURG, "TRUCK")!.meters
    );
  });

  test("RAIL where no corridor applies stays great circle × circuity", () => {
    // Milan and Lisbon are more than 300 km from every corridor node; Japan has no corridors.
    for (const [a, b] of [
      [ROTTERDAM, MILAN],
      [at(38.72, -9.14), at(40.39, -3.67)],
      [SAPPORO, TOKYO],
    ]) {
      expect(router.explainRail(a, b)!.method).toBe("circuity");
      expect(router.route(a, b, "RAIL")!.meters).toBeCloseTo(
        circuityOnly.route(a, b, "RAIL")!.meters,
        3
      );
    }
    // Two ends near the same corridor but close to each other: the corridor would be a detour.
    const twoNearby = router.explainRail(at(52.1, 21.3), at(52.3, 21.2));
    expect(twoNearby!.method).toBe("circuity");
  });

  test("Great Britain is joined to the continent through the Channel Tunnel for RAIL and TRUCK", () => {
    // The trip crosses at the tunnel (Folkestone → Coquelles), not along the great circle.
    const folkestone = at(51.095, 1.14);
    const coquelles = at(50.935, 1.81);
    const truck = router.route(LONDON, PARIS, "TRUCK")!;
    const rail = router.route(LONDON, PARIS, "RAIL")!;
    const viaTunnel = (f: number) =>
      geodesic(LONDON, folkestone) * f +
      geodesic(folkestone, coquelles) +
      geodesic(coquelles, PARIS) * f;
    expect(truck.meters).toBeCloseTo(viaTunnel(1.2), 3);
    expect(rail.meters).toBeCloseTo(viaTunnel(factor("RAIL", "EUROPE")), 3);
    expect(truck.path).toContainEqual(folkestone);
    expect(truck.path).toContainEqual(coquelles);
    // London–Paris by road is about 460 km.
    expect(truck.meters / 1000).toBeGreaterThan(430);
    expect(truck.meters / 1000).toBeLessThan(520);
    // Felixstowe → Rotterdam by truck goes round through the tunnel (~530 km by road), not 200 km across the sea.
    const felixstowe = router.route(at(51.955, 1.305), at(51.95, 4.05), "TRUCK")!;
    expect(felixstowe.meters / 1000).toBeGreaterThan(380);
  });

  test("fixed links open only to their modality: Seikan tunnel is rail-only", () => {
    expect(router.route(SAPPORO, TOKYO, "RAIL")).not.toBeNull();
    expect(router.route(SAPPORO, TOKYO, "TRUCK")).toBeNull();
  });

  test("Danish islands are joined by the Great Belt and Øresund links", () => {
    expect(router.route(COPENHAGEN, HAMBURG, "TRUCK")).not.toBeNull();
  });

  test("a port just off the coarse coastline snaps to its landmass", () => {
    const maasvlakte = at(51.95, 4.02);
    const r = router.route(maasvlakte, ROTTERDAM, "TRUCK")!;
    expect(r).not.toBeNull();
    expect(r.meters).toBeCloseTo(geodesic(maasvlakte, ROTTERDAM) * 1.2, 3);
  });

  test("region factors follow the countries of both ends", () => {
    expect(router.regionFor(SHANGHAI, CHONGQING, "RAIL")).toBe("CHINA");
    expect(router.regionFor(NEW_YORK, at(41.88, -87.63), "TRUCK")).toBe("NORTH_AMERICA");
    expect(router.regionFor(TOKYO, SAPPORO, "RAIL")).toBe("ASIA_OTHER");
  });

  test("every circuity factor has a source and a plausible value", () => {
    expect(factors.length).toBeGreaterThanOrEqual(10);
    for (const f of factors) {
      expect(f.source.length).toBeGreaterThan(5);
      expect(f.factor).toBeGreaterThanOrEqual(1);
      expect(f.factor).toBeLessThan(2);
    }
  });

  test("10,000 repeated overland routes give the same answer (landmass look-ups cached)", () => {
    const first = router.route(ROTTERDAM, MILAN, "TRUCK");
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) router.route(ROTTERDAM, MILAN, "TRUCK");
    const ms = performance.now() - t0;
    console.log(`10,000 overland routes: ${ms.toFixed(0)} ms`);
    expect(router.route(ROTTERDAM, MILAN, "TRUCK")).toEqual(first);
  });
});

describe("trips across fixed links", () => {
  // Terrain on, no corridors and no networks: a trip within one landmass is then exactly the
  // priced leg the search between landmasses uses.
  const legs = loadOverlandRouter({ railCorridors: false, landNetworks: false });
  const links = loadLandLinks();
  const landmassOf = (p: LatLng) => legs.parts.landmasses.landmassOf(p);

  /** Plain Dijkstra over the ends and every link end, each leg priced: the reference. */
  function plainDijkstra(from: LatLng, to: LatLng, modality: "RAIL" | "TRUCK"): number | null {
    const open = links.filter((l) => l.modalities.includes(modality));
    const points = [from, to, ...open.flatMap((l) => [l.a, l.b])];
    const land = points.map(landmassOf);
    const dist = points.map(() => Infinity);
    const done = points.map(() => false);
    dist[0] = 0;
    for (;;) {
      let u = -1;
      for (let i = 0; i < points.length; i++)
        if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
      if (u < 0) return null;
      if (u === 1) return dist[1];
      done[u] = true;
      for (let v = 0; v < points.length; v++) {
        if (done[v]) continue;
        let step: number | undefined;
        if (u >= 2 && v >= 2 && (u - 2) >> 1 === (v - 2) >> 1)
          step = geodesic(points[u], points[v]);
        else if (land[u] !== null && land[u] === land[v])
          step = legs.route(points[u], points[v], modality)!.meters;
        if (step !== undefined && dist[u] + step < dist[v]) dist[v] = dist[u] + step;
      }
    }
  }

  test("property: the search prices legs lazily yet finds plain Dijkstra's distance (random ends near links)", () => {
    // Seeded: ends up to ~150 km from random link ends, on different landmasses joined by links.
    let seed = 29;
    const random = () => ((seed = (seed * 48271) % 2147483647) - 1) / 2147483646;
    const near = (p: LatLng) => at(p.lat + (random() - 0.5) * 2.7, p.lng + (random() - 0.5) * 2.7);
    let checked = 0;
    for (let i = 0; i < 2000 && checked < 40; i++) {
      const modality = random() < 0.5 ? "TRUCK" : "RAIL";
      const [k, j] = [
        links[Math.floor(random() * links.length)],
        links[Math.floor(random() * links.length)],
      ];
      const from = near(random() < 0.5 ? k.a : k.b);
      const to = near(random() < 0.5 ? j.a : j.b);
      const [a, b] = [landmassOf(from), landmassOf(to)];
      if (a === null || b === null || a === b || !legs.connected(from, to, modality)) continue;
      const expected = plainDijkstra(from, to, modality);
      const got = legs.route(from, to, modality);
      expect(got?.meters).toBeCloseTo(expected!, 3);
      checked++;
    }
    expect(checked).toBe(40);
  });
});
