/** CoordMap: exact coordinates as keys, no strings. */
import { CoordMap } from "../../../src/engine/geo/coord-map";

describe("CoordMap", () => {
  it("finds a point by its exact coordinates only, counts points, clears", () => {
    const m = new CoordMap<string>();
    m.set(51.95, 4.05, "Rotterdam");
    m.set(51.95, 4.06, "next door");
    m.set(1.26, 103.84, "Singapore");
    m.set(51.95, 4.05, "Rotterdam again");
    expect(m.size).toBe(3);
    expect(m.get(51.95, 4.05)).toBe("Rotterdam again");
    expect(m.get(51.95, 4.06)).toBe("next door");
    expect(m.get(51.95, 4.050000000000001)).toBeUndefined();
    expect(m.get(4.05, 51.95)).toBeUndefined();
    m.clear();
    expect(m.size).toBe(0);
    expect(m.get(1.26, 103.84)).toBeUndefined();
  });
});

describe("CoordMap against a Map keyed by the printed coordinates", () => {
  it("agrees on random points, near-duplicates, repeats, -0 and growth", () => {
    let seed = 7;
    const r = (): number => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const m = new CoordMap<number>();
    const ref = new Map<string, number>();
    const key = (lat: number, lng: number): string => `${lat + 0},${lng + 0}`;
    const points: Array<[number, number]> = [];
    for (let i = 0; i < 5000; i++) {
      const old = points.length && r() < 0.3 ? points[Math.floor(r() * points.length)] : null;
      const p: [number, number] = old
        ? r() < 0.5
          ? old
          : [old[0], old[1] + Number.EPSILON * 64]
        : [Math.round((r() * 180 - 90) * 1e3) / 1e3, r() < 0.05 ? -0 : r() * 360 - 180];
      points.push(p);
      m.set(p[0], p[1], i);
      ref.set(key(p[0], p[1]), i);
    }
    expect(m.size).toBe(ref.size);
    for (const p of points) expect(m.get(p[0], p[1])).toBe(ref.get(key(p[0], p[1])));
    expect(m.get(0, -0)).toBe(ref.get(key(0, 0)));
    m.set(NaN, 1, 1);
    expect(m.get(NaN, 1)).toBeUndefined();
  });
});
