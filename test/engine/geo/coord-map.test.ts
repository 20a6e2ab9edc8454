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
