/**
 * Grid metres from a start cell to the gates of its fine region: Dijkstra over open water cells
 * with a bucket queue (buckets as wide as the shortest step, so every cell of the lowest bucket is
 * settled: no step within a bucket can improve another, and a cell costs a few array reads instead
 * of heap operations). The search stops at a bucket boundary and can go on later from there (grow)
 * as long as its region ran no other search meanwhile: a way out of a region seldom needs the
 * whole region searched, and going on settles exactly the cells a longer first run would have, in
 * the same order, so the metres and ways do not depend on where it paused.
 */
import { doubled } from "../../typed-arrays";

/** The region's grid and the search arrays it shares between its searches. */
export interface ReachGrid {
  /** stepMask: per water cell, bit k set when the step STEPS[k] leads to water (fine-grid.ts). */
  grid: { rows: number; cols: number; readonly stepMask: Uint8Array };
  /** Passage id of each cell (0: none). */
  passage: Uint8Array;
  /** Bits (1 << id) of the passages the region holds: a closed set without them checks no cell. */
  passageBits: number;
  /** Metres of step k from a cell of row r: stepMetres[r * 8 + k]. */
  stepMetres: Float64Array;
  stepOffset: Int32Array;
  gates: Int32Array;
  /** Width of a bucket: the shortest step. */
  shortestStep: number;
  dist: Float64Array;
  stamp: Int32Array;
  /** The ring of buckets; its length, a power of two, spans more levels than the longest step. */
  buckets: Int32Array[];
}

/** A start cell's search: metres to the gates it has settled, and how to go on. */
export interface GateReach {
  start: number;
  closedMask: number;
  /** Grid metres to each gate (Infinity: not settled yet). */
  metres: Float64Array;
  /** Per cell reached, the step (index into STEPS) by which its shortest way arrives. */
  step: Uint8Array;
  /** Every cell reachable is settled. */
  complete: boolean;
  /** Every cell nearer than this is settled. */
  horizon: number;
  settled: number;
  /** The region's search stamp this search holds the shared arrays under (go on only while current). */
  tick: number;
  level: number;
  pending: number;
  /** Cells in each bucket of the ring. */
  sizes: Int32Array;
}

/** Ring length for the buckets: a power of two above the levels one step can span. */
export function bucketCount(longestStep: number, shortestStep: number): number {
  const needed = Math.ceil(longestStep / shortestStep) + 2;
  let n = 1;
  while (n < needed) n *= 2;
  return n;
}

/** A search from `start` under stamp `tick` (the region's current one), settled to `radius`. */
export function startReach(
  g: ReachGrid,
  start: number,
  closedMask: number,
  tick: number,
  radius: number,
  maxCells: number
): GateReach {
  const reach: GateReach = {
    start,
    closedMask,
    metres: new Float64Array(g.gates.length).fill(Infinity),
    step: new Uint8Array(g.grid.rows * g.grid.cols),
    complete: false,
    horizon: 0,
    settled: 0,
    tick,
    level: 0,
    pending: 1,
    sizes: new Int32Array(g.buckets.length),
  };
  g.stamp[start] = tick;
  g.dist[start] = 0;
  g.buckets[0][0] = start;
  reach.sizes[0] = 1;
  growReach(g, reach, radius, maxCells);
  return reach;
}

/** Can the search settle more (it is neither complete nor at `maxCells`)? */
export function canGrow(reach: GateReach, maxCells: number): boolean {
  return !reach.complete && reach.settled < maxCells;
}

/**
 * Settles on, bucket by bucket, until every cell nearer than `radius` is settled, or none is left,
 * or `maxCells` are (checked at each bucket's start). The shared arrays must still be the reach's
 * (the region ran no other search since).
 */
export function growReach(g: ReachGrid, reach: GateReach, radius: number, maxCells: number): void {
  const { passage, stepMetres, stepOffset, dist, stamp, gates } = g;
  const { cols, stepMask } = g.grid;
  const blocked = reach.closedMask & g.passageBits;
  const width = g.shortestStep;
  const ring = g.buckets;
  const wrap = ring.length - 1;
  const sizes = reach.sizes;
  const step = reach.step;
  const t = reach.tick;
  const done = -t; // stamp of a settled cell
  let { pending, settled, level } = reach;
  while (pending > 0 && settled < maxCells && level * width < radius) {
    const b = level & wrap;
    // The bucket is emptied before its level moves on: new cells land in later buckets.
    while (sizes[b] > 0) {
      const u = ring[b][--sizes[b]];
      pending--;
      if (stamp[u] === done) continue;
      stamp[u] = done;
      settled++;
      const du = dist[u];
      const row8 = ((u / cols) | 0) * 8;
      const m = stepMask[u];
      for (let k = 0; k < 8; k++) {
        if ((m & (1 << k)) === 0) continue;
        const v = u + stepOffset[k];
        const sv = stamp[v];
        if (sv === done) continue;
        if (blocked !== 0) {
          const pv = passage[v];
          if (pv !== 0 && (blocked & (1 << pv)) !== 0) continue;
        }
        const dv = du + stepMetres[row8 + k];
        if (sv === t && dist[v] <= dv) continue;
        stamp[v] = t;
        dist[v] = dv;
        step[v] = k;
        const nb = Math.floor(dv / width) & wrap;
        let bucket = ring[nb];
        if (sizes[nb] === bucket.length) ring[nb] = bucket = doubled(bucket);
        bucket[sizes[nb]++] = v;
        pending++;
      }
    }
    level++;
  }
  reach.pending = pending;
  reach.settled = settled;
  reach.level = level;
  reach.complete = pending === 0;
  reach.horizon = level * width;
  const metres = reach.metres;
  for (let i = 0; i < gates.length; i++)
    if (metres[i] === Infinity && stamp[gates[i]] === done) metres[i] = dist[gates[i]];
}
