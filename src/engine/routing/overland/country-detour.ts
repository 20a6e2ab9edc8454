/**
 * The way round when a trip's great circle crosses another country's land while both its ends lie
 * in one. National roads and railways stay at home: Hanoi -> Ho Chi Minh City does not cut through
 * Laos and Cambodia. The detour is the shortest line inside
 * the country on a grid (cells of the country, 16 moves), pulled straight where the straight line
 * stays inside; the circuity factor then applies to it as it does to a great circle.
 *
 * Only for ends in one country: a trip across borders keeps its great circle (it may pass through
 * any country on the way). Pure: the country of a point arrives through the constructor.
 */
import { LatLng } from "../../types";
import { fastGeodesicMeters, slerp, toLatLng, toUnit } from "../../geo/geodesy";
import { MinHeap } from "../../heap";
import { GRID_MOVES } from "../../graph/grid-moves";

export interface CountryDetourSettings {
  /** The great circle is checked every this many metres (at most maxSamples points). */
  sampleMeters: number;
  maxSamples: number;
  /** Grid cells: the finest is this many degrees; longer trips use 2^k times it. */
  cellDegrees: number;
  /** At most about this many cells along the longer side of the trip's box. */
  cellsAcross: number;
  /** The box round the ends is widened by this share of its size (and at least 1 degree). */
  margin: number;
  /** A detour longer than this × the great circle is no detour (an exclave, a ferry): none. */
  maxRatio: number;
}

export const DEFAULT_COUNTRY_DETOUR: CountryDetourSettings = {
  sampleMeters: 20_000,
  maxSamples: 100,
  cellDegrees: 0.1,
  cellsAcross: 80,
  margin: 0.5,
  maxRatio: 2.5,
};

/** Detours remembered at most (then forgotten all at once). */
const MEMO_LIMIT = 20_000;

const MOVES = GRID_MOVES;

export class CountryDetour {
  readonly settings: CountryDetourSettings;
  /** Country id (index into `names`, -1 none) of a cell centre, per grid level, cached. */
  private readonly cells = new Map<number, number>();
  private readonly ids = new Map<string, number>();

  constructor(
    private readonly countryOf: (p: LatLng) => string | null,
    settings: Partial<CountryDetourSettings> = {}
  ) {
    this.settings = { ...DEFAULT_COUNTRY_DETOUR, ...settings };
  }

  private idOf(country: string | null): number {
    if (country === null) return -1;
    let id = this.ids.get(country);
    if (id === undefined) this.ids.set(country, (id = this.ids.size));
    return id;
  }

  /** Country id of the centre of cell (row, col) at grid level k (cells of cellDegrees × 2^k). */
  private cellCountry(k: number, row: number, col: number): number {
    const key = (k * 8192 + row + 4096) * 16384 + col + 8192;
    let id = this.cells.get(key);
    if (id === undefined) {
      const size = this.settings.cellDegrees * 2 ** k;
      id = this.idOf(this.countryOf({ lat: (row + 0.5) * size, lng: (col + 0.5) * size }));
      this.cells.set(key, id);
    }
    return id;
  }

  private inside(k: number, p: LatLng, id: number): boolean {
    const size = this.settings.cellDegrees * 2 ** k;
    return this.cellCountry(k, Math.floor(p.lat / size), Math.floor(p.lng / size)) === id;
  }

  /**
   * The way between the points inside their country, with its metres, when the great circle
   * leaves the country; null when it stays inside, the ends are in different countries (or none),
   * or no way inside is found.
   */
  detour(from: LatLng, to: LatLng, meters: number): { meters: number; path: LatLng[] } | null {
    // Trips that cross the antimeridian are left alone (the grid below is not wrapped).
    if (Math.abs(from.lng - to.lng) > 180) return null;
    // One search per pair of ends, whichever way: the way back is the same way (a grid search
    // from the other end could settle ties differently).
    const swap = from.lat > to.lat || (from.lat === to.lat && from.lng > to.lng);
    const [p, q] = swap ? [to, from] : [from, to];
    // The same legs come back (the fixed links' ends, a sheet's repeated lanes): remembered.
    const key = `${p.lat},${p.lng},${q.lat},${q.lng}`;
    let found = this.memo.get(key);
    if (found === undefined) {
      found = this.search(p, q, meters);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(key, found);
    }
    return found && swap ? { meters: found.meters, path: [...found.path].reverse() } : found;
  }

  private readonly memo = new Map<string, { meters: number; path: LatLng[] } | null>();

  private search(
    from: LatLng,
    to: LatLng,
    meters: number
  ): { meters: number; path: LatLng[] } | null {
    const { sampleMeters, maxSamples, cellDegrees, cellsAcross, margin, maxRatio } = this.settings;
    const span = Math.max(Math.abs(from.lat - to.lat), Math.abs(from.lng - to.lng));
    const levelFor = (m: number) =>
      Math.max(0, Math.ceil(Math.log2(((1 + 2 * m) * span) / cellsAcross / cellDegrees)));
    const k = levelFor(margin);
    const size = cellDegrees * 2 ** k;
    const cellId = (p: LatLng) =>
      this.cellCountry(k, Math.floor(p.lat / size), Math.floor(p.lng / size));
    // Cached cells first, the exact polygon test only for the few trips that may need a detour.
    // Ends in two countries' cells: a trip across a border, which keeps its great circle.
    const ia = cellId(from);
    const ib = cellId(to);
    if (ia !== -1 && ib !== -1 && ia !== ib) return null;
    const n = Math.max(2, Math.min(maxSamples, Math.ceil(meters / sampleMeters)));
    const a = toUnit(from.lat, from.lng);
    const b = toUnit(to.lat, to.lng);
    // Only another country's land counts: open water between the ends keeps the great circle and
    // its own allowance (terrain.ts), which also stands for the winding coast roads round a bay.
    let leaves = false;
    for (let i = 1; i < n && !leaves; i++) {
      const other = cellId(toLatLng(slerp(a, b, i / n)));
      leaves = other !== -1 && other !== ia && other !== ib;
    }
    if (!leaves) return null;
    const country = this.countryOf(from);
    if (country === null || this.countryOf(to) !== country) return null;
    const id = this.idOf(country);
    // A box with the margin first; when no way is found in it, one wide enough for any detour
    // up to maxRatio (an ellipse round the ends), on coarser cells.
    let level = k;
    let cells = this.gridPath(k, from, to, id, span * margin);
    if (!cells) {
      level = levelFor(maxRatio / 2);
      cells = this.gridPath(level, from, to, id, (span * maxRatio) / 2);
    }
    if (!cells) return null;
    const path = this.pulled(level, [from, ...cells, to], id);
    let total = 0;
    for (let i = 1; i < path.length; i++)
      total += fastGeodesicMeters(path[i - 1].lat, path[i - 1].lng, path[i].lat, path[i].lng);
    if (total <= meters || total > meters * maxRatio) return null;
    return { meters: total, path };
  }

  /** A* over the cells of the country in the box round the ends; the cell centres passed. */
  private gridPath(k: number, from: LatLng, to: LatLng, id: number, pad: number): LatLng[] | null {
    const size = this.settings.cellDegrees * 2 ** k;
    const widen = Math.max(1, pad);
    const row0 = Math.floor((Math.min(from.lat, to.lat) - widen) / size);
    const col0 = Math.floor((Math.min(from.lng, to.lng) - widen) / size);
    const rows = Math.floor((Math.max(from.lat, to.lat) + widen) / size) - row0 + 1;
    const cols = Math.floor((Math.max(from.lng, to.lng) + widen) / size) - col0 + 1;
    const centre = (i: number) => ({
      lat: (row0 + Math.floor(i / cols) + 0.5) * size,
      lng: (col0 + (i % cols) + 0.5) * size,
    });
    const cellOf = (p: LatLng) =>
      (Math.floor(p.lat / size) - row0) * cols + Math.floor(p.lng / size) - col0;
    const start = cellOf(from);
    const goal = cellOf(to);
    const open = (i: number) =>
      i === start ||
      i === goal ||
      this.cellCountry(k, row0 + Math.floor(i / cols), col0 + (i % cols)) === id;
    // Costs in degrees of latitude on the local plane (a row's cosine shrinks its longitudes);
    // the heuristic takes the box's smallest cosine, so it never overestimates. The metres are
    // measured on the pulled path afterwards.
    const cosRow = new Float64Array(rows);
    let cosMin = 1;
    for (let r = 0; r < rows; r++) {
      cosRow[r] = Math.cos((row0 + r + 0.5) * size * (Math.PI / 180));
      cosMin = Math.min(cosMin, cosRow[r]);
    }
    const goalRow = Math.floor(goal / cols);
    const goalCol = goal % cols;
    const h = (r: number, c: number) => size * Math.hypot(r - goalRow, (c - goalCol) * cosMin);
    const dist = new Float64Array(rows * cols).fill(Infinity);
    const prev = new Int32Array(rows * cols).fill(-1);
    const heap = new MinHeap(256);
    dist[start] = 0;
    heap.push(0, start);
    while (heap.size > 0) {
      const key = heap.peekKey();
      const u = heap.pop();
      const r = Math.floor(u / cols);
      const c = u % cols;
      if (key > dist[u] + h(r, c) + 1e-9) continue;
      if (u === goal) break;
      for (const [dr, dc] of MOVES) {
        const rr = r + dr;
        const cc = c + dc;
        if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
        const v = rr * cols + cc;
        if (!open(v)) continue;
        const d = dist[u] + size * Math.hypot(dr, dc * 0.5 * (cosRow[r] + cosRow[rr]));
        if (d < dist[v]) {
          dist[v] = d;
          prev[v] = u;
          heap.push(d + h(rr, cc), v);
        }
      }
    }
    if (dist[goal] === Infinity) return null;
    const out: LatLng[] = [];
    for (let v = prev[goal]; v !== -1 && v !== start; v = prev[v]) out.unshift(centre(v));
    return out;
  }

  /** The path with every corner dropped whose neighbours see each other inside the country. */
  private pulled(k: number, path: LatLng[], id: number): LatLng[] {
    const size = this.settings.cellDegrees * 2 ** k;
    // The ends' own cells count as inside: a port's cell centre may lie out at sea.
    const cellKey = (p: LatLng) => `${Math.floor(p.lat / size)},${Math.floor(p.lng / size)}`;
    const ends = new Set([cellKey(path[0]), cellKey(path[path.length - 1])]);
    const within = (p: LatLng) => ends.has(cellKey(p)) || this.inside(k, p, id);
    const clear = (p: LatLng, q: LatLng) => {
      const steps = Math.ceil(
        Math.max(Math.abs(p.lat - q.lat), Math.abs(p.lng - q.lng)) / (size / 2)
      );
      for (let s = 1; s < steps; s++) {
        const t = s / steps;
        if (!within({ lat: p.lat + (q.lat - p.lat) * t, lng: p.lng + (q.lng - p.lng) * t }))
          return false;
      }
      return true;
    };
    const out = [path[0]];
    let i = 0;
    while (i < path.length - 1) {
      let j = path.length - 1;
      while (j > i + 1 && !clear(path[i], path[j])) j--;
      out.push(path[j]);
      i = j;
    }
    return out;
  }
}
