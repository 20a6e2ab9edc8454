/**
 * Random worlds of star-shaped polygons for the landmass property tests: the shapes, the points
 * picked near them (or near a ring cut at ±180°), and the star ring itself.
 */
import fc from "fast-check";

/** A star-shaped ring round (lat, lng): one point per radius, in [r/2, r] degrees, closed. */
export function star(
  lat: number,
  lng: number,
  r: number,
  radii: number[]
): Array<[number, number]> {
  const ring: Array<[number, number]> = radii.map((f, i) => {
    const a = (2 * Math.PI * i) / radii.length;
    return [lng + r * f * Math.cos(a), lat + r * f * Math.sin(a)];
  });
  ring.push(ring[0]);
  return ring;
}

/** A star's centre, size and radii (up to `maxPoints` points), with or without a hole. */
export const starShapeArb = (maxPoints: number) =>
  fc.record({
    lat: fc.double({ min: -60, max: 60, noNaN: true }),
    lng: fc.double({ min: -170, max: 170, noNaN: true }),
    r: fc.double({ min: 0.3, max: 6, noNaN: true }),
    radii: fc.array(fc.double({ min: 0.5, max: 1, noNaN: true }), {
      minLength: 3,
      maxLength: maxPoints,
    }),
    hole: fc.boolean(),
  });
export type StarShape = { lat: number; lng: number; r: number; radii: number[]; hole: boolean };

/** 40 picks (k, u, v): k < 5 picks near shape k, k = 5 near the cut at ±180°. */
export const picksArb = fc.array(
  fc.tuple(
    fc.integer({ min: 0, max: 5 }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true })
  ),
  { minLength: 40, maxLength: 40 }
);

/**
 * The point of a pick: within twice a shape's radius of its centre, or in the box from 8° N
 * (`cutLatSpan` degrees high) and 175° E to 175° W across the cut.
 */
export function pickPoint(
  shapes: readonly StarShape[],
  [k, u, v]: [number, number, number],
  cutLatSpan: number
): { lat: number; lng: number } {
  if (k === 5) {
    const lng = 175 + 10 * v;
    return { lat: 8 + cutLatSpan * u, lng: lng > 180 ? lng - 360 : lng };
  }
  const s = shapes[k % shapes.length];
  return { lat: s.lat + (u - 0.5) * 4 * s.r, lng: s.lng + (v - 0.5) * 4 * s.r };
}
