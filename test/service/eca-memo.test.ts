/**
 * include=eca's remembered measure (src/service/routes/eca-memo.ts) against the measure itself:
 * over seeded random areas, paths, distances and dates, asked in a random order with repeats, every
 * answer equals a fresh measure of the same path, and answers never share objects (an answer
 * changed after the fact leaves the next one as measured).
 */
import fc from "fast-check";
import { EcaAreas } from "../../src/engine/voyage/eca";
import { LatLng } from "../../src/engine/types";
import { measureEca } from "../../src/service/routes/eca-memo";

const pointArb = fc.record({
  lat: fc.double({ min: -60, max: 60, noNaN: true }),
  lng: fc.double({ min: -179, max: 179, noNaN: true }),
});

/** A box-shaped area somewhere, in force from a date of 2010–2029. */
const areaArb = fc
  .tuple(
    pointArb,
    fc.double({ min: 1, max: 40, noNaN: true }),
    fc.integer({ min: 2010, max: 2029 })
  )
  .map(([c, size, year]) => ({
    name: `area ${c.lat.toFixed(3)} ${c.lng.toFixed(3)} ${year}`,
    type: "ECA",
    effectiveFrom: `${year}-01-01`,
    source: "test",
    polygon: [
      [c.lng - size, c.lat - size / 2],
      [c.lng + size, c.lat - size / 2],
      [c.lng + size, c.lat + size / 2],
      [c.lng - size, c.lat + size / 2],
      [c.lng - size, c.lat - size / 2],
    ] as Array<[number, number]>,
  }));

test("property: a remembered measure is the measure, in a copy of its own", () => {
  fc.assert(
    fc.property(
      fc.array(areaArb, { minLength: 1, maxLength: 4 }),
      fc.array(fc.array(pointArb, { minLength: 2, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
      fc.array(
        fc.record({
          path: fc.nat(),
          distance: fc.integer({ min: 1, max: 3 }).map((k) => k * 1_000_000),
          asOf: fc.constantFrom("2012-06-30", "2020-12-31", "2026-12-02", "2030-01-01"),
        }),
        { minLength: 1, maxLength: 30 }
      ),
      (areaList, paths, asks) => {
        const areas = new EcaAreas(areaList);
        const frozen: LatLng[][] = paths.map((p) => p.map((q) => ({ ...q })));
        for (const ask of asks) {
          const path = frozen[ask.path % frozen.length];
          const got = measureEca(areas, path, ask.distance, ask.asOf);
          expect(got).toEqual(areas.measure(path, ask.distance, ask.asOf));
          // Spoil this answer: the next one of the same path must not see it.
          got.distanceInside = -1;
          for (const a of got.areas) a.distance = -1;
          got.areas.push({ name: "spoiled", type: "x", distance: 0 });
        }
      }
    ),
    { seed: 3107, numRuns: 300 }
  );
});

test("the same path measured at another date or distance is measured again, not answered from memory", () => {
  const areas = new EcaAreas([
    {
      name: "North Sea",
      type: "ECA",
      effectiveFrom: "2025-01-01",
      source: "test",
      polygon: [
        [0, 50],
        [10, 50],
        [10, 60],
        [0, 60],
        [0, 50],
      ],
    },
  ]);
  const path = [
    { lat: 55, lng: -5 },
    { lat: 55, lng: 5 },
  ];
  expect(measureEca(areas, path, 1_000_000, "2024-12-31").distanceInside).toBe(0);
  const inForce = measureEca(areas, path, 1_000_000, "2025-06-30");
  expect(inForce.share).toBeCloseTo(0.5, 2);
  expect(measureEca(areas, path, 2_000_000, "2025-06-30").distanceInside).toBeCloseTo(
    2 * inForce.distanceInside,
    0
  );
});
