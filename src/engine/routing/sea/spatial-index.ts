/**
 * A lat/lng grid over the network's edges, for snapping a point to the nearest point ON an edge.
 * Edges are great-circle arcs; each is registered in every cell its arc passes through.
 */
import { angleBetween, nearestOnArc, slerp, toLatLng, Vec3 } from "../../geo/geodesy";
import { doubled } from "../../typed-arrays";

export interface EdgeGrid {
  cellDegrees: number;
  cols: number;
  rows: number;
  /** CSR: the edges in cell c are cellEdges[cellOffset[c] .. cellOffset[c+1]). */
  cellOffset: Int32Array;
  cellEdges: Int32Array;
  /** Unit pole (a × b normalised) of each edge's great circle: |p·n| bounds p's distance to the arc from below. */
  poleX: Float64Array;
  poleY: Float64Array;
  poleZ: Float64Array;
}

interface EdgeGeometry {
  edgeCount: number;
  edgeA: Int32Array;
  edgeB: Int32Array;
  ux: Float64Array;
  uy: Float64Array;
  uz: Float64Array;
}

const DEG = 180 / Math.PI;
/**
 * Slack around an arc's sample boxes, degrees, so the arc's bulge between samples stays inside
 * (samples are at most half a cell apart: the bulge of such a chord is far below this).
 */
const MARGIN_DEG = 0.02;

/** `gridEdges`: only edges [0, gridEdges) are registered (the others are never snapped to). */
export function buildEdgeGrid(
  g: EdgeGeometry,
  cellDegrees: number,
  gridEdges = g.edgeCount
): EdgeGrid {
  const cols = Math.round(360 / cellDegrees);
  const rows = Math.round(180 / cellDegrees);
  const pairCell: number[] = [];
  const pairEdge: number[] = [];
  // Cells already holding the current edge (stamped with edge id + 1).
  const stampOf = new Int32Array(rows * cols);
  for (let e = 0; e < gridEdges; e++) {
    const a: Vec3 = [g.ux[g.edgeA[e]], g.uy[g.edgeA[e]], g.uz[g.edgeA[e]]];
    const b: Vec3 = [g.ux[g.edgeB[e]], g.uy[g.edgeB[e]], g.uz[g.edgeB[e]]];
    const spanDeg = angleBetween(a[0], a[1], a[2], b[0], b[1], b[2]) * DEG;
    const steps = Math.max(1, Math.ceil(spanDeg / (cellDegrees / 2)));
    let prev = toLatLng(a);
    for (let s = 1; s <= steps; s++) {
      const cur = toLatLng(s === steps ? b : slerp(a, b, s / steps));
      let lng0 = Math.min(prev.lng, cur.lng);
      let lng1 = Math.max(prev.lng, cur.lng);
      if (lng1 - lng0 > 180) [lng0, lng1] = [lng1, lng0 + 360]; // the sample pair straddles ±180°
      const r0 = clampRow(
        Math.floor((Math.min(prev.lat, cur.lat) - MARGIN_DEG + 90) / cellDegrees),
        rows
      );
      const r1 = clampRow(
        Math.floor((Math.max(prev.lat, cur.lat) + MARGIN_DEG + 90) / cellDegrees),
        rows
      );
      const c0 = Math.floor((lng0 - MARGIN_DEG + 180) / cellDegrees);
      const c1 = Math.floor((lng1 + MARGIN_DEG + 180) / cellDegrees);
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = r * cols + wrap(c, cols);
          if (stampOf[cell] === e + 1) continue;
          stampOf[cell] = e + 1;
          pairCell.push(cell);
          pairEdge.push(e);
        }
      }
      prev = cur;
    }
  }
  const cellOffset = new Int32Array(rows * cols + 1);
  for (const c of pairCell) cellOffset[c + 1]++;
  for (let i = 0; i < rows * cols; i++) cellOffset[i + 1] += cellOffset[i];
  const fill = cellOffset.slice(0, rows * cols);
  const cellEdges = new Int32Array(pairCell.length);
  for (let i = 0; i < pairCell.length; i++) cellEdges[fill[pairCell[i]]++] = pairEdge[i];
  const poleX = new Float64Array(g.edgeCount);
  const poleY = new Float64Array(g.edgeCount);
  const poleZ = new Float64Array(g.edgeCount);
  for (let e = 0; e < g.edgeCount; e++) {
    const a = g.edgeA[e];
    const b = g.edgeB[e];
    const x = g.uy[a] * g.uz[b] - g.uz[a] * g.uy[b];
    const y = g.uz[a] * g.ux[b] - g.ux[a] * g.uz[b];
    const z = g.ux[a] * g.uy[b] - g.uy[a] * g.ux[b];
    const len = Math.hypot(x, y, z);
    // Degenerate (zero-length) edges get a zero pole: the bound is then 0, never prunes.
    if (len > 1e-15) {
      poleX[e] = x / len;
      poleY[e] = y / len;
      poleZ[e] = z / len;
    }
  }
  return { cellDegrees, cols, rows, cellOffset, cellEdges, poleX, poleY, poleZ };
}

/**
 * Angular distance (radians) from unit vector p to the arc a→b whose unit pole is n (a × b
 * normalised; zero for a degenerate arc). No allocation: the hot loop of snapping.
 */
function arcAngle(
  px: number,
  py: number,
  pz: number,
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  nx: number,
  ny: number,
  nz: number
): number {
  const d = px * nx + py * ny + pz * nz;
  const cx = px - d * nx;
  const cy = py - d * ny;
  const cz = pz - d * nz;
  // sqrt, not Math.hypot: the builtin boxes its result on this hot path.
  const cn = Math.sqrt(cx * cx + cy * cy + cz * cz);
  if (cn > 1e-12 && (nx !== 0 || ny !== 0 || nz !== 0)) {
    // The foot C lies on the arc when it is on the A→B side of both end points.
    const s1 = (ay * cz - az * cy) * nx + (az * cx - ax * cz) * ny + (ax * cy - ay * cx) * nz;
    const s2 = (cy * bz - cz * by) * nx + (cz * bx - cx * bz) * ny + (cx * by - cy * bx) * nz;
    if (s1 >= 0 && s2 >= 0) return Math.atan2(Math.abs(d), cn);
  }
  return Math.min(angleBetween(px, py, pz, ax, ay, az), angleBetween(px, py, pz, bx, by, bz));
}

export interface EdgeSnap {
  edge: number;
  /** The nearest point on the edge, as a unit vector. */
  point: Vec3;
  /** Angular distance from the query point, radians. */
  angle: number;
}

/**
 * Nearest point on an accepted edge: the band of `nearEdges` narrowed to the nearest edge alone
 * (used while building the graph, not per query).
 */
export function nearestEdge(
  g: EdgeGeometry & { grid: EdgeGrid },
  lat: number,
  lng: number,
  p: Vec3,
  accept: (edge: number) => boolean,
  seen: Int32Array,
  stamp: number
): EdgeSnap | null {
  return nearEdges(g, lat, lng, p, accept, seen, stamp, (nearest) => nearest, 1)[0] ?? null;
}

/**
 * The nearest accepted edge and every other accepted edge within band(nearest angle) of the point,
 * nearest first (at most `max`), in one scan: the window grows until it holds the whole band.
 */
export function nearEdges(
  g: EdgeGeometry & { grid: EdgeGrid },
  lat: number,
  lng: number,
  p: Vec3,
  accept: (edge: number) => boolean,
  seen: Int32Array,
  stamp: number,
  band: (nearestAngle: number) => number,
  max: number
): EdgeSnap[] {
  const { cellDegrees, cols, rows, cellOffset, cellEdges, poleX, poleY, poleZ } = g.grid;
  const [px, py, pz] = p;
  let found = 0;
  let bestAngle = Infinity;
  let bandAngle = Infinity;
  let bandSin = Infinity;
  let radiusDeg = cellDegrees;
  for (;;) {
    const { r0, r1, c0, c1, allCols } = searchWindow(g.grid, lat, lng, radiusDeg);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * cols + wrap(c, cols);
        for (let i = cellOffset[cell]; i < cellOffset[cell + 1]; i++) {
          const e = cellEdges[i];
          if (seen[e] === stamp) continue;
          if (Math.abs(px * poleX[e] + py * poleY[e] + pz * poleZ[e]) > bandSin) continue;
          seen[e] = stamp;
          if (!accept(e)) continue;
          const a = g.edgeA[e];
          const b = g.edgeB[e];
          const angle = arcAngle(
            px,
            py,
            pz,
            g.ux[a],
            g.uy[a],
            g.uz[a],
            g.ux[b],
            g.uy[b],
            g.uz[b],
            poleX[e],
            poleY[e],
            poleZ[e]
          );
          if (angle > bandAngle) continue;
          if (found === scratch.edge.length) growScratch();
          scratch.edge[found] = e;
          scratch.angle[found++] = angle;
          if (angle < bestAngle) {
            bestAngle = angle;
            bandAngle = band(angle);
            bandSin = bandAngle >= Math.PI / 2 ? Infinity : Math.sin(bandAngle);
          }
        }
      }
    }
    const coveredWholeEarth = allCols && r0 === 0 && r1 === rows - 1;
    if ((found > 0 && bandAngle * DEG <= radiusDeg) || coveredWholeEarth) break;
    radiusDeg *= 2;
  }
  const { edge: foundEdge, angle: foundAngle, order } = scratch;
  order.length = 0;
  for (let i = 0; i < found; i++) if (foundAngle[i] <= bandAngle) order.push(i);
  order.sort((x, y) => foundAngle[x] - foundAngle[y]);
  if (order.length > max) order.length = max;
  return order.map((i) => {
    const e = foundEdge[i];
    const a = g.edgeA[e];
    const b = g.edgeB[e];
    const hit = nearestOnArc(p, [g.ux[a], g.uy[a], g.uz[a]], [g.ux[b], g.uy[b], g.uz[b]]);
    return { edge: e, point: hit.point, angle: hit.angle };
  });
}

/** Edges found by nearEdges and their angles, reused from call to call (it runs twice per query). */
const scratch = { edge: new Int32Array(256), angle: new Float64Array(256), order: [] as number[] };

function growScratch(): void {
  scratch.edge = doubled(scratch.edge);
  scratch.angle = doubled(scratch.angle);
}

/** Grid rows and columns that hold every point within `radiusDeg` of (lat, lng). */
function searchWindow(grid: EdgeGrid, lat: number, lng: number, radiusDeg: number) {
  const { cellDegrees, cols, rows } = grid;
  const latLo = lat - radiusDeg;
  const latHi = lat + radiusDeg;
  const maxAbsLat = Math.max(Math.abs(latLo), Math.abs(latHi));
  // hav(d) >= cos²(φmax)·hav(Δλ), so beyond this Δλ every point is farther than the radius.
  const s = Math.sin(radiusDeg / DEG / 2) / Math.cos(Math.min(90, maxAbsLat) / DEG);
  const lngDelta = s >= 1 ? 180 : 2 * Math.asin(s) * DEG;
  const allCols = lngDelta >= 180;
  return {
    r0: clampRow(Math.floor((latLo + 90) / cellDegrees), rows),
    r1: clampRow(Math.floor((latHi + 90) / cellDegrees), rows),
    c0: allCols ? 0 : Math.floor((lng - lngDelta + 180) / cellDegrees),
    c1: allCols ? cols - 1 : Math.floor((lng + lngDelta + 180) / cellDegrees),
    allCols,
  };
}

function clampRow(r: number, rows: number): number {
  return r < 0 ? 0 : r >= rows ? rows - 1 : r;
}

function wrap(c: number, cols: number): number {
  return ((c % cols) + cols) % cols;
}

/** Every accepted edge whose nearest point lies within `radiusAngle` (radians) of the point. */
export function edgesWithin(
  g: EdgeGeometry & { grid: EdgeGrid },
  lat: number,
  lng: number,
  p: Vec3,
  radiusAngle: number,
  accept: (edge: number) => boolean,
  seen: Int32Array,
  stamp: number
): EdgeSnap[] {
  const { cols, cellOffset, cellEdges, poleX, poleY, poleZ } = g.grid;
  const [px, py, pz] = p;
  const radiusSin = radiusAngle >= Math.PI / 2 ? Infinity : Math.sin(radiusAngle);
  const { r0, r1, c0, c1 } = searchWindow(g.grid, lat, lng, radiusAngle * DEG);
  const out: EdgeSnap[] = [];
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * cols + wrap(c, cols);
      for (let i = cellOffset[cell]; i < cellOffset[cell + 1]; i++) {
        const e = cellEdges[i];
        if (seen[e] === stamp) continue;
        seen[e] = stamp;
        if (Math.abs(px * poleX[e] + py * poleY[e] + pz * poleZ[e]) > radiusSin) continue;
        if (!accept(e)) continue;
        const a = g.edgeA[e];
        const b = g.edgeB[e];
        if (
          arcAngle(
            px,
            py,
            pz,
            g.ux[a],
            g.uy[a],
            g.uz[a],
            g.ux[b],
            g.uy[b],
            g.uz[b],
            poleX[e],
            poleY[e],
            poleZ[e]
          ) > radiusAngle
        )
          continue;
        const hit = nearestOnArc(p, [g.ux[a], g.uy[a], g.uz[a]], [g.ux[b], g.uy[b], g.uz[b]]);
        if (hit.angle <= radiusAngle) out.push({ edge: e, point: hit.point, angle: hit.angle });
      }
    }
  }
  return out.sort((x, y) => x.angle - y.angle);
}
