/**
 * Cargo on board, for the search: trip labels as rows of typed columns, and per trip its Pareto bag
 * as a run of label numbers in one shared array. A query makes tens of thousands of labels; as
 * objects they kept the garbage collector busy and scattered the bags over the heap. Also the stop
 * labels (cargo got off a trip: the way back for the journey's legs). Reused by the next search of
 * the same network: searches run one at a time per thread.
 */
import { covers } from "./pareto";
import { Runs } from "./runs";

export class TripBags {
  /** Trip label rows. */
  size = 0;
  dep0 = new Float64Array(256);
  tr = new Int32Array(256);
  /** Emissions at boarding (the ride adds the leg's grams from `board`). */
  emBoard = new Float64Array(256);
  /** emBoard minus the pattern's cumulative hop lower bounds at boarding (see mc-csa.ts). */
  emLow = new Float64Array(256);
  bits = new Int32Array(256);
  sea = new Uint8Array(256);
  trip = new Int32Array(256);
  board = new Int32Array(256);
  /** The stop label it continues, or -1 fresh from the origin. */
  parent = new Int32Array(256);
  /** Index of its first-mile access (fresh from the origin), or -1. */
  access = new Int32Array(256);

  /** Stop label rows: the trip label that got off, and at which call. */
  stops = 0;
  stopParent = new Int32Array(256);
  stopAlight = new Int32Array(256);

  /** Per trip: its bag of label numbers. */
  readonly bags: Runs;
  /** Trips whose bag holds labels: how many, and one bit each (small enough to stay in cache). */
  liveTrips = 0;
  private readonly liveBits: Int32Array;

  /** Whether directSeaOnly makes the sea flag a criterion (set per search). */
  seaDominance = false;

  constructor(trips: number) {
    this.bags = new Runs(trips);
    this.liveBits = new Int32Array((trips + 31) >>> 5);
  }

  /** Whether trip t's bag holds labels. */
  isLive(t: number): boolean {
    return (this.liveBits[t >>> 5] & (1 << (t & 31))) !== 0;
  }

  /** Empties trip t's bag (it holds labels). */
  drop(t: number): void {
    this.bags.len[t] = 0;
    this.liveBits[t >>> 5] &= ~(1 << (t & 31));
    this.liveTrips--;
  }

  /** Empties every bag and row, keeping the room. */
  clear(): void {
    this.bags.clear();
    this.liveBits.fill(0);
    this.liveTrips = 0;
    this.size = 0;
    this.stops = 0;
  }

  /**
   * Whether a label of trip `t` in the bag dominates one with these values: departs no earlier,
   * no more transfers, covers its requirement bits, no sea leg where it has none (directSeaOnly),
   * and never more emissions at any call both can still get off at. `gaps` holds the pattern's
   * rideGaps from `gapAt` (n calls): the largest head start in grams with which boarding at a is
   * still no worse than at b.
   */
  dominated(
    t: number,
    gaps: Float64Array,
    gapAt: number,
    n: number,
    dep0: number,
    tr: number,
    emBoard: number,
    board: number,
    bits: number,
    sea: number
  ): boolean {
    const s = this.bags.start[t];
    const e = s + this.bags.len[t];
    const items = this.bags.items;
    for (let i = s; i < e; i++) {
      const a = items[i];
      if (
        this.dep0[a] >= dep0 &&
        this.tr[a] <= tr &&
        covers(this.bits[a], bits) &&
        (!this.seaDominance || this.sea[a] <= sea) &&
        (this.board[a] === board
          ? this.emBoard[a] <= emBoard
          : this.emBoard[a] - emBoard <= gaps[gapAt + this.board[a] * n + board])
      )
        return true;
    }
    return false;
  }

  /**
   * Appends a trip label row and puts it in its trip's bag, which the caller knows holds nothing
   * that dominates it (see dominated): the labels it dominates leave the bag, the others keep their
   * order, and it goes last (as insertUndominated does); the trip is live. Returns the label's number.
   */
  add(
    t: number,
    gaps: Float64Array,
    gapAt: number,
    n: number,
    dep0: number,
    tr: number,
    emBoard: number,
    emLow: number,
    board: number,
    bits: number,
    sea: number,
    parent: number,
    access: number
  ): number {
    const x = this.size;
    if (x === this.dep0.length) this.growRows(2 * x);
    this.dep0[x] = dep0;
    this.tr[x] = tr;
    this.emBoard[x] = emBoard;
    this.emLow[x] = emLow;
    this.bits[x] = bits;
    this.sea[x] = sea;
    this.trip[x] = t;
    this.board[x] = board;
    this.parent[x] = parent;
    this.access[x] = access;
    this.size = x + 1;

    const bags = this.bags;
    if (bags.len[t] === 0) {
      this.liveBits[t >>> 5] |= 1 << (t & 31);
      this.liveTrips++;
    }
    const s = bags.start[t];
    const e = s + bags.len[t];
    const items = bags.items;
    let w = s;
    for (let i = s; i < e; i++) {
      const b = items[i];
      const dominates =
        dep0 >= this.dep0[b] &&
        tr <= this.tr[b] &&
        covers(bits, this.bits[b]) &&
        (!this.seaDominance || sea <= this.sea[b]) &&
        (board === this.board[b]
          ? emBoard <= this.emBoard[b]
          : emBoard - this.emBoard[b] <= gaps[gapAt + board * n + this.board[b]]);
      if (!dominates) items[w++] = b;
    }
    bags.len[t] = w - s;
    bags.push(t, x);
    return x;
  }

  /** Appends a stop label (cargo got off trip label `parent` at call `alight`); returns its number. */
  addStop(parent: number, alight: number): number {
    const i = this.stops;
    if (i === this.stopParent.length) {
      this.stopParent = grown(this.stopParent, 2 * i);
      this.stopAlight = grown(this.stopAlight, 2 * i);
    }
    this.stopParent[i] = parent;
    this.stopAlight[i] = alight;
    this.stops = i + 1;
    return i;
  }

  private growRows(n: number): void {
    this.dep0 = grown(this.dep0, n);
    this.tr = grown(this.tr, n);
    this.emBoard = grown(this.emBoard, n);
    this.emLow = grown(this.emLow, n);
    this.bits = grown(this.bits, n);
    this.sea = grown(this.sea, n);
    this.trip = grown(this.trip, n);
    this.board = grown(this.board, n);
    this.parent = grown(this.parent, n);
    this.access = grown(this.access, n);
  }
}

function grown<T extends Float64Array | Int32Array | Uint8Array>(a: T, n: number): T {
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
