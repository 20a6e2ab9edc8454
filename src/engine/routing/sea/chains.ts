/**
 * The sea graph contracted to its junctions: every maximal run of degree-2 vertices between two
 * junctions becomes one chain. Searches and the distance table work on junctions and chains only
 * (a few thousand instead of the network's vertices); the chains keep their vertices and edges, so
 * paths and passage labels come out exactly as on the full graph.
 *
 * Only the main connected piece is contracted (the only one queries snap to). Dead-end vertices
 * (degree 1) end chains but are not junctions: nothing ever passes through them.
 */
import { SeaGraph } from "./graph";

export interface ChainGraph {
  /** Number of junctions (vertices of degree ≥ 3 in the main piece). */
  junctionCount: number;
  /** Graph vertex of each junction. */
  junctionVertex: Int32Array;
  /** Junction index of a graph vertex, or -1. */
  junctionOf: Int32Array;
  chainCount: number;
  /** Junction index at each end of a chain, or -1 for a dead end (degree-1 vertex). */
  chainA: Int32Array;
  chainB: Int32Array;
  /** Metres along the chain. */
  chainLength: Float64Array;
  /** Bit (1 << passage id) of every passage on the chain. */
  chainMask: Int32Array;
  /** CSR: vertices of chain c are chainVertex[chainVertexOffset[c] .. chainVertexOffset[c+1]), A end first. */
  chainVertexOffset: Int32Array;
  chainVertex: Int32Array;
  /** Metres from the chain's A end to each of its vertices (parallel to chainVertex). */
  chainVertexAt: Float64Array;
  /** Edges of chain c, in order: edge k joins vertices k and k+1 (offsets: chainVertexOffset[c] - c). */
  chainEdge: Int32Array;
  /** Passage bits of the chain's edges before edge k / after edge k (parallel to chainEdge). */
  maskBefore: Int32Array;
  maskAfter: Int32Array;
  /** Chain of each graph edge (-1 outside the main piece) and its index in the chain. */
  edgeChain: Int32Array;
  edgeIndex: Int32Array;
  /** Junction adjacency (CSR): neighbour junction and chain. */
  adjOffset: Int32Array;
  adjJunction: Int32Array;
  adjChain: Int32Array;
}

/** Passage bit of an edge label (0 = open sea = no bit). */
export function passageBit(id: number): number {
  return id === 0 ? 0 : 1 << id;
}

export function buildChainGraph(g: SeaGraph): ChainGraph {
  const n = g.vertexCount;
  const degree = new Int32Array(n);
  const inMain = new Uint8Array(n);
  for (let e = 0; e < g.edgeCount; e++) {
    if (!g.edgeInMain[e]) continue;
    degree[g.edgeA[e]]++;
    degree[g.edgeB[e]]++;
    inMain[g.edgeA[e]] = 1;
    inMain[g.edgeB[e]] = 1;
  }
  const junctionOf = new Int32Array(n).fill(-1);
  const junctions: number[] = [];
  for (let v = 0; v < n; v++) {
    if (inMain[v] && degree[v] >= 3) {
      junctionOf[v] = junctions.length;
      junctions.push(v);
    }
  }

  const edgeChain = new Int32Array(g.edgeCount).fill(-1);
  const edgeIndex = new Int32Array(g.edgeCount).fill(-1);
  const chainA: number[] = [];
  const chainB: number[] = [];
  const chainLength: number[] = [];
  const chainMask: number[] = [];
  const vertexOffset: number[] = [0];
  const vertices: number[] = [];
  const vertexAt: number[] = [];
  const edges: number[] = [];
  const isEnd = (v: number): boolean => degree[v] !== 2 || junctionOf[v] >= 0;

  /** Walks from `start` along edge `first` until an end vertex; records the chain. */
  const walk = (start: number, first: number): void => {
    const c = chainA.length;
    let v = start;
    let e = first;
    let along = 0;
    let mask = 0;
    let k = 0;
    vertices.push(v);
    vertexAt.push(0);
    for (;;) {
      edgeChain[e] = c;
      edgeIndex[e] = k++;
      edges.push(e);
      along += g.edgeLength[e];
      mask |= passageBit(g.edgePassage[e]);
      const w = g.edgeA[e] === v ? g.edgeB[e] : g.edgeA[e];
      vertices.push(w);
      vertexAt.push(along);
      v = w;
      if (isEnd(v) || v === start) break;
      // Degree 2: continue by the other main edge.
      let next = -1;
      for (let i = g.adjOffset[v]; i < g.adjOffset[v + 1]; i++) {
        const f = g.adjEdge[i];
        if (f !== e && g.edgeInMain[f]) next = f;
      }
      if (next < 0 || edgeChain[next] >= 0) break;
      e = next;
    }
    chainA.push(junctionOf[start]);
    chainB.push(junctionOf[v]);
    chainLength.push(along);
    chainMask.push(mask);
    vertexOffset.push(vertices.length);
  };

  for (let v = 0; v < n; v++) {
    if (!inMain[v] || !isEnd(v)) continue;
    for (let i = g.adjOffset[v]; i < g.adjOffset[v + 1]; i++) {
      const e = g.adjEdge[i];
      if (g.edgeInMain[e] && edgeChain[e] < 0) walk(v, e);
    }
  }
  // Loops of degree-2 vertices only (no junction on them): make their first vertex a junction.
  for (let e = 0; e < g.edgeCount; e++) {
    if (!g.edgeInMain[e] || edgeChain[e] >= 0) continue;
    const v = g.edgeA[e];
    junctionOf[v] = junctions.length;
    junctions.push(v);
    walk(v, e);
  }

  const chainCount = chainA.length;
  const chainVertexOffset = Int32Array.from(vertexOffset);
  const chainEdge = Int32Array.from(edges);
  const maskBefore = new Int32Array(edges.length);
  const maskAfter = new Int32Array(edges.length);
  for (let c = 0; c < chainCount; c++) {
    const lo = chainVertexOffset[c] - c;
    const hi = chainVertexOffset[c + 1] - c - 1;
    let m = 0;
    for (let i = lo; i < hi; i++) {
      maskBefore[i] = m;
      m |= passageBit(g.edgePassage[chainEdge[i]]);
    }
    m = 0;
    for (let i = hi - 1; i >= lo; i--) {
      maskAfter[i] = m;
      m |= passageBit(g.edgePassage[chainEdge[i]]);
    }
  }

  // Junction adjacency over chains with a junction at both ends.
  const J = junctions.length;
  const adjOffset = new Int32Array(J + 1);
  for (let c = 0; c < chainCount; c++) {
    if (chainA[c] < 0 || chainB[c] < 0 || chainA[c] === chainB[c]) continue;
    adjOffset[chainA[c] + 1]++;
    adjOffset[chainB[c] + 1]++;
  }
  for (let j = 0; j < J; j++) adjOffset[j + 1] += adjOffset[j];
  const fill = adjOffset.slice(0, J);
  const adjJunction = new Int32Array(adjOffset[J]);
  const adjChain = new Int32Array(adjOffset[J]);
  for (let c = 0; c < chainCount; c++) {
    const a = chainA[c];
    const b = chainB[c];
    if (a < 0 || b < 0 || a === b) continue;
    adjJunction[fill[a]] = b;
    adjChain[fill[a]++] = c;
    adjJunction[fill[b]] = a;
    adjChain[fill[b]++] = c;
  }

  return {
    junctionCount: J,
    junctionVertex: Int32Array.from(junctions),
    junctionOf,
    chainCount,
    chainA: Int32Array.from(chainA),
    chainB: Int32Array.from(chainB),
    chainLength: Float64Array.from(chainLength),
    chainMask: Int32Array.from(chainMask),
    chainVertexOffset,
    chainVertex: Int32Array.from(vertices),
    chainVertexAt: Float64Array.from(vertexAt),
    chainEdge,
    maskBefore,
    maskAfter,
    edgeChain,
    edgeIndex,
    adjOffset,
    adjJunction,
    adjChain,
  };
}
