/**
 * The contracted search: chain graph invariants, the core distance table against A* and plain
 * Dijkstra, zero-length and same-edge queries, antimeridian paths, estuary approaches and
 * land-aware snapping. All on the real network files.
 */
import {
  loadSeaNetwork,
  loadSeaRouter,
  loadSeaTables,
  loadSnapLand,
  readPassageAreas,
} from "../../../src/data/sea";
import { geodesicMeters, NetworkSeaRouter } from "../../../src/engine/routing/sea";
import { connectorIsClear, isLand } from "../../../src/engine/routing/sea/land-mask";
import { LatLng, Passage } from "../../../src/engine/types";

const DEFAULT_CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);
const ROTTERDAM = { lat: 51.95, lng: 4.05 };
const SHANGHAI = { lat: 30.63, lng: 122.07 };
const LOS_ANGELES = { lat: 33.74, lng: -118.26 };

/** Deterministic pseudo-random sea points: network vertices moved a little off the lines. */
function samplePoints(n: number): LatLng[] {
  const { graph } = loadSeaNetwork();
  let seed = 12345;
  const rnd = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const out: LatLng[] = [];
  while (out.length < n) {
    const v = Math.floor(rnd() * graph.vertexCount);
    out.push({
      lat: Math.max(-70, Math.min(75, graph.lat[v] + (rnd() - 0.5) * 0.2)),
      lng: graph.lng[v] + (rnd() - 0.5) * 0.2,
    });
  }
  return out;
}

describe("chain graph", () => {
  const { graph } = loadSeaNetwork();
  const { chains, tables } = loadSeaTables();

  it("puts every main-network edge in exactly one chain, lengths adding up", () => {
    let mainLength = 0;
    let chainEdges = 0;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (!graph.edgeInMain[e]) {
        expect(chains.edgeChain[e]).toBe(-1);
        continue;
      }
      mainLength += graph.edgeLength[e];
      expect(chains.edgeChain[e]).toBeGreaterThanOrEqual(0);
      chainEdges++;
    }
    expect(chains.chainEdge.length).toBe(chainEdges);
    const total = chains.chainLength.reduce((s, x) => s + x, 0);
    expect(Math.abs(total - mainLength)).toBeLessThan(1);
  });

  it("has far fewer junctions than vertices, and core tables for the DEEPSEA and SHORTSEA default closed sets", () => {
    expect(chains.junctionCount).toBeLessThan(graph.vertexCount / 2);
    expect(tables).toHaveLength(2);
    expect(tables[1].closedMask).not.toBe(tables[0].closedMask);
    const t = tables[0];
    expect(t.size).toBeGreaterThan(100);
    expect(t.size).toBeLessThanOrEqual(chains.junctionCount);
    // Symmetric, zero on the diagonal.
    for (const [a, b] of [
      [0, 1],
      [5, 17],
      [t.size - 1, 3],
    ]) {
      expect(t.dist[a * t.size + a]).toBe(0);
      expect(t.dist[a * t.size + b]).toBeCloseTo(t.dist[b * t.size + a], 3);
    }
  });
});

describe("table, A* and Dijkstra agree", () => {
  const { graph } = loadSeaNetwork();
  const { chains, tables } = loadSeaTables();
  const land = loadSnapLand().mask;
  const areas = readPassageAreas();
  const table = new NetworkSeaRouter(graph, { chains, tables, land, areas });
  const astar = new NetworkSeaRouter(graph, { chains, land, areas, useTables: false });
  const dijkstra = new NetworkSeaRouter(graph, { chains, land, areas, useAStar: false });
  const points = samplePoints(120);

  it("on 60 random pairs with the default closed passages (table used)", () => {
    for (let i = 0; i < 60; i++) {
      const from = points[2 * i];
      const to = points[2 * i + 1];
      const a = table.route(from, to, { closed: DEFAULT_CLOSED });
      const b = astar.route(from, to, { closed: DEFAULT_CLOSED });
      const c = dijkstra.route(from, to, { closed: DEFAULT_CLOSED });
      expect(!!a).toBe(!!c);
      if (!a || !b || !c) continue;
      // Equal-length alternatives may be picked differently; their end straightening then differs by a few metres at most.
      expect(Math.abs(a.meters - c.meters)).toBeLessThan(5);
      expect(Math.abs(b.meters - c.meters)).toBeLessThan(5);
      expect(a.passages).toEqual(c.passages);
    }
    expect(table.tableHits).toBeGreaterThan(50);
    expect(astar.tableHits).toBe(0);
  });

  it("with other closed passages (no table: A* on the junctions)", () => {
    const closed = new Set<Passage>([...DEFAULT_CLOSED, "SUEZ", "PANAMA"]);
    const before = table.tableHits;
    for (let i = 0; i < 30; i++) {
      const a = table.route(points[i], points[119 - i], { closed });
      const c = dijkstra.route(points[i], points[119 - i], { closed });
      expect(!!a).toBe(!!c);
      if (a && c) expect(Math.abs(a.meters - c.meters)).toBeLessThan(5);
      if (a) expect(a.passages).not.toContain("SUEZ");
    }
    expect(table.tableHits).toBe(before);
  });

  it("the path of a table route is as long as its distance (it really is that route)", () => {
    const r = table.route(SHANGHAI, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
    // Sum of great-circle legs on the sphere vs the ellipsoidal distance: within 0.5 %.
    let m = 0;
    for (let i = 1; i < r.path.length; i++) {
      const p = r.path[i - 1];
      const q = r.path[i];
      const rad = Math.PI / 180;
      const h =
        Math.sin(((q.lat - p.lat) * rad) / 2) ** 2 +
        Math.cos(p.lat * rad) * Math.cos(q.lat * rad) * Math.sin(((q.lng - p.lng) * rad) / 2) ** 2;
      m += 2 * 6_371_008.8 * Math.asin(Math.sqrt(h));
    }
    expect(Math.abs(m - r.meters) / r.meters).toBeLessThan(0.005);
  });
});

describe("special queries", () => {
  const router = loadSeaRouter();

  it("origin == destination is 0 m (NLRTM to NLRTM)", () => {
    const r = router.route(ROTTERDAM, { ...ROTTERDAM }, { closed: DEFAULT_CLOSED })!;
    expect(r.meters).toBe(0);
    expect(r.passages).toEqual([]);
    expect(r.path).toEqual([ROTTERDAM]);
  });

  it("two points nearest to the same edge: the straight distance between them (no network detour)", () => {
    const { graph } = loadSeaNetwork();
    // Without a land raster there is no straight-line rule: only the same-edge rule can apply.
    const plain = new NetworkSeaRouter(graph, { chains: loadSeaTables().chains });
    const e = 100;
    const a = graph.edgeA[e];
    const b = graph.edgeB[e];
    const onEdge = (t: number): LatLng => {
      const ua = [graph.ux[a], graph.uy[a], graph.uz[a]];
      const ub = [graph.ux[b], graph.uy[b], graph.uz[b]];
      const v = ua.map((x, i) => x * (1 - t) + ub[i] * t);
      const n = Math.hypot(v[0], v[1], v[2]);
      return {
        lat: (Math.asin(v[2] / n) * 180) / Math.PI,
        lng: (Math.atan2(v[1], v[0]) * 180) / Math.PI,
      };
    };
    const p = onEdge(0.3);
    const q = onEdge(0.6);
    expect(plain.snap(p)!.offset).toBeLessThan(1);
    const r = plain.route(p, q, { closed: new Set() })!;
    expect(r.meters).toBeCloseTo(geodesicMeters(p.lat, p.lng, q.lat, q.lng), 3);
    expect(r.path).toHaveLength(2);
  });

  it("trans-Pacific paths have continuous longitudes and the ±180° crossing as a point", () => {
    const r = router.route(SHANGHAI, LOS_ANGELES, { closed: DEFAULT_CLOSED })!;
    for (let i = 1; i < r.path.length; i++)
      expect(Math.abs(r.path[i].lng - r.path[i - 1].lng)).toBeLessThanOrEqual(180);
    expect(r.path[0]).toEqual(SHANGHAI);
    expect(r.path.some((p) => p.lng === 180)).toBe(true);
    // The destination, unwrapped eastward: -118.26 + 360.
    expect(r.path[r.path.length - 1].lng).toBeCloseTo(LOS_ANGELES.lng + 360, 6);
    expect(r.path[r.path.length - 1].lat).toBe(LOS_ANGELES.lat);
    // Great circle, not MARNET's ~40°N lane: the route goes north of 45°N somewhere.
    expect(r.path.some((p) => p.lat > 45)).toBe(true);
  });
});

describe("estuary approaches and land-aware snapping", () => {
  const router = loadSeaRouter();
  const land = loadSnapLand().mask;

  it("Antwerp is reached up the Western Scheldt, past Terneuzen, not by a straight line from Vlissingen", () => {
    const r = router.route(ROTTERDAM, { lat: 51.28, lng: 4.26 }, { closed: DEFAULT_CLOSED })!;
    const nearTerneuzen = r.path.some(
      (p) => Math.abs(p.lat - 51.345) < 0.02 && Math.abs(p.lng - 3.83) < 0.02
    );
    expect(nearTerneuzen).toBe(true);
  });

  it("Felixstowe leaves by water: the connector to its snap point crosses no land", () => {
    const felixstowe = { lat: 51.95, lng: 1.32 };
    const r = router.route(felixstowe, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
    // The first leg leaves Felixstowe by water (3 km of its own shore not counted; 3 km at Maasvlakte too when the leg goes straight there).
    const skipTo = r.path.length === 2 ? 3 : 1;
    expect(connectorIsClear(land, felixstowe, r.path[1], 3, skipTo, 1)).toBe(true);
    // Straight across the North Sea, about 101 nm (it used to cut over Suffolk to a lane north of Orford Ness).
    expect(r.meters / 1852).toBeGreaterThan(95);
    // The raster itself: Suffolk is land, the North Sea is not.
    expect(isLand(land, 52.2, 1.2)).toBe(true);
    expect(isLand(land, 52.0, 2.5)).toBe(false);
  });
});
