/** The place search over every name the engine ships: properties over all entries and random typos. */
import fc from "fast-check";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { importUnlocode, loadPlaces } from "../../../src/data/places";
import { editDistance, PlaceIndex, placeEntries } from "../../../src/engine/places";

const places = loadPlaces();
const entries = placeEntries(places.ports, places.terminals.all());
const index = new PlaceIndex(entries);
const codes = entries.filter((e) => e.kind !== "terminal");

test("indexes the ports, terminals and inland places", () => {
  expect(codes.length).toBeGreaterThan(1500);
  expect(entries.filter((e) => e.kind === "terminal").length).toBe(places.terminals.size);
  expect(codes.map((e) => e.locode)).toEqual(expect.arrayContaining(["INDEL", "CNXIY", "VNHAN"]));
});

test("every code finds itself first, exactly, in any case", () => {
  for (const e of codes) {
    const [first] = index.search(e.locode.toLowerCase(), 1);
    expect({ code: e.locode, found: first?.locode, match: first?.match }).toEqual({
      code: e.locode,
      found: e.locode,
      match: "exact",
    });
  }
});

test("every name finds its place among the exact matches", () => {
  for (const e of codes) {
    const results = index.search(e.names[0], 20);
    const found = results.find((r) => r.locode === e.locode && r.kind === e.kind);
    expect({ name: e.names[0], match: found?.match }).toEqual({ name: e.names[0], match: "exact" });
  }
});

test("every terminal is found by its port's code and name", () => {
  for (const e of entries.filter((x) => x.kind === "terminal")) {
    const results = index.search(`${e.locode} ${e.names[0]}`, 5);
    expect(results[0]).toMatchObject({ terminalId: e.terminalId, match: "exact" });
  }
});

test("a code with one character replaced finds the code among its fuzzy matches", () => {
  const chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  fc.assert(
    fc.property(
      fc.constantFrom(...codes.map((e) => e.locode)),
      fc.integer({ min: 2, max: 4 }),
      fc.constantFrom(...chars),
      (code, at, ch) => {
        const typo = code.slice(0, at) + ch + code.slice(at + 1);
        fc.pre(typo !== code && !codes.some((e) => e.locode === typo));
        // 27,000 codes: a typo has up to ~170 codes one change away, ranked by size.
        const results = index.search(typo, 200);
        expect(results.map((r) => r.locode)).toContain(code);
        // Exact only where the typo happens to be a place's own name ("PECHM" → "PECEM" is Pecém).
        const folded = (t: string) =>
          t
            .normalize("NFD")
            .replace(/[\u0300-\u036f]/g, "")
            .toLowerCase();
        for (const r of results)
          if (r.match === "exact") expect(folded(r.name)).toBe(folded(typo));
          else expect(r.score).toBeLessThan(1);
      }
    ),
    { numRuns: 300 }
  );
});

test("a place name with one letter dropped still finds the place", () => {
  const long = codes.filter((e) => /^[A-Za-z]{7,}$/.test(e.names[0]));
  fc.assert(
    fc.property(fc.constantFrom(...long), fc.nat(), (e, n) => {
      const name = e.names[0];
      const at = 1 + (n % (name.length - 2));
      const typo = name.slice(0, at) + name.slice(at + 1);
      const results = index.search(typo, 20);
      expect(results.map((r) => r.locode)).toContain(e.locode);
    }),
    { numRuns: 200 }
  );
});

test("results are best first, scores in 0..1, exact ones scored 1", () => {
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 12 }), (q) => {
      const results = index.search(q, 20);
      for (let i = 1; i < results.length; i++)
        expect(results[i].score).toBeLessThanOrEqual(results[i - 1].score);
      for (const r of results) {
        expect(r.score).toBeGreaterThan(0);
        expect(r.score).toBeLessThanOrEqual(1);
        if (r.match === "fuzzy") expect(r.score).toBeLessThan(1);
      }
    }),
    { numRuns: 300 }
  );
});

test("edit distance counts replacements, insertions, deletions and swaps", () => {
  expect(editDistance("hamburg", "hambrug", 2)).toBe(1);
  expect(editDistance("rotterdam", "roterdam", 2)).toBe(1);
  expect(editDistance("kitten", "sitting", 3)).toBe(3);
  expect(editDistance("abc", "abcdef", 1)).toBe(2);
});

test("an imported UN/LOCODE list is searchable, its function classifier giving the modalities", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-places-"));
  try {
    importUnlocode([path.join(__dirname, "../../fixtures/unlocode-sample.csv")], dataDir);
    const withList = loadPlaces({ dataDir });
    // Andorra la Vella, "--34-6--": road and multimodal functions, no port or rail of its own.
    const [andorra] = withList.finder.search("Andorra la Vella", 1);
    expect(andorra).toMatchObject({ locode: "ADALV", kind: "place", match: "exact" });
    expect(andorra.modalities).toEqual(["RAIL", "TRUCK"]);
    // Canillo, "--3-----": road only.
    expect(withList.finder.search("ADCAN", 1)[0]).toMatchObject({ modalities: ["TRUCK"] });
    // Not in the shipped places without the list.
    expect(index.search("Canillo", 5).map((r) => r.locode)).not.toContain("ADCAN");
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test.each([
  ["Bandar-e Abbas", "IRBND"], // listed as "Bandar Abbas"
  ["Bandar Lengeh", "IRBDH"], // listed as "Bandar-e Lengeh"
  ["bandar e lengeh", "IRBDH"],
])("the Persian ezafe may be written or left out: %s is %s, exactly", (typed, code) => {
  const [top] = places.finder.search(typed, 5);
  expect(top).toMatchObject({ locode: code, match: "exact" });
});
