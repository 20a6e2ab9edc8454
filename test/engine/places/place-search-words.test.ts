/**
 * A multi-word place search needs every word in one place (issue 30, a test a mutant passed at
 * place-search.ts's word scoring): a query with a word that matches nothing of a place does not
 * find that place, however well the other words match: "Rotterdam Busan" is no place, nor is
 * "Rotterdam zqxjvkwq".
 */
import fc from "fast-check";
import { loadEngine } from "../../../src/data/load-engine";

const engine = loadEngine();
/** Words no place name has, nor anything within two letters of one. */
const NONSENSE = ["zqxjvkwq", "xqzvjkqx"];
/** One-word names of ports far apart: no place's name holds two of them. */
const NAMES = [
  "Rotterdam",
  "Hamburg",
  "Busan",
  "Felixstowe",
  "Duisburg",
  "Valencia",
  "Colombo",
  "Santos",
];

test("property: two names of different places, or a name and a word of none, find nothing", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...NAMES),
      fc.constantFrom(...NAMES, ...NONSENSE),
      (name, other) => {
        fc.pre(name !== other);
        expect(engine.places(name, 5).length).toBeGreaterThan(0);
        expect(engine.places(`${name} ${other}`, 5)).toEqual([]);
        expect(engine.places(`${other} ${name}`, 5)).toEqual([]);
      }
    ),
    { numRuns: 60 }
  );
});

test("both words in one place's name still find it", () => {
  const found = engine.places("Jebel Ali", 5);
  expect(found[0]).toMatchObject({ locode: "AEJEA" });
});
