/**
 * A route's polyline while the router builds it: lat/lng pairs in one growable Float64Array,
 * reused from query to query, so measuring a route (end straightening included) makes no object
 * per point; the LatLng objects are made only when a caller reads the path.
 */
import { LatLng } from "../../types";
import { doubled } from "../../typed-arrays";

export class PathBuffer {
  private coords = new Float64Array(512);
  /** Number of points. */
  length = 0;

  clear(): void {
    this.length = 0;
  }

  lat(i: number): number {
    return this.coords[2 * i];
  }

  lng(i: number): number {
    return this.coords[2 * i + 1];
  }

  point(i: number): LatLng {
    return { lat: this.coords[2 * i], lng: this.coords[2 * i + 1] };
  }

  /** Appends a point unless it repeats the last one. */
  add(lat: number, lng: number): void {
    const n = this.length;
    if (n > 0 && this.coords[2 * n - 2] === lat && this.coords[2 * n - 1] === lng) return;
    if (2 * n + 2 > this.coords.length) this.coords = doubled(this.coords);
    this.coords[2 * n] = lat;
    this.coords[2 * n + 1] = lng;
    this.length = n + 1;
  }

  /** Overwrites point i. */
  set(i: number, lat: number, lng: number): void {
    this.coords[2 * i] = lat;
    this.coords[2 * i + 1] = lng;
  }

  /** Removes `count` points from position `from` on. */
  remove(from: number, count: number): void {
    if (count <= 0) return;
    this.coords.copyWithin(2 * from, 2 * (from + count), 2 * this.length);
    this.length -= count;
  }

  reverse(): void {
    const c = this.coords;
    for (let i = 0, j = this.length - 1; i < j; i++, j--) {
      const lat = c[2 * i];
      const lng = c[2 * i + 1];
      c[2 * i] = c[2 * j];
      c[2 * i + 1] = c[2 * j + 1];
      c[2 * j] = lat;
      c[2 * j + 1] = lng;
    }
  }
}
