/**
 * Land as a lat/lng raster (a bit set, row-major: 1 = land), rasterised from polygon rings by even-odd
 * scanlines at each row's centre latitude, then optionally widened by a margin of cells. Used to
 * check that an open-sea shortcut (a geodesic between two network vertices) stays off the coast.
 */
import {
  slerp,
  toLatLng,
  toUnit,
  angleBetween,
  MEAN_RADIUS_KM,
  RAD,
  unitInto,
  unitLat,
  unitLng,
} from "../../geo/geodesy";

export type Rings = ReadonlyArray<ReadonlyArray<readonly [number, number] | ReadonlyArray<number>>>;

export interface LandMask {
  cellDegrees: number;
  cols: number;
  rows: number;
  /** Bit i (byte i >> 3, bit i & 7) is cell i = row * cols + col. */
  bits: Uint8Array;
}

function getBit(bits: Uint8Array, i: number): number {
  return (bits[i >> 3] >> (i & 7)) & 1;
}

function setBit(bits: Uint8Array, i: number): void {
  bits[i >> 3] |= 1 << (i & 7);
}

/**
 * Rings as closed planar polygons in lat/lng, for even-odd tests. Natural Earth rings that cross the
 * antimeridian jump from 180 to -180 by one long edge: read as a plane polygon, that edge and its
 * partner enclose whole latitude bands (everything between 65° and 69°N around Chukotka). Such a
 * ring is unwrapped into one continuous ring and added twice, once shifted by 360°, so each side of
 * the antimeridian sees its part. A ring around a pole (Antarctica) is closed along the pole instead.
 */
export function planarRings(polygons: ReadonlyArray<Rings>): number[][][] {
  const out: number[][][] = [];
  for (const polygon of polygons) {
    for (const ring of polygon) {
      let jumps = false;
      let winding = 0;
      for (let i = 0; i < ring.length; i++) {
        const a = ring[i];
        const b = ring[(i + 1) % ring.length];
        let dx = b[0] - a[0];
        if (Math.abs(dx) > 180) jumps = true;
        if (dx > 180) dx -= 360;
        if (dx < -180) dx += 360;
        winding += dx;
      }
      const plain = ring.map((p) => [p[0], p[1]]);
      if (!jumps) {
        out.push(plain);
        continue;
      }
      if (Math.abs(winding) > 180) {
        // Around a pole: each jump goes down the map edge, along the pole and back up.
        const pole = plain.reduce((s, p) => s + p[1], 0) < 0 ? -90 : 90;
        const closed: number[][] = [];
        for (let i = 0; i < plain.length; i++) {
          const a = plain[i];
          const b = plain[(i + 1) % plain.length];
          closed.push(a);
          if (Math.abs(b[0] - a[0]) <= 180) continue;
          const east = b[0] < a[0]; // leaves by +180, comes back at -180
          const exit = east ? 180 : -180;
          const bx = east ? b[0] + 360 : b[0] - 360;
          const f = (exit - a[0]) / (bx - a[0]);
          const y = a[1] + f * (b[1] - a[1]);
          closed.push([exit, y], [exit, pole], [-exit, pole], [-exit, y]);
        }
        out.push(closed);
        continue;
      }
      const unwrapped: number[][] = [plain[0]];
      for (let i = 1; i < plain.length; i++) {
        const prev = unwrapped[i - 1][0];
        let x = plain[i][0];
        while (x - prev > 180) x -= 360;
        while (x - prev < -180) x += 360;
        unwrapped.push([x, plain[i][1]]);
      }
      out.push(unwrapped);
      const xs = unwrapped.map((p) => p[0]);
      if (Math.max(...xs) > 180) out.push(unwrapped.map((p) => [p[0] - 360, p[1]]));
      if (Math.min(...xs) < -180) out.push(unwrapped.map((p) => [p[0] + 360, p[1]]));
    }
  }
  return out;
}

/**
 * `touching`: also mark every cell a coastline passes through, so that narrow land (a spit, a
 * peninsula, a small island) thinner than a cell is never missed by a straight leg's samples.
 */
export function rasteriseLand(
  polygons: ReadonlyArray<Rings>,
  cellDegrees: number,
  options: { touching?: boolean } = {}
): LandMask {
  const cols = Math.round(360 / cellDegrees);
  const rows = Math.round(180 / cellDegrees);
  const bits = new Uint8Array(Math.ceil((cols * rows) / 8));
  // Bucket every ring edge by the rows its latitude span covers.
  const byRow: number[][] = Array.from({ length: rows }, () => []);
  const x1: number[] = [];
  const y1: number[] = [];
  const x2: number[] = [];
  const y2: number[] = [];
  {
    for (const ring of planarRings(polygons)) {
      for (let i = 0; i < ring.length; i++) {
        const a = ring[i];
        const b = ring[(i + 1) % ring.length];
        if (a[1] === b[1]) continue;
        const id = x1.length;
        x1.push(a[0]);
        y1.push(a[1]);
        x2.push(b[0]);
        y2.push(b[1]);
        const lo = Math.max(0, Math.floor((Math.min(a[1], b[1]) + 90) / cellDegrees - 0.5));
        const hi = Math.min(rows - 1, Math.ceil((Math.max(a[1], b[1]) + 90) / cellDegrees - 0.5));
        for (let r = lo; r <= hi; r++) byRow[r].push(id);
      }
    }
  }
  // Polygons are filled one at a time would be exact for overlaps; land polygons do not overlap, so
  // even-odd over all rings of all polygons together is the same and much cheaper.
  const xs: number[] = [];
  for (let r = 0; r < rows; r++) {
    const lat = -90 + (r + 0.5) * cellDegrees;
    xs.length = 0;
    for (const id of byRow[r]) {
      const ya = y1[id];
      const yb = y2[id];
      if (ya > lat === yb > lat) continue;
      xs.push(x1[id] + ((lat - ya) * (x2[id] - x1[id])) / (yb - ya));
    }
    xs.sort((a, b) => a - b);
    for (let i = 0; i + 1 < xs.length; i += 2) {
      const c0 = Math.max(0, Math.ceil((xs[i] + 180) / cellDegrees - 0.5));
      const c1 = Math.min(cols - 1, Math.floor((xs[i + 1] + 180) / cellDegrees - 0.5));
      for (let c = c0; c <= c1; c++) setBit(bits, r * cols + c);
    }
  }
  if (options.touching) {
    const step = cellDegrees / 4;
    for (let id = 0; id < x1.length; id++) {
      const n = Math.max(1, Math.ceil(Math.hypot(x2[id] - x1[id], y2[id] - y1[id]) / step));
      for (let k = 0; k <= n; k++) {
        const x = x1[id] + ((x2[id] - x1[id]) * k) / n;
        const y = y1[id] + ((y2[id] - y1[id]) * k) / n;
        if (x < -180 || x >= 180) continue;
        const r = Math.min(rows - 1, Math.max(0, Math.floor((y + 90) / cellDegrees)));
        const c = Math.min(cols - 1, Math.max(0, Math.floor((x + 180) / cellDegrees)));
        setBit(bits, r * cols + c);
      }
    }
  }
  return { cellDegrees, cols, rows, bits };
}

/** The mask widened by `cells` cells in every direction (a coastal margin): rows first, then columns. */
export function widenMask(mask: LandMask, cells: number): LandMask {
  const { cols, rows } = mask;
  const across = new Uint8Array(cols * rows);
  for (let r = 0; r < rows; r++) {
    const row = r * cols;
    for (let c = 0; c < cols; c++) {
      if (!getBit(mask.bits, row + c)) continue;
      for (let dc = -cells; dc <= cells; dc++)
        across[row + ((((c + dc) % cols) + cols) % cols)] = 1;
    }
  }
  const out = new Uint8Array(mask.bits.length);
  for (let r = 0; r < rows; r++) {
    const lo = Math.max(0, r - cells);
    const hi = Math.min(rows - 1, r + cells);
    for (let c = 0; c < cols; c++) {
      if (!across[r * cols + c]) continue;
      for (let rr = lo; rr <= hi; rr++) setBit(out, rr * cols + c);
    }
  }
  return { ...mask, bits: out };
}

/**
 * The same raster stored by blocks of blockCells × blockCells cells: all-sea and all-land blocks
 * take no bits, only blocks along a coast keep theirs. The snapping raster (0.05°, 3.2 MB as plain
 * bits) shrinks to under a quarter, which is what a warm start reads.
 */
export interface CompactLandMask {
  cellDegrees: number;
  cols: number;
  rows: number;
  blockCells: number;
  /** Per block, row-major (ceil(cols / blockCells) a row): 0 all sea, 1 all land, k + 2 mixed block k. */
  blocks: Int32Array;
  /** Bits of the mixed blocks, blockCells² each, cell (row, col) of block k at k·blockCells² + row·blockCells + col. */
  mixedBits: Uint8Array;
}

/** A land raster in either form. */
export type LandRaster = LandMask | CompactLandMask;

/** 1° blocks at the 0.05° snapping raster. */
const BLOCK_CELLS = 20;

export function compactLandMask(mask: LandMask, blockCells = BLOCK_CELLS): CompactLandMask {
  const blockCols = Math.ceil(mask.cols / blockCells);
  const blockRows = Math.ceil(mask.rows / blockCells);
  const blocks = new Int32Array(blockCols * blockRows);
  const perBlock = blockCells * blockCells;
  const mixed: Uint8Array[] = [];
  for (let br = 0; br < blockRows; br++) {
    for (let bc = 0; bc < blockCols; bc++) {
      const cells = new Uint8Array(Math.ceil(perBlock / 8));
      let land = 0;
      let total = 0;
      for (let dr = 0; dr < blockCells; dr++) {
        const r = br * blockCells + dr;
        if (r >= mask.rows) break;
        for (let dc = 0; dc < blockCells; dc++) {
          const c = bc * blockCells + dc;
          if (c >= mask.cols) break;
          total++;
          if (getBit(mask.bits, r * mask.cols + c)) {
            land++;
            setBit(cells, dr * blockCells + dc);
          }
        }
      }
      const b = br * blockCols + bc;
      if (land === 0) blocks[b] = 0;
      else if (land === total) blocks[b] = 1;
      else blocks[b] = mixed.push(cells) + 1;
    }
  }
  const bytes = Math.ceil(perBlock / 8);
  const mixedBits = new Uint8Array(mixed.length * bytes);
  mixed.forEach((cells, k) => mixedBits.set(cells, k * bytes));
  return {
    cellDegrees: mask.cellDegrees,
    cols: mask.cols,
    rows: mask.rows,
    blockCells,
    blocks,
    mixedBits,
  };
}

function landCell(mask: LandRaster, r: number, c: number): boolean {
  if ("bits" in mask) return getBit(mask.bits, r * mask.cols + c) === 1;
  const n = mask.blockCells;
  const br = Math.floor(r / n);
  const bc = Math.floor(c / n);
  const v = mask.blocks[br * Math.ceil(mask.cols / n) + bc];
  if (v < 2) return v === 1;
  // Cell (row, col) inside mixed block v - 2, whose bits start at a whole byte.
  const inBlock = (r - br * n) * n + (c - bc * n);
  return getBit(mask.mixedBits, (v - 2) * Math.ceil((n * n) / 8) * 8 + inBlock) === 1;
}

export function isLand(mask: LandRaster, lat: number, lng: number): boolean {
  const r = Math.min(mask.rows - 1, Math.max(0, Math.floor((lat + 90) / mask.cellDegrees)));
  let x = (lng + 180) % 360;
  if (x < 0) x += 360;
  const c = Math.min(mask.cols - 1, Math.floor(x / mask.cellDegrees));
  return landCell(mask, r, c);
}

export interface ClearanceOptions {
  /** Sample spacing along the geodesic, km. */
  stepKm: number;
  /** Within this many km of either end, only `land` is checked (ends are often near the coast). */
  nearEndKm: number;
  /** Within this many km of either end, nothing is checked. */
  ignoreEndKm: number;
  /** Latitudes outside [minLat, maxLat] count as blocked (ice). */
  minLat: number;
  maxLat: number;
  /** Extra test per sample (e.g. passage areas): true = blocked. */
  blocked?: (lat: number, lng: number) => boolean;
}

/** True when the great-circle arc between the points keeps clear of land (and the margin). */
export function arcIsClear(
  land: LandMask,
  margin: LandMask,
  a: { lat: number; lng: number },
  b: { lat: number; lng: number },
  o: ClearanceOptions
): boolean {
  const ua = toUnit(a.lat, a.lng);
  const ub = toUnit(b.lat, b.lng);
  const km = angleBetween(ua[0], ua[1], ua[2], ub[0], ub[1], ub[2]) * MEAN_RADIUS_KM;
  const steps = Math.max(1, Math.ceil(km / o.stepKm));
  for (let i = 1; i < steps; i++) {
    const along = (km * i) / steps;
    const fromEnd = Math.min(along, km - along);
    if (fromEnd < o.ignoreEndKm) continue;
    const p = toLatLng(slerp(ua, ub, i / steps));
    if (p.lat < o.minLat || p.lat > o.maxLat) return false;
    if (isLand(fromEnd < o.nearEndKm ? land : margin, p.lat, p.lng)) return false;
    if (o.blocked && o.blocked(p.lat, p.lng)) return false;
  }
  return true;
}

/** Below this length a leg is sampled along the straight lat/lng line (off the great circle by far less than a cell). */
const LINEAR_SAMPLING_KM = 300;
/** Coarse pass first: most blocked legs hit land within a few coarse samples. */
const COARSE_FACTOR = 8;

/**
 * True when the straight (great-circle) way from `from` to `to` crosses no land cell, not counting
 * the first `skipFromKm` (a port's own coastline) and the last `skipToKm`. `blocked` may refuse
 * samples too (e.g. passage areas).
 */
export function connectorIsClear(
  land: LandRaster,
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
  skipFromKm: number,
  skipToKm: number,
  stepKm: number,
  blocked?: (lat: number, lng: number) => boolean
): boolean {
  // The ends' unit vectors as plain numbers (no array per call: this runs for every snap and leg).
  const ca = Math.cos(from.lat * RAD);
  const ax = ca * Math.cos(from.lng * RAD);
  const ay = ca * Math.sin(from.lng * RAD);
  const az = Math.sin(from.lat * RAD);
  const cb = Math.cos(to.lat * RAD);
  const bx = cb * Math.cos(to.lng * RAD);
  const by = cb * Math.sin(to.lng * RAD);
  const bz = Math.sin(to.lat * RAD);
  const km = angleBetween(ax, ay, az, bx, by, bz) * MEAN_RADIUS_KM;
  if (km <= skipFromKm + skipToKm) return true;
  let dLng = to.lng - from.lng;
  if (dLng > 180) dLng -= 360;
  if (dLng < -180) dLng += 360;
  const linear = km < LINEAR_SAMPLING_KM || Math.sin(km / MEAN_RADIUS_KM) < 1e-12;
  // Great-circle sampling without re-deriving the arc per sample (slerp weights from a fixed angle).
  const omega = km / MEAN_RADIUS_KM;
  const sinOmega = Math.sin(omega);
  // Coarse pass, then the fine one. Plain loops and Math.sqrt (no closure, no Math.hypot): this
  // runs for every snap and straight leg, and boxed numbers there cost more than the samples.
  for (let pass = 0; pass < 2; pass++) {
    const steps = Math.ceil(km / (pass === 0 ? stepKm * COARSE_FACTOR : stepKm));
    for (let i = 1; i < steps; i++) {
      const along = (km * i) / steps;
      if (along < skipFromKm || km - along < skipToKm) continue;
      const t = i / steps;
      let lat: number;
      let lng: number;
      if (linear) {
        lat = from.lat + t * (to.lat - from.lat);
        lng = from.lng + t * dLng;
      } else {
        const wa = Math.sin((1 - t) * omega) / sinOmega;
        const wb = Math.sin(t * omega) / sinOmega;
        const x = wa * ax + wb * bx;
        const y = wa * ay + wb * by;
        const z = wa * az + wb * bz;
        lat = unitLat(x, y, z);
        lng = unitLng(x, y);
      }
      // The cell worked out here, in integers: a call passing the coordinates (isLand, when not
      // inlined) would box both doubles, and this loop runs for every snap and straight leg.
      const r = Math.min(land.rows - 1, Math.max(0, Math.floor((lat + 90) / land.cellDegrees)));
      let x = (lng + 180) % 360;
      if (x < 0) x += 360;
      const c = Math.min(land.cols - 1, Math.floor(x / land.cellDegrees));
      if (landCell(land, r, c) || (blocked !== undefined && blocked(lat, lng))) return false;
    }
  }
  return true;
}

/**
 * True when a sample of the great-circle way (every `stepKm`, the first `skipFromKm` and last
 * `skipToKm` left out) falls well inside land: its raster cell and the cells `depth` away on all
 * four sides are land. A quick way to refuse a leg across a continent before an exact test.
 */
export function crossesDeepLand(
  land: LandRaster,
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
  skipFromKm: number,
  skipToKm: number,
  stepKm: number,
  depth = 2
): boolean {
  // The ends' unit vectors as toUnit makes them, into a reused buffer (this runs for every long
  // leg tried: no arrays nor closure per call).
  const u = DEEP_ARC;
  unitInto(u, 0, from.lat, from.lng);
  unitInto(u, 3, to.lat, to.lng);
  const omega = angleBetween(u[0], u[1], u[2], u[3], u[4], u[5]);
  const km = omega * MEAN_RADIUS_KM;
  if (km <= skipFromKm + skipToKm || omega < 1e-12) return false;
  const sinOmega = Math.sin(omega);
  const fine = Math.ceil(km / stepKm);
  const reach = depth * land.cellDegrees;
  // A coarse pass of 16 samples first: a leg across a continent meets land far from its start.
  const coarse = Math.min(16, fine);
  for (let i = 1; i < coarse; i++)
    if (deepAt(land, u, km, omega, sinOmega, skipFromKm, skipToKm, reach, i, coarse)) return true;
  // Then every sample, spread out first (the same samples in another order, so the same answer):
  // land the coarse pass stepped over is found after a few samples, not after half of them.
  for (const offset of FINE_ORDER)
    for (let i = offset || FINE_STRIDE; i < fine; i += FINE_STRIDE)
      if (deepAt(land, u, km, omega, sinOmega, skipFromKm, skipToKm, reach, i, fine)) return true;
  return false;
}

const DEEP_ARC = new Float64Array(6);

/**
 * Sample i of `steps` along the arc u[0..2] → u[3..5] (of `km`, angle omega) lies well inside land:
 * its cell and the cells `reach` degrees away on all four sides are land.
 */
function deepAt(
  land: LandRaster,
  u: Float64Array,
  km: number,
  omega: number,
  sinOmega: number,
  skipFromKm: number,
  skipToKm: number,
  reach: number,
  i: number,
  steps: number
): boolean {
  const along = (km * i) / steps;
  if (along < skipFromKm || km - along < skipToKm) return false;
  const t = i / steps;
  const wa = Math.sin((1 - t) * omega) / sinOmega;
  const wb = Math.sin(t * omega) / sinOmega;
  const x = wa * u[0] + wb * u[3];
  const y = wa * u[1] + wb * u[4];
  const z = wa * u[2] + wb * u[5];
  const lat = unitLat(x, y, z);
  const lng = unitLng(x, y);
  return (
    isLand(land, lat, lng) &&
    isLand(land, lat + reach, lng) &&
    isLand(land, lat - reach, lng) &&
    isLand(land, lat, lng + reach) &&
    isLand(land, lat, lng - reach)
  );
}

/** The order in which crossesDeepLand visits its fine samples: by their index modulo the stride. */
const FINE_STRIDE = 8;
const FINE_ORDER = [0, 4, 2, 6, 1, 5, 3, 7];

/** How many samples (every `stepKm`, after the first `skipFromKm`) of the straight way fall on land. */
export function connectorLandSamples(
  land: LandRaster,
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
  skipFromKm: number,
  stepKm: number
): number {
  let dLng = to.lng - from.lng;
  if (dLng > 180) dLng -= 360;
  if (dLng < -180) dLng += 360;
  const km = Math.hypot(
    (to.lat - from.lat) * 111.2,
    dLng * 111.2 * Math.cos((((from.lat + to.lat) / 2) * Math.PI) / 180)
  );
  const steps = Math.max(1, Math.ceil(km / stepKm));
  let count = 0;
  for (let i = 1; i < steps; i++) {
    if ((km * i) / steps < skipFromKm) continue;
    const t = i / steps;
    if (isLand(land, from.lat + t * (to.lat - from.lat), from.lng + t * dLng)) count++;
  }
  return count;
}
