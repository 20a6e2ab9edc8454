/**
 * Lower bounds on the remaining travel time from each stop to the destination, for pruning: the
 * shortest ride along any allowed pattern, ignoring waits and transfer times (so never more than
 * the real remaining time). A backward Dijkstra over the static pattern graph per query; stops that
 * cannot reach the destination at all get Infinity, and labels there are dropped.
 */
import { Network } from "../network";
import { MinHeap } from "../../heap";

interface StaticEdge {
  from: number;
  to: number;
  pattern: number;
  minutes: number;
}

const edgeCache = new WeakMap<Network, StaticEdge[][]>();

/** Incoming edges per stop: every (board, alight) pair of every pattern with its shortest ride. */
function incomingEdges(net: Network): StaticEdge[][] {
  let incoming = edgeCache.get(net);
  if (incoming) return incoming;
  const best = new Map<string, StaticEdge>();
  const minRide = new Map<number, number[][]>();
  for (const t of net.trips) {
    let m = minRide.get(t.pattern);
    const n = t.arrival.length;
    if (!m)
      minRide.set(
        t.pattern,
        (m = Array.from({ length: n }, () => new Array<number>(n).fill(Infinity)))
      );
    for (let i = 0; i < n - 1; i++)
      for (let j = i + 1; j < n; j++) m[i][j] = Math.min(m[i][j], t.arrival[j] - t.departure[i]);
  }
  for (const [pattern, m] of minRide) {
    const calls = net.patterns[pattern].calls;
    for (let i = 0; i < calls.length - 1; i++) {
      for (let j = i + 1; j < calls.length; j++) {
        const from = calls[i].stop;
        const to = calls[j].stop;
        if (from === to) continue;
        const key = `${from}>${to}>${pattern}`;
        const e = best.get(key);
        if (!e || m[i][j] < e.minutes) best.set(key, { from, to, pattern, minutes: m[i][j] });
      }
    }
  }
  incoming = Array.from({ length: net.stops.length }, () => [] as StaticEdge[]);
  for (const e of best.values()) incoming[e.to].push(e);
  edgeCache.set(net, incoming);
  return incoming;
}

/** Minutes from each stop to the nearest target stop over allowed patterns (Infinity: unreachable). */
export function remainingLowerBounds(
  net: Network,
  targets: number[],
  patternAllowed: Uint8Array
): Float64Array {
  const incoming = incomingEdges(net);
  const dist = new Float64Array(net.stops.length).fill(Infinity);
  const done = new Uint8Array(net.stops.length);
  // The project's one heap (heap.ts), pushed again on improvement, stale entries skipped.
  const heap = new MinHeap(Math.max(16, targets.length));
  for (const t of targets) {
    dist[t] = 0;
    heap.push(0, t);
  }
  while (heap.size > 0) {
    const best = heap.peekKey();
    const u = heap.pop();
    if (done[u] || best > dist[u]) continue;
    done[u] = 1;
    for (const e of incoming[u]) {
      if (!patternAllowed[e.pattern]) continue;
      const d = best + e.minutes;
      if (d < dist[e.from]) {
        dist[e.from] = d;
        heap.push(d, e.from);
      }
    }
  }
  return dist;
}
