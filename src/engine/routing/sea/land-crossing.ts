/**
 * Exact land test for sea legs: how many metres of a great-circle leg lie inside land polygons
 * (Natural Earth rings, [lng, lat]). Polygon edges are bucketed in a lat/lng grid; each cell knows
 * whether its centre is inside land (scanline at the centre latitude), so a point's inside-ness is
 * the centre's, flipped once per ring edge crossed between the centre and the point. A leg is cut
 * into short pieces (straight in lat/lng, off the great circle by metres), each clipped against the
 * ring edges of the cells it touches.
 *
 * The index is plain typed arrays (LandIndexParts), so a coarse-celled one (1°: about 1.7 MB for
 * 1:50m land) can be stored in the engine snapshot and checked by the router at every query.
 */
import { angleBetween, MEAN_RADIUS_M, RAD, unitInto, unitLat, unitLng } from "../../geo/geodesy";
import { doubled } from "../../typed-arrays";
import { edgeClearance } from "./clearance";
import { planarRings, Rings } from "./land-mask";

/** Pieces of a leg are at most this long (a 20 km lat/lng chord is within ~10 m of the great circle). */
const PIECE_M = 20_000;

/**
 * The index's arrays. Ring vertices are stored once, each ring followed by its first vertex again:
 * ring edge e runs from vertex e to vertex e + 1.
 */
export interface LandIndexParts {
  cellDegrees: number;
  cols: number;
  rows: number;
  x: Float64Array;
  y: Float64Array;
  /** CSR: edges of cell i are cellEdges[cellStart[i] .. cellStart[i+1]). */
  cellStart: Int32Array;
  cellEdges: Int32Array;
  /** Bit i (byte i >> 3, bit i & 7) is 1 when cell i's centre is inside land. */
  centreBits: Uint8Array;
  /**
   * Per cell, the distance to the nearest cell holding a ring edge (clearance.ts), made with the
   * parts so that a snapshot carries it and a start does not redo it; parts without it get it
   * computed when the index is made.
   */
  clearance?: Uint8Array;
}

export function buildLandIndexParts(
  polygons: ReadonlyArray<Rings>,
  cellDegrees = 0.25
): LandIndexParts {
  const cols = Math.round(360 / cellDegrees);
  const rows = Math.round(180 / cellDegrees);
  const col = (lng: number): number =>
    Math.min(cols - 1, Math.max(0, Math.floor((lng + 180) / cellDegrees)));
  const row = (lat: number): number =>
    Math.min(rows - 1, Math.max(0, Math.floor((lat + 90) / cellDegrees)));
  const xs: number[] = [];
  const ys: number[] = [];
  /** Ring edges (the index of their first vertex), zero-length ones left out. */
  const edges: number[] = [];
  for (const ring of planarRings(polygons)) {
    const base = xs.length;
    for (const p of ring) {
      xs.push(p[0]);
      ys.push(p[1]);
    }
    xs.push(ring[0][0]);
    ys.push(ring[0][1]);
    for (let i = 0; i < ring.length; i++) {
      const e = base + i;
      if (xs[e] !== xs[e + 1] || ys[e] !== ys[e + 1]) edges.push(e);
    }
  }
  const x = Float64Array.from(xs);
  const y = Float64Array.from(ys);
  // Bucket each edge into the cells of its bounding box (edges of 1:50m rings are short).
  const counts = new Int32Array(cols * rows + 1);
  const forCells = (e: number, f: (cell: number) => void): void => {
    const c0 = col(Math.min(x[e], x[e + 1]));
    const c1 = col(Math.max(x[e], x[e + 1]));
    const r0 = row(Math.min(y[e], y[e + 1]));
    const r1 = row(Math.max(y[e], y[e + 1]));
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) f(r * cols + c);
  };
  for (const e of edges) forCells(e, (cell) => counts[cell + 1]++);
  for (let i = 0; i < counts.length - 1; i++) counts[i + 1] += counts[i];
  const cellEdges = new Int32Array(counts[counts.length - 1]);
  const fill = counts.slice(0, counts.length - 1);
  for (const e of edges) forCells(e, (cell) => (cellEdges[fill[cell]++] = e));
  // Even-odd scanline through each row's centre latitude, read at each cell's centre longitude.
  const centreBits = new Uint8Array(Math.ceil((cols * rows) / 8));
  const byRow: number[][] = Array.from({ length: rows }, () => []);
  for (const e of edges) {
    const r0 = row(Math.min(y[e], y[e + 1]));
    const r1 = row(Math.max(y[e], y[e + 1]));
    for (let r = r0; r <= r1; r++) byRow[r].push(e);
  }
  const cross: number[] = [];
  for (let r = 0; r < rows; r++) {
    const lat = -90 + (r + 0.5) * cellDegrees;
    cross.length = 0;
    for (const e of byRow[r]) {
      const ya = y[e];
      const yb = y[e + 1];
      if (ya > lat === yb > lat) continue;
      cross.push(x[e] + ((lat - ya) * (x[e + 1] - x[e])) / (yb - ya));
    }
    cross.sort((a, b) => a - b);
    let k = 0;
    for (let c = 0; c < cols; c++) {
      const cx = -180 + (c + 0.5) * cellDegrees;
      while (k < cross.length && cross[k] < cx) k++;
      const i = r * cols + c;
      if (k & 1) centreBits[i >> 3] |= 1 << (i & 7);
    }
  }
  const clearance = edgeClearance(counts, cols, rows);
  return { cellDegrees, cols, rows, x, y, cellStart: counts, cellEdges, centreBits, clearance };
}

export class LandIndex {
  readonly cellDegrees: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly x: Float64Array;
  private readonly y: Float64Array;
  private readonly cellStart: Int32Array;
  private readonly cellEdges: Int32Array;
  private readonly centreBits: Uint8Array;
  /** Per cell: Chebyshev distance in cells to the nearest cell holding a ring edge (see clearance.ts). */
  private readonly clearance: Uint8Array;
  private readonly stamp: Int32Array;
  private tick = 0;
  private found = new Int32Array(256);
  /** nearestOnEdge's answer (x, y in its local frame): no allocation per edge. */
  private readonly near = new Float64Array(2);
  /** The last point arcPoint made. */
  private qLat = 0;
  private qLng = 0;
  /** The unit vectors of the leg being measured: a at [0..2], b at [3..5]. */
  private readonly arc = new Float64Array(6);

  /** From land polygons, or from the parts of an index built before (e.g. a snapshot's). */
  constructor(polygons: ReadonlyArray<Rings> | LandIndexParts, cellDegrees = 0.25) {
    const parts = "cellStart" in polygons ? polygons : buildLandIndexParts(polygons, cellDegrees);
    this.cellDegrees = parts.cellDegrees;
    this.cols = parts.cols;
    this.rows = parts.rows;
    this.x = parts.x;
    this.y = parts.y;
    this.cellStart = parts.cellStart;
    this.cellEdges = parts.cellEdges;
    this.centreBits = parts.centreBits;
    this.clearance = parts.clearance ?? edgeClearance(parts.cellStart, parts.cols, parts.rows);
    this.stamp = new Int32Array(parts.x.length);
  }

  private col(lng: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((lng + 180) / this.cellDegrees)));
  }

  private row(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat + 90) / this.cellDegrees)));
  }

  /**
   * Metres of great-circle travel from the point, in any direction, that stay in cells holding no
   * ring edge (0 in or next to such a cell): a straight piece within that reach crosses no coast.
   */
  clearMeters(lat: number, lng: number): number {
    if (lng < -180 || lng >= 180) lng = ((((lng + 180) % 360) + 360) % 360) - 180;
    const k = this.clearance[this.row(lat) * this.cols + this.col(lng)] - 1;
    if (k <= 0) return 0;
    // Within k cells of latitude and of longitude the cells are edge-free; a move of d degrees of
    // arc changes the latitude by at most d and the longitude by at most d / cos(latitude).
    const reachDeg = k * this.cellDegrees;
    const farLat = Math.abs(lat) + reachDeg;
    if (farLat >= 89) return 0;
    return reachDeg * Math.cos(farLat * RAD) * ((MEAN_RADIUS_M * Math.PI) / 180);
  }

  /** True when the point is inside land. */
  isLand(lat: number, lng: number): boolean {
    if (lng < -180 || lng >= 180) lng = ((((lng + 180) % 360) + 360) % 360) - 180;
    const r = this.row(lat);
    const c = this.col(lng);
    const cell = r * this.cols + c;
    const cx = -180 + (c + 0.5) * this.cellDegrees;
    const cy = -90 + (r + 0.5) * this.cellDegrees;
    let inside = ((this.centreBits[cell >> 3] >> (cell & 7)) & 1) === 1;
    const x = this.x;
    const y = this.y;
    for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
      const e = this.cellEdges[k];
      if (crossParam(cx, cy, lng, lat, x[e], y[e], x[e + 1], y[e + 1]) >= 0) inside = !inside;
    }
    return inside;
  }

  /**
   * The nearest water to a point inside land, within `maxM` metres: the nearest point of the
   * coastline (ring edges) stepped `offshoreM` further out, so it lies clearly in the water; null
   * when the point is not inside land or no coast is that near. Planar in lat/lng scaled by the
   * cosine of the latitude (the distances are short).
   */
  nearestWater(
    lat: number,
    lng: number,
    maxM: number,
    offshoreM = 200
  ): { lat: number; lng: number } | null {
    if (!this.isLand(lat, lng)) return null;
    const kx = Math.cos(lat * (Math.PI / 180));
    const degLat = maxM / 111_195;
    const degLng = degLat / Math.max(0.05, kx);
    const n = this.edgesNear(lat - degLat, lng - degLng, lat + degLat, lng + degLng);
    let best = Infinity;
    let bx = 0;
    let by = 0;
    for (let i = 0; i < n; i++) {
      const d2 = this.nearestOnEdge(this.found[i], lat, lng, kx);
      if (d2 < best) {
        best = d2;
        bx = this.near[0];
        by = this.near[1];
      }
    }
    const dist = Math.sqrt(best) * 111_195;
    if (!(dist <= maxM) || dist === 0) return null;
    return this.stepOffshore(lat, lng, kx, bx, by, dist, offshoreM);
  }

  /**
   * The point of edge e nearest (lat, lng), in a local frame (x = east, y = north, degrees of
   * latitude; kx scales longitude), into `this.near`; its squared distance in that frame.
   */
  private nearestOnEdge(e: number, lat: number, lng: number, kx: number): number {
    const ax = (this.x[e] - lng) * kx;
    const ay = this.y[e] - lat;
    const dx = (this.x[e + 1] - lng) * kx - ax;
    const dy = this.y[e + 1] - lat - ay;
    const len2 = dx * dx + dy * dy;
    const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
    const px = ax + t * dx;
    const py = ay + t * dy;
    this.near[0] = px;
    this.near[1] = py;
    return px * px + py * py;
  }

  /**
   * Out past the coastline point (bx, by) of the local frame, `dist` metres from (lat, lng), along
   * the way from the point (a wider step in a narrow inlet); null when every step is still land.
   */
  private stepOffshore(
    lat: number,
    lng: number,
    kx: number,
    bx: number,
    by: number,
    dist: number,
    offshoreM: number
  ): { lat: number; lng: number } | null {
    for (const extra of [offshoreM, 2 * offshoreM, 5 * offshoreM]) {
      const f = (dist + extra) / dist;
      const q = { lat: lat + by * f, lng: lng + (bx * f) / kx };
      if (!this.isLand(q.lat, q.lng)) return q;
    }
    return null;
  }

  /**
   * Water round a point inside land, one point on each side: of the coastline within `maxM`, the
   * nearest point in each of `sectors` directions from the point (nearer than `reach` times the
   * nearest coast plus `slackM`), each stepped `offshoreM` out to sea as nearestWater does, the
   * nearest first. A port that 1:50m draws inside its island or peninsula may face the water on
   * another side than the nearest; the caller chooses. Empty when the point is not inside land.
   */
  watersAround(
    lat: number,
    lng: number,
    maxM: number,
    options: { sectors: number; reach: number; slackM: number; offshoreM?: number }
  ): Array<{ lat: number; lng: number }> {
    if (!this.isLand(lat, lng)) return [];
    const kx = Math.cos(lat * (Math.PI / 180));
    const degLat = maxM / 111_195;
    const degLng = degLat / Math.max(0.05, kx);
    const n = this.edgesNear(lat - degLat, lng - degLng, lat + degLat, lng + degLng);
    const sectors = options.sectors;
    const best = new Float64Array(sectors).fill(Infinity);
    const bx = new Float64Array(sectors);
    const by = new Float64Array(sectors);
    for (let i = 0; i < n; i++) {
      const d2 = this.nearestOnEdge(this.found[i], lat, lng, kx);
      if (d2 === 0) continue;
      const px = this.near[0];
      const py = this.near[1];
      const angle = Math.atan2(py, px) + Math.PI;
      const sector = Math.min(sectors - 1, Math.floor((angle / (2 * Math.PI)) * sectors));
      if (d2 < best[sector]) {
        best[sector] = d2;
        bx[sector] = px;
        by[sector] = py;
      }
    }
    const nearest = Math.sqrt(Math.min(...best)) * 111_195;
    if (!(nearest <= maxM)) return [];
    const limit = Math.min(maxM, options.reach * nearest + options.slackM);
    const offshoreM = options.offshoreM ?? 200;
    const found: Array<{ lat: number; lng: number; d: number }> = [];
    for (let k = 0; k < sectors; k++) {
      const dist = Math.sqrt(best[k]) * 111_195;
      if (!(dist <= limit)) continue;
      const q = this.stepOffshore(lat, lng, kx, bx[k], by[k], dist, offshoreM);
      if (q) found.push({ ...q, d: dist });
    }
    // Where the nearest coast leads to no water (nearestWater's null), no side either.
    if (!found.length || found.every((q) => q.d > nearest + 1e-6)) return [];
    return found.sort((a, b) => a.d - b.d).map((q) => ({ lat: q.lat, lng: q.lng }));
  }

  /**
   * The ring edges in the cells the box of p→q covers, each once, into `this.found`; their count.
   * (One pass shared by the crossing test and the inside measure.)
   */
  private edgesNear(lat1: number, lng1: number, lat2: number, lng2: number): number {
    const tick = ++this.tick;
    const r0 = this.row(Math.min(lat1, lat2));
    const r1 = this.row(Math.max(lat1, lat2));
    const c0 = this.col(Math.min(lng1, lng2));
    const c1 = this.col(Math.max(lng1, lng2));
    let n = 0;
    for (let r = r0; r <= r1; r++)
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let k = this.cellStart[cell]; k < this.cellStart[cell + 1]; k++) {
          const e = this.cellEdges[k];
          if (this.stamp[e] === tick) continue;
          this.stamp[e] = tick;
          if (n === this.found.length) this.found = doubled(this.found);
          this.found[n++] = e;
        }
      }
    return n;
  }

  /** True when the straight lat/lng piece p→q crosses a ring edge. */
  private pieceCrosses(lat1: number, lng1: number, lat2: number, lng2: number): boolean {
    const x = this.x;
    const y = this.y;
    const n = this.edgesNear(lat1, lng1, lat2, lng2);
    for (let i = 0; i < n; i++) {
      const e = this.found[i];
      if (crossParam(lng1, lat1, lng2, lat2, x[e], y[e], x[e + 1], y[e + 1]) >= 0) return true;
    }
    return false;
  }

  /** Metres of the straight lat/lng piece p→q inside land (the piece is short: a few cells). */
  private pieceInside(lat1: number, lng1: number, lat2: number, lng2: number, m: number): number {
    const ts: number[] = [];
    const x = this.x;
    const y = this.y;
    const n = this.edgesNear(lat1, lng1, lat2, lng2);
    for (let i = 0; i < n; i++) {
      const e = this.found[i];
      const t = crossParam(lng1, lat1, lng2, lat2, x[e], y[e], x[e + 1], y[e + 1]);
      if (t >= 0) ts.push(t);
    }
    let inside = this.isLand(lat1, lng1);
    if (!ts.length) return inside ? m : 0;
    ts.sort((a, b) => a - b);
    let total = 0;
    let from = 0;
    for (const t of ts) {
      if (inside) total += t - from;
      inside = !inside;
      from = t;
    }
    if (inside) total += 1 - from;
    return total * m;
  }

  /**
   * Metres of the great-circle leg a→b inside land, not counting the first `skipStartM` and the
   * last `skipEndM` metres (a port's own shore).
   */
  landMeters(
    a: { lat: number; lng: number },
    b: { lat: number; lng: number },
    skipStartM = 0,
    skipEndM = 0
  ): number {
    return this.measure(a, b, skipStartM, skipEndM, false);
  }

  /** Whether the leg crosses land (landMeters(…) > 0), stopping at the first ring edge crossed. */
  crossesLand(
    a: { lat: number; lng: number },
    b: { lat: number; lng: number },
    skipStartM = 0,
    skipEndM = 0
  ): boolean {
    return this.measure(a, b, skipStartM, skipEndM, true) > 0;
  }

  private measure(
    a: { lat: number; lng: number },
    b: { lat: number; lng: number },
    skipStartM: number,
    skipEndM: number,
    firstOnly: boolean
  ): number {
    // The ends' unit vectors into this.arc (no arrays per leg: this runs for every leg tried).
    const arc = this.arc;
    unitInto(arc, 0, a.lat, a.lng);
    unitInto(arc, 3, b.lat, b.lng);
    const omega = angleBetween(arc[0], arc[1], arc[2], arc[3], arc[4], arc[5]);
    const total = omega * MEAN_RADIUS_M;
    if (total <= skipStartM + skipEndM) return 0;
    const n = Math.max(1, Math.ceil(total / PIECE_M));
    const sinOmega = Math.sin(omega);
    // Points along the leg into this.qLat / this.qLng: no closure over changing doubles, whose
    // every write would box a number (this runs for every 20 km of every leg tried).
    let inside = 0;
    this.arcPoint(a, omega, sinOmega, skipStartM / total);
    let pLat = this.qLat;
    let pLng = this.qLng;
    // Only whether there is land: the start's side once, then any ring edge crossed (with none,
    // every piece stays on the start's side).
    if (firstOnly && this.isLand(pLat, pLng)) return 1;
    const tEnd = 1 - skipEndM / total;
    const t0 = skipStartM / total;
    const pieceM = ((tEnd - t0) * total) / n;
    for (let i = 1; i <= n; i++) {
      // Far from every coast (open ocean), whole pieces cross no ring edge: skip them (the same
      // pieces, so the answer is the one piece-by-piece testing gives).
      if (firstOnly) {
        const skip = Math.floor(this.clearMeters(pLat, pLng) / pieceM);
        if (skip > 0) {
          i = Math.min(n, i - 1 + skip);
          this.arcPoint(a, omega, sinOmega, t0 + ((tEnd - t0) * i) / n);
          pLat = this.qLat;
          pLng = this.qLng;
          continue;
        }
      }
      this.arcPoint(a, omega, sinOmega, t0 + ((tEnd - t0) * i) / n);
      // A piece across the antimeridian: measured on each side of it.
      if (Math.abs(this.qLng - pLng) > 180) {
        const qShift = this.qLng > pLng ? this.qLng - 360 : this.qLng + 360;
        const f = (Math.sign(qShift) * 180 - pLng) / (qShift - pLng);
        const latX = pLat + f * (this.qLat - pLat);
        const edge = qShift > 0 ? 180 : -180;
        if (firstOnly) {
          if (this.pieceCrosses(pLat, pLng, latX, edge)) return 1;
          if (this.pieceCrosses(latX, -edge, this.qLat, this.qLng)) return 1;
        } else {
          inside += this.pieceInside(pLat, pLng, latX, edge, pieceM * f);
          inside += this.pieceInside(latX, -edge, this.qLat, this.qLng, pieceM * (1 - f));
        }
      } else if (firstOnly) {
        if (this.pieceCrosses(pLat, pLng, this.qLat, this.qLng)) return 1;
      } else inside += this.pieceInside(pLat, pLng, this.qLat, this.qLng, pieceM);
      pLat = this.qLat;
      pLng = this.qLng;
    }
    return inside;
  }

  /** The point at fraction t of the arc a→b (unit vectors in this.arc, angle omega) into qLat / qLng. */
  private arcPoint(
    a: { lat: number; lng: number },
    omega: number,
    sinOmega: number,
    t: number
  ): void {
    if (omega < 1e-12) {
      this.qLat = a.lat;
      this.qLng = a.lng;
      return;
    }
    const arc = this.arc;
    const wa = Math.sin((1 - t) * omega) / sinOmega;
    const wb = Math.sin(t * omega) / sinOmega;
    const x = wa * arc[0] + wb * arc[3];
    const y = wa * arc[1] + wb * arc[4];
    const z = wa * arc[2] + wb * arc[5];
    this.qLat = unitLat(x, y, z);
    this.qLng = unitLng(x, y);
  }
}

/**
 * Where segment P1→P2 crosses segment Q1→Q2: the parameter t in [0, 1) along P, or -1. Half-open
 * on both (a crossing exactly at a shared ring vertex counts once).
 */
function crossParam(
  px1: number,
  py1: number,
  px2: number,
  py2: number,
  qx1: number,
  qy1: number,
  qx2: number,
  qy2: number
): number {
  const rx = px2 - px1;
  const ry = py2 - py1;
  const sx = qx2 - qx1;
  const sy = qy2 - qy1;
  const den = rx * sy - ry * sx;
  if (den === 0) return -1;
  const wx = qx1 - px1;
  const wy = qy1 - py1;
  const t = (wx * sy - wy * sx) / den;
  const u = (wx * ry - wy * rx) / den;
  return t >= 0 && t < 1 && u >= 0 && u < 1 ? t : -1;
}
