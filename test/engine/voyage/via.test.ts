/** via= (issue 20 item 5): routes forced through a waypoint or a place, composed from plain routes. */
import fc from "fast-check";
import { loadEngine } from "../../../src/data/load-engine";

const engine = loadEngine();

describe("via", () => {
  test("CNSHA -> NLRTM via CAPE_OF_GOOD_HOPE: longer than via Suez, no Suez passage; Suez side by side", () => {
    const q = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" };
    const plain = engine.distance({ ...q, include: undefined } as never);
    const cape = engine.distance({ ...q, via: "CAPE_OF_GOOD_HOPE" });
    const suez = engine.distance({ ...q, via: "suez" });
    expect(plain.passages).toContain("SUEZ");
    expect(cape.passages).not.toContain("SUEZ");
    expect(suez.passages).toContain("SUEZ");
    expect(cape.distance).toBeGreaterThan(suez.distance + 3_000_000);
    // Suez is on the way anyway: forcing it changes the distance little.
    expect(Math.abs(suez.distance - plain.distance) / plain.distance).toBeLessThan(0.03);
    const e = engine.emissions({ ...q, via: "CAPE_OF_GOOD_HOPE" });
    expect(e.distance).toBe(cape.distance);
    // Same trade lane (the leg's own ends), longer distance.
    expect(e.co2eTeu).toBeCloseTo((49.9 * cape.distance) / 1e6, 2);
  });

  test("a LOCODE waypoint: the distance is the sum of the two pieces", () => {
    const r = engine.distance({
      origin: "CNSHA",
      destination: "NLRTM",
      modality: "DEEPSEA",
      via: "LKCMB",
    });
    const a = engine.distance({ origin: "CNSHA", destination: "LKCMB", modality: "DEEPSEA" });
    const b = engine.distance({ origin: "LKCMB", destination: "NLRTM", modality: "DEEPSEA" });
    expect(r.distance).toBe(a.distance + b.distance);
    expect(r.path.length).toBe(a.path.length + b.path.length - 1);
  });

  test("property: via a port never shortens the route (triangle inequality of the router)", () => {
    const ports = ["CNSHA", "SGSIN", "NLRTM", "USNYC", "BRSSZ", "AEJEA", "ZADUR", "ESALG"];
    fc.assert(
      fc.property(
        fc.constantFrom(...ports),
        fc.constantFrom(...ports),
        fc.constantFrom(...ports),
        (a, b, c) => {
          fc.pre(a !== b && b !== c && a !== c);
          const q = { origin: a, destination: c, modality: "DEEPSEA" };
          const direct = engine.distance(q).distance;
          const via = engine.distance({ ...q, via: b }).distance;
          expect(via).toBeGreaterThanOrEqual(direct * 0.99);
        }
      ),
      { numRuns: 25 }
    );
  });

  test("unknown via is Incorrect Values naming via and the waypoints", () => {
    expect(() =>
      engine.distance({
        origin: "CNSHA",
        destination: "NLRTM",
        modality: "DEEPSEA",
        via: "NARNIA",
      })
    ).toThrow(/via "NARNIA" is neither a waypoint nor a place; allowed values: CAPE_OF_GOOD_HOPE/);
  });
});
