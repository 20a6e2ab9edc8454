/**
 * A map keyed by a point's exact coordinates. Lane sheets look the same ports up thousands of
 * times: a key string per look-up (two numbers printed) cost more than the nested number-keyed
 * maps do.
 */
export class CoordMap<T> {
  private readonly byLat = new Map<number, Map<number, T>>();
  /** Number of points held. */
  size = 0;

  get(lat: number, lng: number): T | undefined {
    return this.byLat.get(lat)?.get(lng);
  }

  set(lat: number, lng: number, value: T): void {
    let byLng = this.byLat.get(lat);
    if (!byLng) this.byLat.set(lat, (byLng = new Map()));
    if (!byLng.has(lng)) this.size++;
    byLng.set(lng, value);
  }

  clear(): void {
    this.byLat.clear();
    this.size = 0;
  }
}
