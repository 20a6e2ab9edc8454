/**
 * The shape of data/sea-fine-land.json (written by src/builders/sea-fine/make-sea-fine.ts): per fine
 * region its box, grid step and Natural Earth 1:10m land rings clipped to the box. A ring is stored
 * as integers in 1e-5 degrees: the first point, then each next point as a difference.
 */
export const FINE_SCALE = 1e5;

export interface FineRegionData {
  id: string;
  name: string;
  /** [west, south, east, north], degrees. */
  box: [number, number, number, number];
  /** Grid step in latitude, degrees. */
  cellDegrees: number;
  reason: string;
  rings: number[][];
}

export interface FineLandFile {
  description: string;
  provenance: string;
  generator: string;
  inputsSha256: string;
  regions: FineRegionData[];
}

export function encodeRing(ring: ReadonlyArray<readonly [number, number]>): number[] {
  const out: number[] = [];
  let px = 0;
  let py = 0;
  for (const [x, y] of ring) {
    const ix = Math.round(x * FINE_SCALE);
    const iy = Math.round(y * FINE_SCALE);
    if (out.length && ix === px && iy === py) continue;
    out.push(ix - px, iy - py);
    px = ix;
    py = iy;
  }
  return out;
}

/** A stored ring as flat [lng, lat, lng, lat, …] degrees. */
export function decodeRing(enc: ReadonlyArray<number>): Float64Array {
  const out = new Float64Array(enc.length);
  let x = 0;
  let y = 0;
  for (let i = 0; i < enc.length; i += 2) {
    x += enc[i];
    y += enc[i + 1];
    out[i] = x / FINE_SCALE;
    out[i + 1] = y / FINE_SCALE;
  }
  return out;
}
