/**
 * A road or rail network from public data (data/land/*.json, built by
 * src/builders/land/build-land-networks.ts): junctions and the lengths of the lines between them.
 * A trip joins it at one of the nodes nearest each end (access legs priced by the caller) and the
 * cheapest combination wins: multi-source Dijkstra on heap.ts over a compressed adjacency.
 */
import { LatLng, RouteBasis } from "../../types";
import { fastGeodesicMeters, metersToDegrees } from "../../geo/geodesy";
import { CsrSearch } from "../../graph/csr-search";
import { OverlandModality } from "./circuity";

/** The shipped file: integers, delta-encoded, so a 15,000-node network stays a few hundred kB. */
export interface LandNetworkFile {
  name: string;
  basis: RouteBasis;
  modality: OverlandModality;
  /** Countries (ISO 3166-1 numeric) the network covers: both ends of a trip must lie in them. */
  countries: string[];
  source: string;
  licence: string;
  /** Coordinates are integers of 1/coordinateScale degree, each the difference from the previous. */
  coordinateScale: number;
  lat: number[];
  lng: number[];
  /** Line lengths are integers: metres × lengthScale. */
  lengthScale: number;
  /** Per edge: node a as the difference from the previous edge's a, b − a, length. */
  edges: number[];
}

export interface NetworkAccess {
  node: number;
  meters: number;
}

export interface NetworkRoute {
  /** Access legs + network distance. */
  meters: number;
  /** Nodes from the entry to the exit node. */
  nodes: number[];
}

/** Grid cell size of the nearest-node index, degrees. */
const CELL_DEGREES = 1;

export class LandNetwork {
  readonly name: string;
  readonly basis: RouteBasis;
  readonly modality: OverlandModality;
  readonly countries: ReadonlySet<string>;
  readonly lat: Float64Array;
  readonly lng: Float64Array;
  private readonly offsets: Int32Array;
  private readonly targets: Int32Array;
  private readonly weights: Float64Array;
  private readonly cells = new Map<number, number[]>();
  private readonly search: CsrSearch;

  constructor(file: LandNetworkFile) {
    this.name = file.name;
    this.basis = file.basis;
    this.modality = file.modality;
    this.countries = new Set(file.countries);
    const n = file.lat.length;
    if (file.lng.length !== n || file.edges.length % 3 !== 0)
      throw new Error(`land network ${file.name}: lat, lng and edges do not match`);
    this.lat = new Float64Array(n);
    this.lng = new Float64Array(n);
    let la = 0;
    let ln = 0;
    for (let i = 0; i < n; i++) {
      la += file.lat[i];
      ln += file.lng[i];
      this.lat[i] = la / file.coordinateScale;
      this.lng[i] = ln / file.coordinateScale;
      const key = cellKey(this.lat[i], this.lng[i]);
      const list = this.cells.get(key);
      if (list) list.push(i);
      else this.cells.set(key, [i]);
    }
    const m = file.edges.length / 3;
    const from = new Int32Array(m);
    const to = new Int32Array(m);
    const len = new Float64Array(m);
    const degree = new Int32Array(n + 1);
    let a = 0;
    for (let e = 0; e < m; e++) {
      a += file.edges[3 * e];
      const b = a + file.edges[3 * e + 1];
      if (a < 0 || a >= n || b < 0 || b >= n)
        throw new Error(`land network ${file.name}: edge ${e} names a node out of range`);
      from[e] = a;
      to[e] = b;
      len[e] = file.edges[3 * e + 2] / file.lengthScale;
      degree[a + 1]++;
      degree[b + 1]++;
    }
    for (let i = 0; i < n; i++) degree[i + 1] += degree[i];
    this.offsets = degree;
    this.targets = new Int32Array(2 * m);
    this.weights = new Float64Array(2 * m);
    const fill = degree.slice(0, n);
    for (let e = 0; e < m; e++) {
      this.targets[fill[from[e]]] = to[e];
      this.weights[fill[from[e]]++] = len[e];
      this.targets[fill[to[e]]] = from[e];
      this.weights[fill[to[e]]++] = len[e];
    }
    this.search = new CsrSearch(this.offsets, this.targets, this.weights);
  }

  get size(): number {
    return this.lat.length;
  }

  node(i: number): LatLng {
    return { lat: this.lat[i], lng: this.lng[i] };
  }

  /** Nodes within `maxMeters` (geodesic) of p, nearest first, at most `limit`. */
  nearNodes(p: LatLng, maxMeters: number, limit: number): NetworkAccess[] {
    const dLat = metersToDegrees(maxMeters);
    const dLng = Math.min(180, dLat / Math.max(0.05, Math.cos((p.lat * Math.PI) / 180)));
    const out: NetworkAccess[] = [];
    const r0 = Math.floor((p.lat - dLat) / CELL_DEGREES);
    const r1 = Math.floor((p.lat + dLat) / CELL_DEGREES);
    const c0 = Math.floor((p.lng - dLng) / CELL_DEGREES);
    const c1 = Math.floor((p.lng + dLng) / CELL_DEGREES);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const list = this.cells.get(key(r, wrapColumn(c)));
        if (!list) continue;
        for (const i of list) {
          const meters = fastGeodesicMeters(p.lat, p.lng, this.lat[i], this.lng[i]);
          if (meters <= maxMeters) out.push({ node: i, meters });
        }
      }
    }
    out.sort((x, y) => x.meters - y.meters);
    return out.slice(0, limit);
  }

  /** Cheapest way from any entry to any exit (access legs included), or null when not joined. */
  route(entries: NetworkAccess[], exits: NetworkAccess[]): NetworkRoute | null {
    const found = this.search.cheapest(entries, exits);
    return found && { meters: found.meters, nodes: found.nodes };
  }
}

function cellKey(lat: number, lng: number): number {
  return key(Math.floor(lat / CELL_DEGREES), wrapColumn(Math.floor(lng / CELL_DEGREES)));
}

function key(row: number, column: number): number {
  return (row + 1000) * 4000 + column;
}

function wrapColumn(c: number): number {
  const columns = Math.round(360 / CELL_DEGREES);
  const offset = Math.round(180 / CELL_DEGREES);
  return ((((c + offset) % columns) + columns) % columns) - offset + 2000;
}
