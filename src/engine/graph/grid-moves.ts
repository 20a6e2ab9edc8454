/**
 * Grid searches' moves: the 8 neighbours and the 8 knight's moves, so that a grid path runs within
 * about 3 % of any straight line before it is pulled tight.
 */
export const GRID_MOVES: ReadonlyArray<readonly [number, number]> = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, 1],
  [1, -1],
  [-1, 1],
  [-1, -1],
  [2, 1],
  [2, -1],
  [-2, 1],
  [-2, -1],
  [1, 2],
  [1, -2],
  [-1, 2],
  [-1, -2],
];
