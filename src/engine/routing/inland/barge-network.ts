/**
 * The barge graph built from the waterway polylines. Edge lengths are WGS84 geodesic lengths; within
 * a reach between two points with official kilometres they are scaled so the reach measures exactly
 * its chainage (the published fairway distance), since a polyline of a few points per 10 km cuts the
 * river's bends. Reaches without kilometres keep their geodesic length.
 */
import { LatLng } from "../../types";
import { geodesicMetersBetween as geodesicMeters } from "../../geo/geodesy";
import { Waterway, WaterwaysFile } from "./waterways";

export interface BargeEdge {
  a: number;
  b: number;
  meters: number;
  waterway: string;
}

export interface BargePort {
  name: string;
  locode?: string;
  node: number;
  waterway: string;
  km?: number;
}

export interface BargeReach {
  waterway: string;
  from: string;
  to: string;
  /** Official chainage difference, metres. */
  chainageMeters: number;
  /** Length of the polyline, metres. */
  polylineMeters: number;
}

export class BargeNetwork {
  readonly nodes: LatLng[] = [];
  readonly edges: BargeEdge[] = [];
  /** Edge indices per node. */
  readonly adjacency: number[][] = [];
  readonly ports: BargePort[] = [];
  /** Mouth nodes where barges meet the sea network, with their sea area. */
  readonly mouths: { node: number; sea: string; name?: string }[] = [];
  readonly reaches: BargeReach[] = [];
  readonly waterways: ReadonlyArray<Waterway>;

  /**
   * `segmentMeters`: the geodesic length of every segment, waterway after waterway, as
   * measureSegments gives them (a snapshot keeps them: measuring is most of the build).
   */
  constructor(file: WaterwaysFile, segmentMeters: Float64Array = measureSegments(file)) {
    this.waterways = file.waterways;
    const junctions = new Map<string, number>();
    let segment = 0;
    for (const w of file.waterways) {
      const nodeIds = w.points.map((p) => {
        if (p.node !== undefined) {
          const known = junctions.get(p.node);
          if (known !== undefined) {
            const j = this.nodes[known];
            if (geodesicMeters(j, p) > 500) {
              throw new Error(
                `waterways.json: junction ${p.node} in ${w.id} is ${Math.round(geodesicMeters(j, p))} m from its first occurrence`
              );
            }
            return known;
          }
        }
        const id = this.addNode({ lat: p.lat, lng: p.lng });
        if (p.node !== undefined) junctions.set(p.node, id);
        return id;
      });
      const lengths = Array.from(segmentMeters.subarray(segment, (segment += w.points.length - 1)));
      const scales = segmentScales(w, lengths, this.reaches);
      for (let i = 1; i < w.points.length; i++) {
        const meters = lengths[i - 1] * scales[i - 1];
        this.addEdge(nodeIds[i - 1], nodeIds[i], meters, w.id);
      }
      w.points.forEach((p, i) => {
        if (p.name && (p.locode || p.km !== undefined || p.node)) {
          this.ports.push({
            name: p.name,
            locode: p.locode,
            node: nodeIds[i],
            waterway: w.id,
            km: p.km,
          });
        }
        if (p.sea) this.mouths.push({ node: nodeIds[i], sea: p.sea, name: p.name });
      });
    }
  }

  /** The named place with this LOCODE on the network, if any. */
  portByLocode(locode: string): BargePort | undefined {
    return this.ports.find((p) => p.locode === locode.toUpperCase());
  }

  private addNode(p: LatLng): number {
    this.nodes.push(p);
    this.adjacency.push([]);
    return this.nodes.length - 1;
  }

  private addEdge(a: number, b: number, meters: number, waterway: string): void {
    if (a === b) return;
    this.edges.push({ a, b, meters, waterway });
    const e = this.edges.length - 1;
    this.adjacency[a].push(e);
    this.adjacency[b].push(e);
  }
}

/** The WGS84 geodesic length of every segment of the file, waterway after waterway. */
export function measureSegments(file: WaterwaysFile): Float64Array {
  const out: number[] = [];
  for (const w of file.waterways)
    for (let i = 1; i < w.points.length; i++)
      out.push(geodesicMeters(w.points[i - 1], w.points[i]));
  return Float64Array.from(out);
}

/** Scale factor of each segment of w (of the given lengths): chainage ÷ polyline length within km-anchored reaches, else 1. */
function segmentScales(w: Waterway, lengths: readonly number[], reaches: BargeReach[]): number[] {
  const n = w.points.length - 1;
  const scales = new Array<number>(n).fill(1);
  const anchors = w.points.map((p, i) => (p.km !== undefined ? i : -1)).filter((i) => i >= 0);
  for (let k = 1; k < anchors.length; k++) {
    const i = anchors[k - 1];
    const j = anchors[k];
    let polyline = 0;
    for (let s = i; s < j; s++) polyline += lengths[s];
    const chainage = Math.abs((w.points[j].km as number) - (w.points[i].km as number)) * 1000;
    if (polyline <= 0 || chainage <= 0) continue;
    reaches.push({
      waterway: w.id,
      from: w.points[i].name ?? `km ${w.points[i].km}`,
      to: w.points[j].name ?? `km ${w.points[j].km}`,
      chainageMeters: chainage,
      polylineMeters: polyline,
    });
    const scale = chainage / polyline;
    for (let s = i; s < j; s++) scales[s] = scale;
  }
  return scales;
}
