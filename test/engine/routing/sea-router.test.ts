/** The sea router on the real MARNET network and data/passages.json (built once per file). */
import {
  buildSeaGraphFromFiles,
  loadSeaNetwork,
  loadSeaRouter,
  loadCoastIndex,
  loadSnapLand,
  readPassageAreas,
} from "../../../src/data/sea";
import { passageEdgeCounts } from "../../../src/engine/routing/sea";
import { Passage, PASSAGES } from "../../../src/engine/types";

const NM = 1852;
const DEFAULT_CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);
const SHANGHAI = { lat: 30.63, lng: 122.07 }; // Yangshan
const LOS_ANGELES = { lat: 33.74, lng: -118.26 };
const ROTTERDAM = { lat: 51.95, lng: 4.05 }; // Maasvlakte
const NEW_YORK = { lat: 40.67, lng: -74.04 };
const HAMBURG = { lat: 53.54, lng: 9.95 };

describe("graph build", () => {
  const { graph } = loadSeaNetwork();

  it("builds typed arrays with WGS84 edge lengths", () => {
    expect(graph.lat).toBeInstanceOf(Float64Array);
    expect(graph.adjOffset).toBeInstanceOf(Int32Array);
    expect(graph.edgeLength).toBeInstanceOf(Float64Array);
    expect(graph.edgePassage).toBeInstanceOf(Uint8Array);
    expect(graph.vertexCount).toBeGreaterThan(5500);
    expect(graph.edgeCount).toBeGreaterThan(7000);
    expect(graph.adjOffset[graph.vertexCount]).toBe(2 * graph.edgeCount);
    // Build time is measured by npm run bench, not asserted here (a shared machine is noisy).
  });

  it("merges the ±180° vertices: none is left on +180 with a twin on -180", () => {
    const keys = new Set<string>();
    for (let v = 0; v < graph.vertexCount; v++) {
      if (Math.abs(graph.lng[v]) !== 180) continue;
      const key = graph.lat[v].toFixed(6);
      expect(keys.has(key)).toBe(false);
      keys.add(key);
    }
    expect(keys.size).toBeGreaterThan(10);
  });

  it("joins detached pieces, so almost every edge is in the main network", () => {
    let inMain = 0;
    for (let e = 0; e < graph.edgeCount; e++) inMain += graph.edgeInMain[e];
    expect(graph.stitched).toBeGreaterThan(50);
    expect(inMain / graph.edgeCount).toBeGreaterThan(0.98);
  });

  it("labels edges in every passage; KIEL (not in MARNET) comes from data/waterways.json via data/sea-approaches.json", () => {
    const counts = passageEdgeCounts(graph);
    const missing = PASSAGES.filter((p) => counts[p] === 0);
    expect(missing).toEqual([]);
  });

  it("is deterministic: a rebuild gives the same graph", () => {
    const again = buildSeaGraphFromFiles();
    expect(again.vertexCount).toBe(graph.vertexCount);
    expect(Array.from(again.edgeLength.slice(0, 50))).toEqual(
      Array.from(graph.edgeLength.slice(0, 50))
    );
  });
});

describe("snapping", () => {
  const router = loadSeaRouter();
  const { graph } = loadSeaNetwork();

  it("snaps to a point on an edge, not just to a vertex", () => {
    // Mid-Atlantic, between the network's vertices.
    const s = router.snap({ lat: 45.3, lng: -30.1 })!;
    const a = graph.edgeA[s.edge];
    const b = graph.edgeB[s.edge];
    expect(s.toA).toBeGreaterThan(1000);
    expect(s.toB).toBeGreaterThan(1000);
    expect(Math.abs(s.toA + s.toB - graph.edgeLength[s.edge])).toBeLessThan(
      graph.edgeLength[s.edge] * 0.01
    );
    expect(s.offset).toBeLessThan(Math.min(s.toA, s.toB) + 200_000);
    expect([graph.lat[a], graph.lat[b]]).not.toContain(s.lat);
  });

  it("a point on the network snaps onto itself", () => {
    const v = graph.edgeA[100];
    const w = graph.edgeB[100];
    const mid = { lat: (graph.lat[v] + graph.lat[w]) / 2, lng: (graph.lng[v] + graph.lng[w]) / 2 };
    expect(router.snap(mid)!.offset).toBeLessThan(5_000);
  });
});

describe("routes", () => {
  const router = loadSeaRouter();

  it("crosses the antimeridian: Shanghai → Los Angeles ≈ 5,700-6,000 nm, not round the world", () => {
    const r = router.route(SHANGHAI, LOS_ANGELES, { closed: DEFAULT_CLOSED })!;
    expect(r.meters / NM).toBeGreaterThan(5500);
    expect(r.meters / NM).toBeLessThan(6100);
    expect(r.passages).toEqual([]);
    expect(r.path.some((p) => Math.abs(p.lng) === 180)).toBe(true);
  });

  it("Shanghai → Rotterdam goes via MALACCA, BAB_EL_MANDEB, SUEZ, GIBRALTAR, DOVER", () => {
    const r = router.route(SHANGHAI, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
    expect(r.passages).toEqual(["MALACCA", "BAB_EL_MANDEB", "SUEZ", "GIBRALTAR", "DOVER"]);
    expect(r.meters / NM).toBeGreaterThan(10_200);
    expect(r.meters / NM).toBeLessThan(10_900);
    expect(r.path[0]).toEqual(SHANGHAI);
    expect(r.path[r.path.length - 1]).toEqual(ROTTERDAM);
  });

  it("avoiding SUEZ and PANAMA goes round the Cape and is much longer", () => {
    const suez = router.route(SHANGHAI, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
    const cape = router.route(SHANGHAI, ROTTERDAM, {
      closed: new Set([...DEFAULT_CLOSED, "SUEZ", "PANAMA"]),
    })!;
    expect(cape.passages).not.toContain("SUEZ");
    expect(cape.passages).not.toContain("PANAMA");
    expect(cape.meters - suez.meters).toBeGreaterThan(2500 * NM);
    // South of Africa: the path passes below 34°S near 20°E.
    expect(cape.path.some((p) => p.lat < -34 && p.lng > 10 && p.lng < 30)).toBe(true);
  });

  it("avoiding only SUEZ sends Asia–Europe traffic through Panama (why the issue says avoid both)", () => {
    const r = router.route(SHANGHAI, ROTTERDAM, { closed: new Set([...DEFAULT_CLOSED, "SUEZ"]) })!;
    expect(r.passages.includes("PANAMA") || r.path.some((p) => p.lat < -34)).toBe(true);
  });

  it("closing PANAMA makes Shanghai → New York longer and free of PANAMA", () => {
    const open = router.route(SHANGHAI, NEW_YORK, { closed: DEFAULT_CLOSED })!;
    const closed = router.route(SHANGHAI, NEW_YORK, {
      closed: new Set([...DEFAULT_CLOSED, "PANAMA"]),
    })!;
    expect(open.passages).toContain("PANAMA");
    expect(closed.passages).not.toContain("PANAMA");
    expect(closed.meters).toBeGreaterThan(open.meters + 500 * NM);
  });

  it("short sea: Rotterdam → Hamburg is about 300 nm", () => {
    const r = router.route(ROTTERDAM, HAMBURG, { closed: DEFAULT_CLOSED })!;
    expect(r.meters / NM).toBeGreaterThan(260);
    expect(r.meters / NM).toBeLessThan(340);
  });

  it("is symmetric (B→A is A→B reversed) and caches results", () => {
    const a = router.route(ROTTERDAM, NEW_YORK, { closed: DEFAULT_CLOSED })!;
    const b = router.route(NEW_YORK, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
    expect(b.meters).toBe(a.meters);
    expect(b.passages).toEqual([...a.passages].reverse());
    expect(b.path).toEqual([...a.path].reverse());
    const before = router.searches;
    const again = router.route(ROTTERDAM, NEW_YORK, { closed: new Set(DEFAULT_CLOSED) })!;
    expect(router.searches).toBe(before);
    expect(again).toBe(a);
  });

  it("A* gives the same distances as plain Dijkstra (the bound is admissible)", () => {
    const { NetworkSeaRouter } = jest.requireActual("../../../src/engine/routing/sea");
    const dijkstra = new NetworkSeaRouter(loadSeaNetwork().graph, {
      useAStar: false,
      land: loadSnapLand().mask,
      coast: loadCoastIndex(),
      areas: readPassageAreas(),
    });
    const pairs = [
      [SHANGHAI, ROTTERDAM],
      [LOS_ANGELES, NEW_YORK],
      [HAMBURG, SHANGHAI],
      [SHANGHAI, LOS_ANGELES],
    ] as const;
    for (const [from, to] of pairs) {
      const a = router.route(from, to, { closed: DEFAULT_CLOSED })!;
      const b = dijkstra.route(from, to, { closed: DEFAULT_CLOSED })!;
      expect(a.meters).toBeCloseTo(b.meters, 3);
    }
  });
});
