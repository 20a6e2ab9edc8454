/**
 * Least-recently-used cache bounded by an estimate of the bytes its entries hold, not by their
 * number: a cached distance is a few hundred bytes, the same distance with its path read tens of
 * kilobytes, so a count alone bounds nothing. The caller states each entry's bytes when it stores
 * it and again when the entry grows (a path made on first read); the oldest entries leave until
 * the total is within the budget again. A Map keeps the order (insertion order = recency).
 */
export class ByteLru<K, V> {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  /** Sum of the stated bytes of the entries held. */
  bytes = 0;

  constructor(readonly budgetBytes: number) {}

  get(key: K): V | undefined {
    const e = this.map.get(key);
    if (e === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, e);
    return e.value;
  }

  set(key: K, value: V, bytes: number): void {
    const old = this.map.get(key);
    if (old) {
      this.bytes -= old.bytes;
      this.map.delete(key);
    }
    this.map.set(key, { value, bytes });
    this.bytes += bytes;
    this.evict();
  }

  /** The entry under `key` (if still held) now holds `bytes` more. */
  grew(key: K, bytes: number): void {
    const e = this.map.get(key);
    if (!e) return;
    e.bytes += bytes;
    this.bytes += bytes;
    this.evict();
  }

  get size(): number {
    return this.map.size;
  }

  clear(): void {
    this.map.clear();
    this.bytes = 0;
  }

  private evict(): void {
    // The newest entry stays even when it alone is over the budget (it was just asked for).
    while (this.bytes > this.budgetBytes && this.map.size > 1) {
      const [key, e] = this.map.entries().next().value as [K, { value: V; bytes: number }];
      this.map.delete(key);
      this.bytes -= e.bytes;
    }
  }
}

/** Bytes of a path of `points` LatLng objects as V8 holds them (object, two doubles, array slot). */
export const PATH_POINT_BYTES = 56;
/**
 * Bytes of a cached result without its path (key string, result object and its path getter,
 * passages, snap distances): measured as the heap freed by dropping 10,000 cached sea lanes, about
 * 1,000 bytes each in the engine's distance cache and 1,050 in the sea router's.
 */
export const RESULT_BYTES = 1_100;
