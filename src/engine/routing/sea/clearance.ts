/**
 * Distance to the coast on a land index's grid: per cell, the Chebyshev distance in cells to the
 * nearest cell that holds a ring edge (0 for such a cell, capped at 255), columns wrapping round
 * the antimeridian. A cell at distance k has only edge-free cells within k − 1 cells of it, so a
 * straight piece that stays within that block crosses no coast: the exact land test skips it.
 * Computed with the index's parts (a breadth-first pass over the cells) and kept in the sea
 * snapshot: at every warm start the pass cost ~10-30 ms on a busy machine.
 */
export function edgeClearance(cellStart: Int32Array, cols: number, rows: number): Uint8Array {
  const cells = cols * rows;
  const dist = new Uint8Array(cells).fill(255);
  const queue = new Int32Array(cells);
  let head = 0;
  let tail = 0;
  for (let i = 0; i < cells; i++)
    if (cellStart[i + 1] > cellStart[i]) {
      dist[i] = 0;
      queue[tail++] = i;
    }
  // Breadth-first over the 8 neighbours: the Chebyshev distance to the nearest edge cell.
  while (head < tail) {
    const i = queue[head++];
    const d = dist[i] + 1;
    if (d >= 255) continue;
    const r = Math.floor(i / cols);
    const c = i - r * cols;
    for (let dr = -1; dr <= 1; dr++) {
      const rr = r + dr;
      if (rr < 0 || rr >= rows) continue;
      for (let dc = -1; dc <= 1; dc++) {
        if (dr === 0 && dc === 0) continue;
        const cc = (c + dc + cols) % cols;
        const j = rr * cols + cc;
        if (dist[j] > d) {
          dist[j] = d;
          queue[tail++] = j;
        }
      }
    }
  }
  return dist;
}
