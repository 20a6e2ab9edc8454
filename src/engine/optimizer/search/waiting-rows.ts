/**
 * The search's waiting labels (cargo at a stop, waiting for trips of one transfer class) as rows of
 * typed columns rather than one object each: a query makes thousands of them and keeps them all to
 * its end, so objects would be copied by every minor garbage collection; the stop bags and heaps
 * hold row numbers. The columns are reused by the next search of the same thread.
 */
export class WaitingRows {
  size = 0;
  /** Emissions so far, including the handling for the class waited for. */
  em = new Float64Array(0);
  dep0 = new Float64Array(0);
  tr = new Int32Array(0);
  bits = new Int32Array(0);
  sea = new Uint8Array(0);
  /** Where it waits, and from when it may board. */
  stop = new Int32Array(0);
  readyAt = new Float64Array(0);
  /** The stop label it continues (its number in TripBags, for the journey's legs). */
  label = new Int32Array(0);

  /** Empties the rows (keeps their room). */
  clear(): void {
    this.size = 0;
  }

  /** Appends a row and returns its number. */
  push(
    em: number,
    dep0: number,
    tr: number,
    bits: number,
    sea: number,
    stop: number,
    readyAt: number,
    label: number
  ): number {
    const i = this.size;
    if (i === this.em.length) this.grow(Math.max(256, 2 * i));
    this.em[i] = em;
    this.dep0[i] = dep0;
    this.tr[i] = tr;
    this.bits[i] = bits;
    this.sea[i] = sea;
    this.stop[i] = stop;
    this.readyAt[i] = readyAt;
    this.label[i] = label;
    this.size = i + 1;
    return i;
  }

  private grow(n: number): void {
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(a: T, b: T): T => {
      b.set(a);
      return b;
    };
    this.em = copy(this.em, new Float64Array(n));
    this.dep0 = copy(this.dep0, new Float64Array(n));
    this.tr = copy(this.tr, new Int32Array(n));
    this.bits = copy(this.bits, new Int32Array(n));
    this.sea = copy(this.sea, new Uint8Array(n));
    this.stop = copy(this.stop, new Int32Array(n));
    this.readyAt = copy(this.readyAt, new Float64Array(n));
    this.label = copy(this.label, new Int32Array(n));
  }
}
