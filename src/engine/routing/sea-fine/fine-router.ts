/**
 * Sea routes in the fine regions (data/sea-fine-land.json): where both ends of a route lie in one
 * fjord, sound, archipelago or strait region that 1:50m draws too coarsely, the route is the
 * shortest path on the region's 1:10m water grid (fine-grid.ts, A*), pulled straight against the
 * same 1:10m land. A route with one end outside keeps the network router's route when its part
 * inside the region is clear of 1:10m land and about as short as the straight line to where it
 * leaves (most lanes: no grid search); otherwise it leaves the region through one of the water
 * cells on the region's edge (gates), by the grid to the gate and on by the network (oneEnd). The
 * grid metres from a start cell to every gate come from one search per start cell, kept for the
 * next lanes from the same port.
 *
 * A point on 1:10m land (a town-centre LOCODE) starts at the nearest water cell within
 * WATER_MOVE_MAX_M, as the network router does with 1:50m; the move counts in the distance and in
 * snapDistance. Cells inside the area of a closed passage are land for the search.
 */
import { geodesicMeters, MEAN_RADIUS_M, RAD } from "../../geo/geodesy";
import { MinHeap } from "../../heap";
import { LatLng, Passage } from "../../types";
import { PassageArea, passageId, passageOfId, pointInPolygon } from "../sea/passages";
import { FineRegionData } from "./fine-land-file";
import { FineGrid, STEPS } from "./fine-grid";
import { bucketCount, canGrow, GateReach, growReach, ReachGrid, startReach } from "./gate-reach";

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
/**
 * One end outside: the network route's part inside the region stands when it is at most this much
 * longer than the straight line to where it leaves the region (and is clear of 1:10m land).
 */
const LEAVE_SLACK = 1.15;
/** ... or when the part in the region (or the excess) is at most this share of the whole route. */
const SMALL_SHARE = 0.1;
/** Gates along a run of edge water cells: one at least every this many metres. */
const GATE_SPACING_M = 10_000;
/**
 * At most this many gates are tried by the network (the nearest first: grid metres from the start
 * cell plus 0.99 of the great circle on).
 */
const MAX_GATES = 24;
/**
 * A way by a gate is sought only while it can be shorter than this many times the network's own
 * route (which stands when no gate does better and it is clear of 1:10m land).
 */
const GATE_BOUND = 1.1;
/**
 * The search from a start cell to the gates settles at most this many cells (the water of the
 * largest region, ≈ 0.1 s once per start cell): a way out that needs more, round a whole
 * archipelago, is left to the network unless one found so far beats the network's route.
 */
const MAX_CELLS = 1_500_000;
/** Start cells whose searches are kept, per region (a byte per cell each: ≤ 5 MB a region). */
const KEPT_REACHES = 4;

interface Start {
  cell: number;
  /** Metres from the query point to the cell centre when the point is on land (else 0). */
  move: number;
  onLand: boolean;
}

/** One region: its grid, made on first use, and the search state over it. */
class Region {
  private built?: ReachGrid & {
    grid: FineGrid;
    passage: Uint8Array;
    dist: Float64Array;
    prev: Int32Array;
    stamp: Int32Array;
    heap: MinHeap;
    minStepEast: number;
    /** Sine and cosine of each row's latitude. */
    rowSin: Float64Array;
    rowCos: Float64Array;
  };
  private tick = 0;
  private readonly reaches = new Map<string, GateReach>();

  constructor(
    readonly data: FineRegionData,
    private readonly areas: ReadonlyArray<PassageArea>,
    private readonly makeGrid: (data: FineRegionData) => FineGrid
  ) {}

  /** Metres across the region's box, corner to corner. */
  get diagonal(): number {
    const [w, s, e, n] = this.data.box;
    return geodesicMeters(s, w, n, e);
  }

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
    const grid = this.makeGrid(this.data);
    const cells = grid.rows * grid.cols;
    const passage = new Uint8Array(cells);
    let passageBits = 0;
    for (const area of this.areas) {
      const xs = area.polygon.map((q) => q[0]);
      const ys = area.polygon.map((q) => q[1]);
      const r0 = Math.max(0, grid.row(Math.min(...ys)));
      const r1 = Math.min(grid.rows - 1, grid.row(Math.max(...ys)));
      const c0 = Math.max(0, grid.col(Math.min(...xs)));
      const c1 = Math.min(grid.cols - 1, grid.col(Math.max(...xs)));
      for (let r = r0; r <= r1; r++)
        for (let c = c0; c <= c1; c++)
          if (pointInPolygon(grid.colLng(c), grid.rowLat(r), area.polygon)) {
            passage[r * grid.cols + c] = passageId(area.name);
            passageBits |= 1 << passageId(area.name);
          }
    }
    let minStepEast = Infinity;
    for (const s of grid.stepEast) minStepEast = Math.min(minStepEast, s);
    // Rows differ in their step east; a diagonal step takes the one of the row it leaves from
    // going north, of the row it reaches going south.
    const stepMetres = new Float64Array(grid.rows * 8);
    for (let r = 0; r < grid.rows; r++)
      for (let k = 0; k < 8; k++) {
        const [dr, dc] = STEPS[k];
        const ex = dc * grid.stepEast[Math.min(grid.rows - 1, Math.max(0, dr > 0 ? r : r + dr))];
        const ny = dr * grid.stepNorth;
        stepMetres[r * 8 + k] = Math.sqrt(ex * ex + ny * ny);
      }
    let shortestStep = Infinity;
    let longestStep = 0;
    for (const m of stepMetres) {
      shortestStep = Math.min(shortestStep, m);
      longestStep = Math.max(longestStep, m);
    }
    // The search arrays (16 bytes a cell) are made on the first search: a region whose routes are
    // only checked against its land (most, see FineSeaRegions.route) never needs them.
    let searchArrays: { dist: Float64Array; prev: Int32Array; stamp: Int32Array } | undefined;
    const arrays = (): NonNullable<typeof searchArrays> =>
      (searchArrays ??= {
        dist: new Float64Array(cells),
        prev: new Int32Array(cells),
        stamp: new Int32Array(cells),
      });
    this.built = {
      grid,
      passage,
      passageBits,
      get dist() {
        return arrays().dist;
      },
      get prev() {
        return arrays().prev;
      },
      get stamp() {
        return arrays().stamp;
      },
      stepMetres,
      stepOffset: Int32Array.from(STEPS, ([dr, dc]) => dr * grid.cols + dc),
      gates: gateCells(grid, passage),
      shortestStep,
      buckets: Array.from(
        { length: bucketCount(longestStep, shortestStep) },
        () => new Int32Array(1024)
      ),
      heap: new MinHeap(1024),
      minStepEast,
      rowSin: Float64Array.from({ length: grid.rows }, (_, r) => Math.sin(grid.rowLat(r) * RAD)),
      rowCos: Float64Array.from({ length: grid.rows }, (_, r) => Math.cos(grid.rowLat(r) * RAD)),
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
    const { grid, minStepEast } = this.state();
    const cols = grid.cols;
    const tr = (target / cols) | 0;
    const tc = target - tr * cols;
    this.explore(
      start,
      closedMask,
      (cell) => {
        const r = (cell / cols) | 0;
        const dr = (r - tr) * grid.stepNorth;
        const dc = (cell - r * cols - tc) * minStepEast;
        return Math.sqrt(dr * dr + dc * dc);
      },
      (u) => u === target
    );
  }

  /**
   * A* over open water cells from `start` with the estimate `h` (never above the metres left),
   * until `settled(cell, key)` says stop (key: the cell's metres plus its estimate) or no cell is
   * left. Each cell's metres and predecessor stay for reached() and cellsTo().
   */
  private explore(
    start: number,
    closedMask: number,
    h: (cell: number) => number,
    settled: (cell: number, key: number) => boolean
  ): void {
    const s = this.state();
    const { grid, dist, prev, stamp, heap, passage, stepMetres, stepOffset } = s;
    const cols = grid.cols;
    const steps = grid.stepMask;
    const t = ++this.tick;
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
      if (settled(u, key)) return;
      const row8 = ((u / cols) | 0) * 8;
      const m = steps[u];
      for (let k = 0; k < 8; k++) {
        if ((m & (1 << k)) === 0) continue;
        const v = u + stepOffset[k];
        const pv = passage[v];
        if (pv !== 0 && (closedMask & (1 << pv)) !== 0) continue;
        const dv = du + stepMetres[row8 + k];
        if (stamp[v] === t && dist[v] <= dv) continue;
        stamp[v] = t;
        dist[v] = dv;
        prev[v] = u;
        heap.push(dv + h(v), v);
      }
    }
  }

  /** The cells of the shortest way from a reach's start cell to a cell it settled. */
  private wayTo(reach: GateReach, cell: number): Int32Array {
    const { stepOffset } = this.state();
    const out: number[] = [];
    for (let v = cell; v !== reach.start; v -= stepOffset[reach.step[v]]) out.push(v);
    out.push(reach.start);
    return Int32Array.from(out.reverse());
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
  keepsOffLand(path: ReadonlyArray<LatLng>, lastIsQuery = true): boolean {
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
      if (k === n - 1 && lastIsQuery) {
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

  /**
   * The gates the search from a point's start cell reached, with their grid metres and the
   * centres of the cells of the way to each (for tests: the search kept per start cell).
   */
  waysOut(
    p: LatLng,
    closedMask: number,
    radius: number
  ): Array<{ gate: LatLng; metres: number; way: LatLng[] }> {
    const sa = this.start(p, closedMask);
    if (!sa) return [];
    const { grid, gates } = this.state();
    const reach = this.gateMetres(sa.cell, closedMask, radius);
    const centre = (cell: number): LatLng => {
      const r = (cell / grid.cols) | 0;
      return { lat: grid.rowLat(r), lng: grid.colLng(cell - r * grid.cols) };
    };
    const out: Array<{ gate: LatLng; metres: number; way: LatLng[] }> = [];
    gates.forEach((g, i) => {
      if (reach.metres[i] < Infinity)
        out.push({
          gate: centre(g),
          metres: reach.metres[i],
          way: Array.from(this.wayTo(reach, g), centre),
        });
    });
    return out;
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
   * Where the network route from query point `a` in this region (`path` from a, `meters` long)
   * leaves the region, and does it leave well enough that no grid search is needed? Yes when it keeps off 1:10m land
   * (from a's own shore) up to where it leaves the region and is at most LEAVE_SLACK times the straight line to there (or the excess is a small
   * share of the whole route); or when the part in the region is a small share of a long route
   * (whatever the grid found there would change the route by less than that share).
   */
  leaving(a: LatLng, path: ReadonlyArray<LatLng>, meters: number): { well: boolean; exit: LatLng } {
    const { grid } = this.state();
    let k = 1;
    while (k < path.length && grid.contains(path[k].lat, path[k].lng)) k++;
    // Where the route leaves the box (the last point when it never does).
    let exit = path[path.length - 1];
    if (k < path.length) {
      const p = path[k - 1];
      const q = path[k];
      let lo = 0;
      let hi = 1;
      for (let i = 0; i < 30; i++) {
        const mid = (lo + hi) / 2;
        if (grid.contains(p.lat + (q.lat - p.lat) * mid, p.lng + (q.lng - p.lng) * mid)) lo = mid;
        else hi = mid;
      }
      exit = { lat: p.lat + (q.lat - p.lat) * lo, lng: p.lng + (q.lng - p.lng) * lo };
    }
    let inside = 0;
    for (let i = 1; i < k && i < path.length; i++)
      inside += geodesicMeters(path[i - 1].lat, path[i - 1].lng, path[i].lat, path[i].lng);
    const last = path[Math.min(k, path.length) - 1];
    inside += geodesicMeters(last.lat, last.lng, exit.lat, exit.lng);
    if (inside <= meters * SMALL_SHARE) return { well: true, exit };
    if (!this.keepsOffLand(path.slice(0, Math.min(k + 1, path.length)), k >= path.length))
      return { well: false, exit };
    const excess = inside - geodesicMeters(a.lat, a.lng, exit.lat, exit.lng);
    return { well: excess <= Math.max(inside * (1 - 1 / LEAVE_SLACK), meters * SMALL_SHARE), exit };
  }

  /**
   * From `a` in this region to `b` outside: by the grid to a gate on the region's edge, pulled
   * straight, and on by `network` from the gate. The gates are tried nearest first in the sense of
   * their grid metres from a plus 0.99 of the great circle on to b (a lower bound of the way by
   * them: grid and network routes are no shorter than the great circle); the trial stops at the
   * first gate that cannot beat the best total (at first `bound`), or after MAX_GATES gates.
   * Null: no gate reached with a network route on under `bound`.
   */
  leave(
    a: LatLng,
    b: LatLng,
    closedMask: number,
    network: (from: LatLng, to: LatLng) => FineSeaRoute | null,
    bound = Infinity
  ): FineSeaRoute | null {
    const sa = this.start(a, closedMask);
    if (!sa) return null;
    const { grid, gates, rowSin, rowCos } = this.state();
    const cols = grid.cols;
    // 0.99 of the great circle from each gate to b (spherical law of cosines).
    const sinB = Math.sin(b.lat * RAD);
    const cosB = Math.cos(b.lat * RAD);
    const onToB = new Float64Array(gates.length);
    let leastOn = Infinity;
    for (let i = 0; i < gates.length; i++) {
      const r = (gates[i] / cols) | 0;
      const cosD = Math.cos((grid.colLng(gates[i] - r * cols) - b.lng) * RAD);
      const x = rowSin[r] * sinB + rowCos[r] * cosB * cosD;
      onToB[i] = 0.99 * MEAN_RADIUS_M * Math.acos(x > 1 ? 1 : x < -1 ? -1 : x);
      leastOn = Math.min(leastOn, onToB[i]);
    }
    // The search from the start cell goes only as far as the next gate in this order needs: a gate
    // not settled yet is at least `horizon` away by the grid, so the order is known up to there.
    let reach = this.gateMetres(sa.cell, closedMask, 0);
    const lower = (i: number): number => reach.metres[i] + onToB[i];
    const unknownFrom = (): number => (reach.complete ? Infinity : reach.horizon + leastOn);
    const tested = new Uint8Array(gates.length);
    let best = bound;
    let bestGate = -1;
    let bestNet: FineSeaRoute | null = null;
    let tried = 0;
    let cutShort = false;
    for (let done = false; !done;) {
      const order: number[] = [];
      for (let i = 0; i < gates.length; i++)
        if (tested[i] === 0 && reach.metres[i] < Infinity) order.push(i);
      order.sort((i, j) => lower(i) - lower(j));
      const growable = canGrow(reach, MAX_CELLS);
      const known = unknownFrom();
      // The lower bound of the next gate past the horizon (Infinity: every settled gate was tried).
      let next = Infinity;
      done = true;
      let listed = true;
      for (const i of order) {
        const key = lower(i);
        if (key >= best) {
          listed = false;
          break;
        }
        if (key >= known) {
          // Past where the search stopped: farther (if it may), else the way out needs more cells
          // than a search per endpoint settles.
          if (growable) next = key;
          else cutShort = true;
          listed = false;
          break;
        }
        tested[i] = 1;
        const g = gates[i];
        const r = (g / cols) | 0;
        const net = network({ lat: grid.rowLat(r), lng: grid.colLng(g - r * cols) }, b);
        if (net && reach.metres[i] + net.meters < best) {
          best = reach.metres[i] + net.meters;
          bestGate = g;
          bestNet = net;
        }
        if (++tried >= MAX_GATES) {
          listed = false;
          break;
        }
      }
      // Farther when a gate past the horizon may still beat the best so far.
      if (growable && !cutShort && (next < Infinity || (listed && known < best))) {
        // At least a metre past the horizon: rounding must not leave the search where it is.
        const radius = Math.max(Math.min(next, best) - leastOn, reach.horizon + 1);
        reach = this.gateMetres(sa.cell, closedMask, radius);
        done = false;
      }
    }
    if (!cutShort && tried < MAX_GATES && best > unknownFrom()) cutShort = true;
    // Too far round for a search per endpoint: a way found so far stands only when it beats the
    // network's own route (else the network's route does).
    if (cutShort && best >= bound / GATE_BOUND) bestGate = -1;
    if (bestGate < 0 || !bestNet) return null;
    const net: FineSeaRoute = bestNet;
    const inside = this.pulled(a, sa, this.wayTo(reach, bestGate), null, null);
    const passages = [...inside.passages];
    for (const p of net.passages) if (passages[passages.length - 1] !== p) passages.push(p);
    return {
      meters: inside.meters + net.meters,
      path: [...inside.path, ...net.path.slice(1)],
      passages,
      snapDistance: { origin: sa.move, destination: net.snapDistance.destination },
    };
  }

  /**
   * The grid metres from a start cell to each gate (Infinity: not reached) at least as far as
   * `radius` (see gate-reach.ts), from a search that does not depend on the other end, so it is
   * kept per start cell and closed set (a lane sheet names the same ports again and again) and
   * goes on from where it stopped when a later route needs more (made again, at least twice as
   * far, when the region searched from elsewhere meanwhile).
   */
  private gateMetres(start: number, closedMask: number, radius: number): GateReach {
    const key = `${start},${closedMask}`;
    const kept = this.reaches.get(key);
    let reach: GateReach;
    if (kept && (kept.horizon >= radius || !canGrow(kept, MAX_CELLS))) reach = kept;
    else if (kept && kept.tick === this.tick) {
      // At least a bucket further: a radius at the horizon would settle nothing.
      growReach(this.state(), kept, Math.max(radius, kept.horizon + 1), MAX_CELLS);
      reach = kept;
    } else
      reach = startReach(
        this.state(),
        start,
        closedMask,
        ++this.tick,
        kept ? Math.max(radius, 2 * kept.horizon, 1) : Math.max(radius, 1),
        MAX_CELLS
      );
    // Most recently used last.
    this.reaches.delete(key);
    if (this.reaches.size >= KEPT_REACHES) this.reaches.delete(this.reaches.keys().next().value!);
    this.reaches.set(key, reach);
    return reach;
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

/**
 * The gate cells of a region: water cells in the second row or column from each side of its box,
 * outside passage areas, one every GATE_SPACING_M along each run of such cells and one in the
 * middle of each run (a strait's mouth narrower than the spacing still has one).
 */
function gateCells(grid: FineGrid, passage: Uint8Array): Int32Array {
  const gate = new Set<number>();
  const { rows, cols } = grid;
  const sides: number[][] = [[], [], [], []];
  for (let c = 1; c < cols - 1; c++) {
    sides[0].push(cols + c);
    sides[1].push((rows - 2) * cols + c);
  }
  for (let r = 1; r < rows - 1; r++) {
    sides[2].push(r * cols + 1);
    sides[3].push(r * cols + cols - 2);
  }
  const stepM = Math.min(grid.stepNorth, grid.stepEast[0], grid.stepEast[rows - 1]);
  const every = Math.max(1, Math.round(GATE_SPACING_M / stepM));
  for (const side of sides) {
    let run: number[] = [];
    const flush = (): void => {
      if (!run.length) return;
      const offset = Math.floor((run.length % every) / 2);
      for (let i = offset; i < run.length; i += every) gate.add(run[i]);
      gate.add(run[run.length >> 1]);
      run = [];
    };
    for (const cell of side) {
      if (grid.water[cell] === 1 && passage[cell] === 0) run.push(cell);
      else flush();
    }
    flush();
  }
  // In cell order, as a scan of the whole grid would list them (the order breaks ties).
  return Int32Array.from(gate).sort();
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

  /**
   * `makeGrid`: a region's grid, made on the region's first use (the loader passes one that reads
   * it from a snapshot made at install time).
   */
  constructor(
    regions: ReadonlyArray<FineRegionData>,
    areas: ReadonlyArray<PassageArea> = [],
    makeGrid: (data: FineRegionData) => FineGrid = (data) => new FineGrid(data)
  ) {
    this.regions = regions.map((r) => new Region(r, areas, makeGrid));
  }

  /** Makes every region's grid now (the snapshot build: each is then read, not made). */
  prepare(): void {
    for (const id of this.ids) this.grid(id);
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

  /**
   * The ways out of region `id` from a point by each gate at least as near as `radius` metres by
   * the grid (see Region.waysOut), for tests.
   */
  waysOut(
    id: string,
    p: LatLng,
    closed: ReadonlySet<Passage> = new Set(),
    radius = Infinity
  ): Array<{ gate: LatLng; metres: number; way: LatLng[] }> {
    return this.byId(id).waysOut(p, closedMaskOf(closed), radius);
  }

  /** Metres of the unpulled grid path between two points of region `id`'s box (A*), for tests. */
  gridMetersIn(
    id: string,
    a: LatLng,
    b: LatLng,
    closed: ReadonlySet<Passage> = new Set()
  ): number | null {
    return this.byId(id).gridMeters(a, b, closedMaskOf(closed));
  }

  private byId(id: string): Region {
    const r = this.regions.find((x) => x.data.id === id);
    if (!r) throw new Error(`unknown fine region ${id}`);
    return r;
  }

  /** Region ids, for tests. */
  get ids(): string[] {
    return this.regions.map((r) => r.data.id);
  }

  /** The grid of a region, for tests (made on first use). */
  grid(id: string): FineGrid {
    return this.byId(id).grid;
  }

  /**
   * The route when an end lies in a fine region; undefined when neither does (the network
   * router's own answer stands) or when the fine way finds nothing the network does not.
   * `network(from, to)`: the network router's own route between two points.
   */
  route(
    from: LatLng,
    to: LatLng,
    closed: ReadonlySet<Passage>,
    network?: (from: LatLng, to: LatLng) => FineSeaRoute | null
  ): FineSeaRoute | null | undefined {
    const ra = this.regionAt(from);
    const rb = this.regionAt(to);
    if (!ra && !rb) return undefined;
    const mask = closedMaskOf(closed);
    if (ra && ra === rb) return this.within(ra, from, to, mask, network);
    if (!network) return undefined;
    // One end in a region (or each in another: the first one's is fine, the other's the network's).
    const flip = !ra;
    const inside = (ra ?? rb)!;
    const [p, q] = flip ? [to, from] : [from, to];
    const net = network(from, to);
    // Settled from the metres alone, without making the network's path (most lanes of a sheet
    // read distances only): a route within SMALL_SHARE of the great circle, or one so long that
    // its part in the region (at most about twice the region's diagonal) is a small share of it.
    if (net) {
      const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
      if (net.meters <= gc * (1 + SMALL_SHARE) || net.meters * SMALL_SHARE >= 2 * inside.diagonal)
        return net;
    }
    if (net && inside.leaving(p, flip ? [...net.path].reverse() : net.path, net.meters).well)
      return net;
    const out = inside.leave(p, q, mask, network, net ? net.meters * GATE_BOUND : Infinity);
    if (!out) return net ?? undefined;
    // The network's route stands when clear and no longer than the way by a gate.
    if (
      net &&
      net.meters <= out.meters &&
      inside.keepsOffLand(flip ? [...net.path].reverse() : net.path, false)
    )
      return net;
    return flip ? reversed(out) : out;
  }

  /** Both ends in one region. */
  private within(
    ra: Region,
    from: LatLng,
    to: LatLng,
    mask: number,
    network?: (from: LatLng, to: LatLng) => FineSeaRoute | null
  ): FineSeaRoute | null | undefined {
    // The network's lanes follow the fairways ships use: its route stands when it keeps off 1:10m
    // land and the grid finds no way much shorter (a passage the network lacks). Checked first
    // against the great circle, which no grid route beats, so most such routes need no search.
    const net = network?.(from, to);
    const clear = net !== undefined && net !== null && ra.keepsOffLand(net.path);
    const gc = geodesicMeters(from.lat, from.lng, to.lat, to.lng);
    if (clear && net.meters <= gc * NETWORK_SLACK) return net;
    const grid = ra.within(from, to, mask);
    if (!grid) return net ?? undefined;
    if (clear && net.meters <= grid.meters * NETWORK_SLACK) return net;
    return grid;
  }
}

/** The closed passages as bits of the grid's passage ids. */
function closedMaskOf(closed: ReadonlySet<Passage>): number {
  let mask = 0;
  for (const p of closed) mask |= 1 << passageId(p);
  return mask;
}

/** The route read backwards (longitudes shifted so the first is in [-180, 180]). */
function reversed(r: FineSeaRoute): FineSeaRoute {
  const points = [...r.path].reverse();
  const shift = points.length ? 360 * Math.round(points[0].lng / 360) : 0;
  return {
    meters: r.meters,
    path: shift === 0 ? points : points.map((p) => ({ lat: p.lat, lng: p.lng - shift })),
    passages: [...r.passages].reverse(),
    snapDistance: { origin: r.snapDistance.destination, destination: r.snapDistance.origin },
  };
}
