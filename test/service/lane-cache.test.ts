/**
 * The /distance lane cache answers what the engine would for the same query strings: checked
 * against a model (an injective function of every field the engine reads) over random queries
 * whose fields share characters, may be absent, empty or hold NUL, so that two different queries
 * sharing a key would show. Errors are thrown again each time, never remembered; the cache stays
 * within its bound.
 */
import fc from "fast-check";
import { DistanceQuery } from "../../src/engine/route-engine";
import { LANE_KEY_MAX, LaneCache, LaneDistance } from "../../src/service/routes/lane-cache";

const FIELDS = ["origin", "destination", "modality", "vesselInfo", "avoid", "via"] as const;

/** A distance that differs whenever any field differs (absent ≠ empty), or an error for "bad". */
function model(query: DistanceQuery): LaneDistance {
  if (FIELDS.some((f) => query[f] === "bad")) throw new Error("Unknown Data");
  const text = JSON.stringify(FIELDS.map((f) => (query[f] === undefined ? null : query[f])));
  let h = 0;
  for (const c of text) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return { distance: h, passages: [text as never] };
}

/**
 * Few values, so that queries meet again: absent and empty, NUL and the key's own markers next
 * to each other (origin "\0=" with destination "" must not share a key with origin "" and
 * destination "\0="), an error, and now and then a key too long to remember.
 */
const place = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.constantFrom(undefined, "", "\u0000=", "=\u0000", "\u0000-", "bad"),
  },
  { weight: 1, arbitrary: fc.string({ minLength: LANE_KEY_MAX / 2, maxLength: LANE_KEY_MAX }) }
);
const rest = fc.constantFrom(undefined, "");
const query: fc.Arbitrary<DistanceQuery> = fc
  .tuple(place, place, rest, rest, rest, rest)
  .map((values) => {
    const q: Record<string, string> = {};
    FIELDS.forEach((f, i) => {
      if (values[i] !== undefined) q[f] = values[i];
    });
    return q;
  });

describe("LaneCache", () => {
  test("answers as the engine does, errors included, over random query sequences", () => {
    fc.assert(
      fc.property(fc.array(query, { maxLength: 60 }), fc.integer({ min: 1, max: 8 }), (qs, n) => {
        const cache = new LaneCache(n);
        let computed = 0;
        const compute = (q: DistanceQuery) => {
          computed++;
          return model(q);
        };
        for (const q of [...qs, ...qs]) {
          let expected: LaneDistance | Error;
          try {
            expected = model(q);
          } catch (e) {
            expected = e as Error;
          }
          if (expected instanceof Error) expect(() => cache.distance(q, compute)).toThrow(expected);
          else expect(cache.distance(q, compute)).toEqual(expected);
          expect(cache.size).toBeLessThanOrEqual(n);
        }
        expect(computed).toBeLessThanOrEqual(2 * qs.length);
      }),
      { numRuns: 300 }
    );
  });

  test("a repeated lane is computed once; an error is computed every time", () => {
    const cache = new LaneCache();
    let calls = 0;
    const compute = (q: DistanceQuery) => {
      calls++;
      return model(q);
    };
    const lane = { origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" };
    for (let i = 0; i < 5; i++) expect(cache.distance({ ...lane }, compute)).toEqual(model(lane));
    expect(calls).toBe(1);
    for (let i = 0; i < 3; i++)
      expect(() => cache.distance({ ...lane, via: "bad" }, compute)).toThrow();
    expect(calls).toBe(4);
  });
});
