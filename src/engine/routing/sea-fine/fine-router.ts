/**
 * Sea routes in the fine regions (data/sea-fine-land.json): where both ends of a route lie in one
 * fjord, sound, archipelago or strait region that 1:50m draws too coarsely, the route is the
 * shortest path on the region's 1:10m water grid (fine-grid.ts, A*), pulled straight against the
 * same 1:10m land. A route with one end outside stays the network router's: leaving a region
 * through water cells on its edge (gates) and on by the network was tried, and is right, but a
 * grid search per lane cost 0.5–2 s, too slow for a lane sheet (a precomputed gate graph would
 * make it cheap: not done yet).
 *
 * A point on 1:10m land (a town-centre LOCODE) starts at the nearest water cell within
 * WATER_MOVE_MAX_M, as the network router does with 1:50m; the move counts in the distance and in
 * snapDistance. Cells inside the area of a closed passage are land for the search.
 */
import { geodesicMeters } from "../../geo/geodesy";
import { MinHeap } from "../../heap";
import { LatLng, Passage } from "../../types";
import { PassageArea, passageId, passageOfId, pointInPolygon } from "../sea/passages";
import { FineRegionData } from "./fine-land-file";
import { FineGrid } from "./fine-grid";

export interface FineSeaRoute {
  meters: number;
  path: LatLng[];
  passages: Passage[];
  snapDistance: { origin: number; destination: number };
}

/** A query point on land moves to water no farther than this (as the network router's). */
const WATER_MOVE_MAX_M = 12_000;
/**
 * The network's route between two points of a region stands when it keeps off 1:10m land and is
 * at most this much longer than the grid's (which hugs the shore where ships keep off it).
 */
const NETWORK_SLACK = 1.2;
/** A leg from a query point on land may cross this much more land than its way to the nearest water. */
const PORT_SHORE_M = 1_000;
/** Query points this many cells inside a region's box belong to it. */
const INSIDE_CELLS = 3;
interface Start {
  cell: number;
  /** Metres from the query point to the cell centre when the point is on land (else 0). */
  move: number;
  onLand: boolean;
}

/** One region: its grid, made on first use, and the search state over it. */
class Region {
  private built?: {
    grid: FineGrid;
    passage: Uint8Array;
    dist: Float64Array;
    prev: Int32Array;
    stamp: Int32Array;
    heap: MinHeap;
    minStepEast: number;
  };
  private tick = 0;

  constructor(
    readonly data: FineRegionData,
    private readonly areas: ReadonlyArray<PassageArea>
  ) {}

  /** Is the point well inside the region's box? (from the box alone: no grid is made) */
  holds(p: LatLng): boolean {
    const [w, s, e, n] = this.data.box;
    const m = this.data.cellDegrees * INSIDE_CELLS;
    const mLng = m / Math.cos((((s + n) / 2) * Math.PI) / 180);
    return p.lat > s + m && p.lat < n - m && p.lng > w + mLng && p.lng < e - mLng;
  }

  get grid(): FineGrid {
    return this.state().grid;
  }

  private state(): NonNullable<Region["built"]> {
    if (this.built) return this.built;
    const grid = new FineGrid(this.data);
    const cells = grid.rows * grid.cols;
    const passage = new Uint8Array(cells);
    for (const area of this.areas) {
      const xs = area.polygon.map((q) => q[0]);
      const ys = area.polygon.map((q) => q[1]);
      const r0 = Math.max(0, grid.row(Math.min(...ys)));
      const r1 = Math.min(grid.rows - 1, grid.row(Math.max(...ys)));
      const c0 = Math.max(0, grid.col(Math.min(...xs)));
      const c1 = Math.min(grid.cols - 1, grid.col(Math.max(...xs)));
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++)
          if (pointInPolygon(grid.colLng(c), grid.rowLat(r), area.polygon))
            passage[r * grid.cols + c] = passageId(area.name);
    }
    let minStepEast = Infinity;
    for (const s of grid.stepEast) minStepEast = Math.min(minStepEast, s);
    this.built = {
      grid,
      passage,
      dist: new Float64Array(cells),
      prev: new Int32Array(cells),
      stamp: new Int32Array(cells),
      heap: new MinHeap(1024),
      minStepEast,
    };
    return this.built;
  }

  /** The water cell a query point starts from, or null (no water within reach). */
  start(p: LatLng, closedMask: number): Start | null {
    const { grid } = this.state();
    const onLand = grid.isLand(p.lat, p.lng);
    const r0 = grid.row(p.lat);
    const c0 = grid.col(p.lng);
    const open = (cell: number): boolean => this.open(cell, closedMask);
    const here = r0 * grid.cols + c0;
    if (!onLand && open(here) && !grid.crossesLand(p.lat, p.lng, grid.rowLat(r0), grid.colLng(c0)))
      return { cell: here, move: 0, onLand };
    // The nearest open water cell by distance, ring by ring.
    let best = -1;
    let bestM = WATER_MOVE_MAX_M;
    const step = Math.min(grid.stepNorth, grid.stepEast[Math.min(grid.rows - 1, Math.max(0, r0))]);
    for (let k = 0; k * step < bestM + step; k++) {
      for (let r = r0 - k; r <= r0 + k; r++) {
        if (r < 0 || r >= grid.rows) continue;
        for (let c = c0 - k; c <= c0 + k; c++) {
          if (c < 0 || c >= grid.cols) continue;
          if (Math.max(Math.abs(r - r0), Math.abs(c - c0)) !== k) continue;
          const cell = r * grid.cols + c;
          if (!open(cell)) continue;
          const m = geodesicMeters(p.lat, p.lng, grid.rowLat(r), grid.colLng(c));
          // On water, the way to the cell must be water too (not across a headland).
          if (!onLand && grid.crossesLand(p.lat, p.lng, grid.rowLat(r), grid.colLng(c))) continue;
          if (m < bestM) {
            bestM = m;
            best = cell;
          }
        }
      }
    }
    return best < 0 ? null : { cell: best, move: onLand ? bestM : 0, onLand };
  }

  private open(cell: number, closedMask: number): boolean {
    const s = this.state();
    if (s.grid.water[cell] !== 1) return false;
    const p = s.passage[cell];
    return p === 0 || (closedMask & (1 << p)) === 0;
  }

  /**
   * A* from the start cell to the target over open water cells (the estimate: straight metres
   * with the narrowest step east of the region, so never above the grid's own metres).
   */
  private search(start: number, closedMask: number, target: number): void {
    const s = this.state();
    const { grid, dist, prev, stamp, heap } = s;
    const cols = grid.cols;
    const t = ++this.tick;
    const tr = target >= 0 ? (target / cols) | 0 : 0;
    const tc = target >= 0 ? target - tr * cols : 0;
    const h = (cell: number): number => {
      if (target < 0) return 0;
      const r = (cell / cols) | 0;
      const dr = (r - tr) * grid.stepNorth;
      const dc = (cell - r * cols - tc) * s.minStepEast;
      return Math.sqrt(dr * dr + dc * dc);
    };
    heap.clear();
    stamp[start] = t;
    dist[start] = 0;
    prev[start] = -1;
    heap.push(h(start), start);
    while (heap.size) {
      const key = heap.peekKey();
      const u = heap.pop();
      const du = dist[u];
      if (key - h(u) > du + 1e-6) continue; // stale
      if (u === target) return;
      const r = (u / cols) | 0;
      const c = u - r * cols;
      for (let dr = -1; dr <= 1; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= grid.rows) continue;
        for (let dc = -1; dc <= 1; dc++) {
          if (dr === 0 && dc === 0) continue;
          const cc = c + dc;
          if (cc < 0 || cc >= cols) continue;
          const v = rr * cols + cc;
          if (!this.open(v, closedMask)) continue;
          const ex = dc * grid.stepEast[dr === 0 ? r : dr > 0 ? r : rr];
          const ny = dr * grid.stepNorth;
          const dv = du + Math.sqrt(ex * ex + ny * ny);
          if (stamp[v] === t && dist[v] <= dv) continue;
          if (!grid.stepIsClear(u, v)) continue;
          stamp[v] = t;
          dist[v] = dv;
          prev[v] = u;
          heap.push(dv + h(v), v);
        }
      }
    }
  }

  private reached(cell: number): boolean {
    return this.state().stamp[cell] === this.tick;
  }

  private cellsTo(cell: number): Int32Array {
    const { prev } = this.state();
    const out: number[] = [];
    for (let v = cell; v >= 0; v = prev[v]) out.push(v);
    return Int32Array.from(out.reverse());
  }

  /**
   * Does a path keep off this region's 1:10m land? A leg from a query point on land (a town-centre
   * point) is checked from where it first reaches water, as a port's move to water is.
   */
  keepsOffLand(path: ReadonlyArray<LatLng>): boolean {
    const { grid } = this.state();
    const n = path.length;
    for (let k = 1; k < n; k++) {
      let a = path[k - 1];
      let b = path[k];
      if (k === 1) {
        const w = this.shoreOf(path[0], b);
        if (!w) return false;
        a = w;
      }
      if (k === n - 1) {
        const w = this.shoreOf(path[n - 1], a);
        if (!w) return false;
        b = w;
      }
      if (grid.legCrossesEdges(a, b)) return false;
    }
    return true;
  }

  /**
   * Where a leg from query point p towards q first reaches water: p itself on water; for p on
   * land, that point if it is the point's own shore (no farther than its nearest water and
   * PORT_SHORE_M), else null (the leg crosses land to other water).
   */
  private shoreOf(p: LatLng, q: LatLng): LatLng | null {
    const { grid } = this.state();
    if (!grid.isLand(p.lat, p.lng)) return p;
    const start = this.start(p, 0);
    const w = firstWater(grid, p, q);
    if (!start || !w) return null;
    return geodesicMeters(p.lat, p.lng, w.lat, w.lng) <= start.move + PORT_SHORE_M ? w : null;
  }

  /** Metres of the grid path between two points before it is pulled straight (for checks). */
  gridMeters(a: LatLng, b: LatLng, closedMask: number): number | null {
    const sa = this.start(a, closedMask);
    const sb = this.start(b, closedMask);
    if (!sa || !sb) return null;
    this.search(sa.cell, closedMask, sb.cell);
    return this.reached(sb.cell) ? this.state().dist[sb.cell] : null;
  }

  /** Both ends in this region: the grid path between them, pulled straight (null: none). */
  within(a: LatLng, b: LatLng, closedMask: number): FineSeaRoute | null {
    const sa = this.start(a, closedMask);
    const sb = this.start(b, closedMask);
    if (!sa || !sb) return null;
    this.search(sa.cell, closedMask, sb.cell);
    if (!this.reached(sb.cell)) return null;
    return this.pulled(a, sa, this.cellsTo(sb.cell), b, sb);
  }

  /**
   * The route from `a` through the grid cells to `b` (b: a point or, with no `sb`, the last
   * cell's centre), its corners pulled straight wherever the leg is clear of 1:10m land.
   */
  pulled(
    a: LatLng,
    sa: Start,
    cells: Int32Array,
    b: LatLng | null,
    sb: Start | null
  ): FineSeaRoute {
    const { grid, passage } = this.state();
    const pts: LatLng[] = [{ lat: a.lat, lng: a.lng }];
    for (const cell of cells) {
      const r = (cell / grid.cols) | 0;
      pts.push({ lat: grid.rowLat(r), lng: grid.colLng(cell - r * grid.cols) });
    }
    if (b) pts.push({ lat: b.lat, lng: b.lng });
    // An end on land keeps its move to water as it is (the port's own shore).
    const first = sa.onLand ? 1 : 0;
    const last = b && sb?.onLand ? pts.length - 2 : pts.length - 1;
    const clear = (i: number, j: number): boolean =>
      !grid.crossesLand(pts[i].lat, pts[i].lng, pts[j].lat, pts[j].lng) &&
      !grid.isLand(pts[j].lat, pts[j].lng);
    const out: LatLng[] = pts.slice(0, first + 1);
    let i = first;
    while (i < last) {
      // Gallop to the first blocked leg, then halve back to the farthest clear one.
      let ok = i + 1;
      let step = 1;
      let bad = -1;
      while (ok + step <= last) {
        if (clear(i, ok + step)) {
          ok += step;
          step *= 2;
        } else {
          bad = ok + step;
          break;
        }
      }
      if (bad < 0 && ok < last && clear(i, last)) ok = last;
      else {
        let hi = bad < 0 ? last : bad;
        while (hi - ok > 1) {
          const mid = (ok + hi) >> 1;
          if (clear(i, mid)) ok = mid;
          else hi = mid;
        }
      }
      out.push(pts[ok]);
      i = ok;
    }
    for (let k = last + 1; k < pts.length; k++) out.push(pts[k]);
    let meters = 0;
    for (let k = 1; k < out.length; k++)
      meters += geodesicMeters(out[k - 1].lat, out[k - 1].lng, out[k].lat, out[k].lng);
    const passages: Passage[] = [];
    for (const cell of cells) {
      const p = passageOfId(passage[cell]);
      if (p && passages[passages.length - 1] !== p) passages.push(p);
    }
    return {
      meters,
      path: out,
      passages,
      snapDistance: { origin: sa.move, destination: sb ? sb.move : 0 },
    };
  }
}

/** The first point on water along a → b (steps of half a cell inside the box), or null. */
function firstWater(grid: FineGrid, a: LatLng, b: LatLng): LatLng | null {
  const m = geodesicMeters(a.lat, a.lng, b.lat, b.lng);
  const steps = Math.max(1, Math.ceil(m / (grid.stepNorth / 2)));
  for (let i = 0; i <= steps; i++) {
    const p = {
      lat: a.lat + ((b.lat - a.lat) * i) / steps,
      lng: a.lng + ((b.lng - a.lng) * i) / steps,
    };
    if (!grid.contains(p.lat, p.lng)) return null;
    if (!grid.isLand(p.lat, p.lng)) return p;
  }
  return null;
}

export class FineSeaRegions {
  private readonly regions: Region[];

  constructor(regions: ReadonlyArray<FineRegionData>, areas: ReadonlyArray<PassageArea> = []) {
    this.regions = regions.map((r) => new Region(r, areas));
  }

  /** The region holding the point (null: none). */
  regionAt(p: LatLng): Region | null {
    for (const r of this.regions) if (r.holds(p)) return r;
    return null;
  }

  /** Metres of the unpulled grid path between two points of one region (null: none), for checks. */
  gridMeters(a: LatLng, b: LatLng): number | null {
    const r = this.regionAt(a);
    return r && r === this.regionAt(b) ? r.gridMeters(a, b, 0) : null;
  }

  /** Region ids, for tests. */
  get ids(): string[] {
    return this.regions.map((r) => r.data.id);
  }

  /** The grid of a region, for tests (made on first use). */
  grid(id: string): FineGrid {
    const r = this.regions.find((x) => x.data.id === id);
    if (!r) throw new Error(`unknown fine region ${id}`);
    return r.grid;
  }

  /**
   * The route when an end lies in a fine region; undefined when neither does (the network
   * router's own answer stands, as it does for a route with one end in a region).
   */
  route(
    from: LatLng,
    to: LatLng,
    closed: ReadonlySet<Passage>,
    network?: () => FineSeaRoute | null
  ): FineSeaRoute | null | undefined {
    const ra = this.regionAt(from);
    const rb = this.regionAt(to);
    if (!ra || ra !== rb) return undefined;
    let mask = 0;
    for (const p of closed) mask |= 1 << passageId(p);
    // The network's lanes follow the fairways ships use: its route stands when it keeps off 1:10m
    // land and the grid finds no way much shorter (a passage the network lacks). Checked first
    // against the great circle, which no grid route beats, so most such routes need no search.
    const net = network?.();
    const clear = net !== undefined && net !== null && ra.keepsOffLand(net.path);
    const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
    if (clear && net.meters <= gc * NETWORK_SLACK) return net;
    const grid = ra.within(from, to, mask);
    if (!grid) return undefined;
    if (clear && net.meters <= grid.meters * NETWORK_SLACK) return net;
    return grid;
  }
}
