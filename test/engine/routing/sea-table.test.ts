/**
 * The contracted search: chain graph invariants, the contraction hierarchies against plain
 * Dijkstra (junction to junction and whole routes, with A* too), zero-length and same-edge queries, antimeridian paths, estuary approaches and
 * land-aware snapping. All on the real network files.
 */
import {
  loadSeaNetwork,
  loadSeaRouter,
  loadSeaTables,
  loadSnapLand,
  readPassageAreas,
} from "../../../src/data/sea";
import {
  closedPassageMask,
  geodesicMeters,
  NetworkSeaRouter,
} from "../../../src/engine/routing/sea";
import { unpackArc } from "../../../src/engine/routing/sea/contraction";
import { HierarchySearch } from "../../../src/engine/routing/sea/hierarchy-search";
import { JunctionSearch } from "../../../src/engine/routing/sea/junction-search";
import { connectorIsClear, isLand } from "../../../src/engine/routing/sea/land-mask";
import { LatLng, Passage } from "../../../src/engine/types";

const DEFAULT_CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "KIEL", "CORINTH"]);
/** The SHORTSEA default (a feeder that fits the Kiel Canal). */
const SHORTSEA_CLOSED = new Set<Passage>(["NORTHWEST", "NORTHEAST", "CORINTH"]);
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
  const { chains, hierarchies } = loadSeaTables();

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

  it("has far fewer junctions than vertices, and contraction hierarchies for the DEEPSEA and SHORTSEA default closed sets and the trade vessels' (Asia-Europe: Panama closed too)", () => {
    expect(chains.junctionCount).toBeLessThan(graph.vertexCount / 2);
    expect(hierarchies).toHaveLength(3);
    expect(hierarchies[0].closedMask).toBe(closedPassageMask(DEFAULT_CLOSED));
    expect(hierarchies[1].closedMask).toBe(closedPassageMask(SHORTSEA_CLOSED));
    expect(hierarchies[2].closedMask).toBe(closedPassageMask([...DEFAULT_CLOSED, "PANAMA"]));
  });
});

describe("contraction hierarchies", () => {
  const { chains, hierarchies } = loadSeaTables();
  const J = chains.junctionCount;

  it("rank every junction once; every arc goes up and unpacks into chains as long as the arc, tail to head", () => {
    for (const h of hierarchies) {
      expect([...h.rank].sort((a, b) => a - b)).toEqual(Array.from({ length: J }, (_, i) => i));
      let shortcuts = 0;
      const bad: number[] = [];
      for (let t = 0; t < J; t++) {
        for (let k = h.upOffset[t]; k < h.upOffset[t + 1]; k++) {
          if (h.upChain[k] < 0) shortcuts++;
          const path: number[] = [];
          unpackArc(h, k, true, path);
          let at = t;
          let metres = 0;
          let ok = h.rank[h.upHead[k]] > h.rank[t];
          for (const c of path) {
            ok &&= (chains.chainMask[c] & h.closedMask) === 0;
            ok &&= chains.chainA[c] === at || chains.chainB[c] === at;
            at = chains.chainA[c] === at ? chains.chainB[c] : chains.chainA[c];
            metres += chains.chainLength[c];
          }
          ok &&= at === h.upHead[k] && Math.abs(metres - h.upLength[k]) < 1e-6;
          if (!ok) bad.push(k);
        }
      }
      expect(bad).toEqual([]);
      // Real run: about 5,900 shortcuts over about 7,500 chain arcs.
      expect(shortcuts).toBeGreaterThan(1000);
      expect(shortcuts).toBeLessThan(h.upHead.length);
    }
  });

  it("give plain Dijkstra's junction-to-junction distances on 400 random pairs per closed set, to the millimetre", () => {
    const dijkstra = new JunctionSearch(chains);
    const search = new HierarchySearch(J);
    let seed = 777;
    const rnd = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    for (const h of hierarchies) {
      let reached = 0;
      for (let i = 0; i < 400; i++) {
        const a = Math.floor(rnd() * J);
        const b = Math.floor(rnd() * J);
        const exact = dijkstra.run([{ junction: a, cost: 0, tag: 0 }], {
          closedMask: h.closedMask,
          finish: new Map([[b, { cost: 0, tag: 0 }]]),
        });
        const hit = search.run(h, [{ junction: a, cost: 0 }], [{ junction: b, cost: 0 }], Infinity);
        expect(!!hit).toBe(!!exact);
        if (!hit || !exact) continue;
        reached++;
        expect(Math.abs(hit.cost - exact.cost)).toBeLessThan(1e-3);
        // The unpacked chains really lead from a to b and add up to the distance.
        let at = a;
        let metres = 0;
        for (const c of hit.chains) {
          at = chains.chainA[c] === at ? chains.chainB[c] : chains.chainA[c];
          metres += chains.chainLength[c];
        }
        expect(at).toBe(b);
        expect(Math.abs(metres - exact.cost)).toBeLessThan(1e-3);
      }
      expect(reached).toBeGreaterThan(390);
    }
  });
});

describe("hierarchy, A* and Dijkstra agree", () => {
  const { graph } = loadSeaNetwork();
  const { chains, hierarchies } = loadSeaTables();
  const land = loadSnapLand().mask;
  const areas = readPassageAreas();
  const hierarchical = new NetworkSeaRouter(graph, { chains, hierarchies, land, areas });
  const astar = new NetworkSeaRouter(graph, { chains, land, areas, useHierarchies: false });
  const dijkstra = new NetworkSeaRouter(graph, { chains, land, areas, useAStar: false });
  const points = samplePoints(400);

  it.each([
    ["DEEPSEA", DEFAULT_CLOSED],
    ["SHORTSEA", SHORTSEA_CLOSED],
  ])("on 200 random pairs with %s's default closed passages (hierarchy used)", (_, closed) => {
    const before = hierarchical.hierarchyHits;
    let routed = 0;
    for (let i = 0; i < 200; i++) {
      const from = points[2 * i];
      const to = points[2 * i + 1];
      const a = hierarchical.route(from, to, { closed });
      const b = astar.route(from, to, { closed });
      const c = dijkstra.route(from, to, { closed });
      expect(!!a).toBe(!!c);
      if (!a || !b || !c) continue;
      routed++;
      // Equal-length alternatives may be picked differently; their end straightening then differs by a few metres at most.
      expect(Math.abs(a.meters - c.meters)).toBeLessThan(5);
      expect(Math.abs(b.meters - c.meters)).toBeLessThan(5);
      expect(a.passages).toEqual(c.passages);
    }
    expect(routed).toBeGreaterThan(190);
    expect(hierarchical.hierarchyHits - before).toBeGreaterThan(150);
    expect(astar.hierarchyHits).toBe(0);
  });

  it("with other closed passages (no hierarchy: A* on the junctions)", () => {
    const closed = new Set<Passage>([...DEFAULT_CLOSED, "SUEZ", "PANAMA"]);
    const before = hierarchical.hierarchyHits;
    for (let i = 0; i < 30; i++) {
      const a = hierarchical.route(points[i], points[119 - i], { closed });
      const c = dijkstra.route(points[i], points[119 - i], { closed });
      expect(!!a).toBe(!!c);
      if (a && c) expect(Math.abs(a.meters - c.meters)).toBeLessThan(5);
      if (a) expect(a.passages).not.toContain("SUEZ");
    }
    expect(hierarchical.hierarchyHits).toBe(before);
  });

  it("the path of a hierarchy route is as long as its distance (it really is that route)", () => {
    const r = hierarchical.route(SHANGHAI, ROTTERDAM, { closed: DEFAULT_CLOSED })!;
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
