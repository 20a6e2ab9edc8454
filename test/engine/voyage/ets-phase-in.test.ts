/**
 * The ETS phase-in of a year (issue 30, a test a mutant passed): 0 before 2024, the published
 * 40 % / 70 % / 100 % from 2024, 2025 and 2026 on (Directive 2003/87/EC, Art. 3gb).
 */
import fc from "fast-check";
import { loadEtsRules } from "../../../src/data/voyage";
import { etsShare } from "../../../src/engine/voyage";

const rules = loadEtsRules();
/** Valencia → Rotterdam: an intra-EU leg, 100 % in scope. */
const intraEu = (year: number) =>
  etsShare(
    rules,
    "SHORTSEA",
    { country: "ES", locode: "ESVLC", lat: 39.44, lng: -0.32 },
    { country: "NL", locode: "NLRTM", lat: 51.95, lng: 4.05 },
    year
  );

test("property: before 2024 nothing is covered, from 2026 all of it", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1990, max: 2023 }), (year) => {
      expect(intraEu(year)).toMatchObject({ share: 1, phaseIn: 0, coveredShare: 0 });
    })
  );
  fc.assert(
    fc.property(fc.integer({ min: 2026, max: 2100 }), (year) => {
      expect(intraEu(year)).toMatchObject({ share: 1, phaseIn: 1, coveredShare: 1 });
    })
  );
});

test("2024 and 2025: 40 % and 70 % as Art. 3gb says", () => {
  expect(intraEu(2024)).toMatchObject({ phaseIn: 0.4, coveredShare: 0.4 });
  expect(intraEu(2025)).toMatchObject({ phaseIn: 0.7, coveredShare: 0.7 });
});
