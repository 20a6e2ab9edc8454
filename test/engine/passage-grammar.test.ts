/**
 * One grammar for `avoid` and `via` (issue 29 item 5): the service (the engine's parseAvoid), the
 * functions (units.ts) and `lanes` read the same text as the same passages, and `via` pieces honour
 * `avoid` (a mutant routing via pieces without it passed every test before).
 */
import fc from "fast-check";
import { loadEngine } from "../../src/data/load-engine";
import { isRouteSheetsError } from "../../src/engine/errors";
import { passageOf, readAvoid, splitVia } from "../../src/engine/passage-grammar";
import { parseAvoid as engineAvoid } from "../../src/engine/route-engine";
import { PASSAGES, Passage } from "../../src/engine/types";
import { parseAvoid as functionsAvoid } from "../../src/functions/units";

test.each([
  ["Bab el Mandeb", "BAB_EL_MANDEB"],
  ["bab-el-mandeb", "BAB_EL_MANDEB"],
  ["BAB_EL_MANDEB", "BAB_EL_MANDEB"],
  ["Bab-al-Mandab", "BAB_EL_MANDEB"],
  ["Suez Canal", "SUEZ"],
  ["the Panama Canal", "PANAMA"],
  ["Strait of Hormuz", "HORMUZ"],
  ["Straits of Malacca", "MALACCA"],
  ["Bosphorus", "BOSPORUS"],
  ["Dover Strait", "DOVER"],
  ["Northern Sea Route", "NORTHEAST"],
])("%p names %p", (typed, passage) => {
  expect(passageOf(typed)).toBe(passage);
});

test("lists: , ; | and line breaks separate; spaces alone separate only when no passage is named", () => {
  expect(readAvoid("suez; panama")).toEqual({ kind: "PASSAGES", passages: ["SUEZ", "PANAMA"] });
  expect(readAvoid("suez panama")).toEqual({ kind: "PASSAGES", passages: ["SUEZ", "PANAMA"] });
  expect(readAvoid("Bab el Mandeb, Suez Canal")).toEqual({
    kind: "PASSAGES",
    passages: ["BAB_EL_MANDEB", "SUEZ"],
  });
  expect(readAvoid("SUEZ|suez\nSuez")).toEqual({ kind: "PASSAGES", passages: ["SUEZ"] });
  expect(readAvoid("")).toEqual({ kind: "PASSAGES", passages: [] });
  expect(readAvoid("Suez, Atlantis")).toEqual({ kind: "UNKNOWN", item: "Atlantis" });
});

test('"Bab el Mandeb" in Excel is what it is over HTTP', () => {
  expect(functionsAvoid("Bab el Mandeb")).toBe("BAB_EL_MANDEB");
  expect(engineAvoid("Bab el Mandeb")).toEqual(["BAB_EL_MANDEB"]);
  expect(() => functionsAvoid("Atlantis")).toThrow(/avoid "Atlantis" is not a passage/);
});

test("via pieces: ; or | separate, a single lat,lng keeps its comma", () => {
  expect(splitVia("Suez; LKCMB")).toEqual(["Suez", "LKCMB"]);
  expect(splitVia("SUEZ,CAPE_OF_GOOD_HOPE")).toEqual(["SUEZ", "CAPE_OF_GOOD_HOPE"]);
  expect(splitVia("1.29,103.85")).toEqual(["1.29,103.85"]);
  expect(splitVia("1.29,103.85|Singapore")).toEqual(["1.29,103.85", "Singapore"]);
  expect(splitVia(null)).toEqual([]);
});

/** A passage as people write it: any case, any separator between words, sometimes framed. */
const spelling = (p: Passage) =>
  fc
    .tuple(
      fc.constantFrom(" ", "-", "_"),
      fc.constantFrom("lower", "upper", "title"),
      fc.constantFrom("", "Strait of ", "the "),
      fc.constantFrom("", " Canal", " Strait")
    )
    .map(([sep, kase, before, after]) => {
      const words = p
        .split("_")
        .map((w) =>
          kase === "lower"
            ? w.toLowerCase()
            : kase === "upper"
              ? w
              : w[0] + w.slice(1).toLowerCase()
        );
      return `${before}${words.join(sep)}${after}`;
    });

test("property: the service and the functions read any avoid list as the same passages", () => {
  fc.assert(
    fc.property(
      fc
        .uniqueArray(fc.constantFrom(...PASSAGES), { minLength: 1, maxLength: 4 })
        .chain((ps) =>
          fc.tuple(
            fc.constant(ps),
            fc.tuple(...ps.map(spelling)),
            fc.constantFrom(",", ";", " | ", ", ", "\n")
          )
        ),
      ([passages, spellings, sep]) => {
        const text = spellings.join(sep);
        expect(new Set(engineAvoid(text))).toEqual(new Set(passages));
        expect(functionsAvoid(text)).toBe([...passages].sort().join(","));
      }
    ),
    { numRuns: 300 }
  );
});

describe("via pieces honour avoid", () => {
  const engine = loadEngine();

  it("via LKCMB with avoid SUEZ does not cross Suez (it goes round the Cape)", () => {
    const query = { origin: "NLRTM", destination: "SGSIN", modality: "DEEPSEA", via: "LKCMB" };
    const open = engine.distance(query);
    expect(open.passages).toContain("SUEZ");
    const avoided = engine.distance({ ...query, avoid: "Suez Canal" });
    expect(avoided.passages).not.toContain("SUEZ");
    // Round the Cape is thousands of km longer than through Suez.
    expect(avoided.distance - open.distance).toBeGreaterThan(3_000_000);
    // The same as routing the pieces with avoid on each.
    const leg1 = engine.distance({
      origin: "NLRTM",
      destination: "LKCMB",
      modality: "DEEPSEA",
      avoid: "SUEZ",
    });
    const leg2 = engine.distance({
      origin: "LKCMB",
      destination: "SGSIN",
      modality: "DEEPSEA",
      avoid: "SUEZ",
    });
    expect(avoided.distance).toBe(leg1.distance + leg2.distance);
  });

  it("a waypoint named by the grammar: via Bab el Mandeb", () => {
    const r = engine.distance({
      origin: "NLRTM",
      destination: "SGSIN",
      modality: "DEEPSEA",
      via: "Bab el Mandeb",
    });
    expect(r.passages).toContain("SUEZ");
  });

  it('via "Singapore" (a place name) routes as via SGSIN; "Suez Canal" is the SUEZ waypoint', () => {
    const q = { origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" };
    const byName = engine.distance({ ...q, via: "Singapore" });
    expect(byName.distance).toBe(engine.distance({ ...q, via: "SGSIN" }).distance);
    expect(engine.distance({ ...q, via: "Suez Canal" }).distance).toBe(
      engine.distance({ ...q, via: "SUEZ" }).distance
    );
    expect(engine.distance({ ...q, via: "Singapore; Suez Canal" }).passages).toContain("SUEZ");
  });

  it("via a name standing for two places of one country is refused, naming via", () => {
    try {
      engine.distance({
        origin: "CNSHA",
        destination: "NLRTM",
        modality: "DEEPSEA",
        via: "Portland",
      });
      throw new Error("no error");
    } catch (error) {
      expect(isRouteSheetsError(error) && error.detail).toMatch(/^via "Portland"/);
    }
  });

  it("an avoid piece that is no passage is an error naming avoid", () => {
    try {
      engine.distance({
        origin: "NLRTM",
        destination: "SGSIN",
        modality: "DEEPSEA",
        avoid: "Atlantis",
      });
      throw new Error("no error");
    } catch (error) {
      expect(isRouteSheetsError(error) && error.detail).toMatch(
        /^avoid "Atlantis" is not a passage/
      );
    }
  });
});
