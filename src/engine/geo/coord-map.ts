/**
 * A map keyed by a point's exact coordinates. Lane sheets look the same ports up thousands of
 * times, and the sea router remembers every straight leg it tried by its two ends: an open-addressing
 * table on typed arrays (the two doubles' bits hashed, compared exactly) costs no key string and
 * no map per latitude, and leaves the garbage collector nothing to trace but the values.
 * Keys compare as numbers: 0 and -0 are one key; a NaN coordinate is never stored.
 */
const BITS = new Float64Array(1);
const WORDS = new Int32Array(BITS.buffer);

function hashOf(lat: number, lng: number): number {
  // The four 32-bit words mixed with murmur3's multipliers, then its finaliser: high bits reach
  // the low bits the table uses (coordinates like 4.5 have all-zero low words).
  BITS[0] = lat;
  let h = Math.imul(WORDS[0], 0xcc9e2d51) ^ WORDS[1];
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  BITS[0] = lng;
  h = Math.imul(h ^ WORDS[0], 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 13) ^ WORDS[1], 0x85ebca6b);
  h ^= h >>> 16;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class CoordMap<T> {
  /** Slot i holds key (keys[2i], keys[2i+1]) when used[i] is 1. */
  // Small to start: the router keeps thousands of these with a few points each.
  private keys = new Float64Array(8);
  private used = new Uint8Array(4);
  private values: Array<T | undefined> = new Array<T | undefined>(4);
  private mask = 3;
  /** Number of points held. */
  size = 0;

  get(lat: number, lng: number): T | undefined {
    lat += 0; // -0 → 0
    lng += 0;
    const keys = this.keys;
    for (let i = hashOf(lat, lng) & this.mask; this.used[i]; i = (i + 1) & this.mask)
      if (keys[2 * i] === lat && keys[2 * i + 1] === lng) return this.values[i];
    return undefined;
  }

  set(lat: number, lng: number, value: T): void {
    if (lat !== lat || lng !== lng) return;
    lat += 0;
    lng += 0;
    if (2 * (this.size + 1) > this.mask + 1) this.grow();
    const keys = this.keys;
    let i = hashOf(lat, lng) & this.mask;
    for (; this.used[i]; i = (i + 1) & this.mask)
      if (keys[2 * i] === lat && keys[2 * i + 1] === lng) {
        this.values[i] = value;
        return;
      }
    this.used[i] = 1;
    keys[2 * i] = lat;
    keys[2 * i + 1] = lng;
    this.values[i] = value;
    this.size++;
  }

  clear(): void {
    this.keys = new Float64Array(8);
    this.used = new Uint8Array(4);
    this.values = new Array<T | undefined>(4);
    this.mask = 3;
    this.size = 0;
  }

  private grow(): void {
    const { keys, used, values } = this;
    const n = 2 * used.length;
    this.keys = new Float64Array(2 * n);
    this.used = new Uint8Array(n);
    this.values = new Array<T | undefined>(n);
    this.mask = n - 1;
    this.size = 0;
    for (let i = 0; i < used.length; i++)
      if (used[i]) this.set(keys[2 * i], keys[2 * i + 1], values[i] as T);
  }
}
