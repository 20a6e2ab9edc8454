/**
 * EU ETS shares of sea legs with the rules of data/eu-ets-maritime.json: intra-EU 100 %, EU–non-EU
 * 50 %, the outermost-region derogation until 2030 (voyages within one Member State touching the
 * Canaries, Madeira, the Azores or the French outermost regions), and the neighbouring container
 * transhipment ports (Tanger Med, East Port Said) that are not ports of call, so legs through them
 * are one voyage.
 */
import fc from "fast-check";
import { loadEtsRules } from "../../../src/data/voyage";
import { EtsEnd, etsShare, etsVoyageShares } from "../../../src/engine/voyage";
import { loadPlaces } from "../../../src/data/places";

const rules = loadEtsRules();
const ports = loadPlaces().ports;
const end = (locode: string): EtsEnd => {
  const p = ports.get(locode)!;
  return { country: p.country, locode, lat: p.lat, lng: p.lng };
};
const share = (a: string, b: string, year = 2026, modality: "DEEPSEA" | "SHORTSEA" = "SHORTSEA") =>
  etsShare(rules, modality, end(a), end(b), year);

test("intra-EU 100 %, EU–non-EU 50 %, outside 0; phase-in of the year", () => {
  expect(share("ESALG", "NLRTM")).toMatchObject({ scope: "intra-EU", share: 1, coveredShare: 1 });
  expect(share("CNSHA", "NLRTM", 2025)).toMatchObject({
    scope: "EU–non-EU",
    share: 0.5,
    coveredShare: 0.35,
  });
  expect(share("CNSHA", "SGSIN")).toMatchObject({ scope: "outside", share: 0 });
});

test("outermost regions: within one Member State exempt until 2030, covered as usual otherwise", () => {
  // Canary Islands (ES LOCODEs, known by position) to mainland Spain.
  expect(share("ESLPA", "ESVLC", 2026)).toMatchObject({
    scope: "outermost region (derogation)",
    share: 0,
    coveredShare: 0,
  });
  expect(share("ESLPA", "ESVLC", 2026).note).toMatch(/Canary Islands/);
  expect(share("ESLPA", "ESVLC", 2031)).toMatchObject({ scope: "intra-EU", share: 1 });
  // Azores and Madeira to Lisbon; between two outermost regions of Portugal.
  expect(share("PTPDL", "PTLIS").share).toBe(0);
  expect(share("PTFNC", "PTPDL").share).toBe(0);
  // To another Member State: no derogation.
  expect(share("ESLPA", "NLRTM")).toMatchObject({ scope: "intra-EU", share: 1 });
  // Reunion (RE codes, under French jurisdiction): before, RE counted as outside the EU.
  expect(share("RELPT", "FRLEH")).toMatchObject({ scope: "outermost region (derogation)" });
  expect(share("RELPT", "CNSHA", 2026, "DEEPSEA")).toMatchObject({
    scope: "EU–non-EU",
    share: 0.5,
  });
  expect(share("GPPTP", "MQFDF").share).toBe(0);
  expect(share("GPPTP", "NLRTM").share).toBe(1);
  // A lat,lng point in the Canaries (no LOCODE) is found by position.
  const atSea = etsShare(rules, "SHORTSEA", { lat: 28.0, lng: -15.5 }, end("ESVLC"), 2026);
  expect(atSea.share).toBe(0);
});

test("neighbouring transhipment ports: one leg says so; legs through them are one voyage", () => {
  expect(share("ESALG", "MAPTM")).toMatchObject({
    scope: "EU–neighbouring transhipment port",
    share: 0.5,
  });
  expect(share("CNSHA", "MAPTM", 2026, "DEEPSEA")).toMatchObject({
    scope: "neighbouring transhipment port–non-EU",
    share: 0,
  });
  const legs = (codes: string[], modalities: Array<"DEEPSEA" | "SHORTSEA" | "RAIL">) =>
    modalities.map((modality, i) => ({
      modality,
      origin: end(codes[i]),
      destination: end(codes[i + 1]),
    }));
  // Shanghai -> Tanger Med -> Valencia: one voyage Shanghai -> Valencia, 50 % on both legs.
  const viaTanger = etsVoyageShares(
    rules,
    legs(["CNSHA", "MAPTM", "ESVLC"], ["DEEPSEA", "SHORTSEA"]),
    2026
  );
  expect(viaTanger.map((s) => s.share)).toEqual([0.5, 0.5]);
  // Through Singapore (a port of call): 0 % then 50 %.
  const viaSingapore = etsVoyageShares(
    rules,
    legs(["CNSHA", "SGSIN", "ESVLC"], ["DEEPSEA", "SHORTSEA"]),
    2026
  );
  expect(viaSingapore.map((s) => s.share)).toEqual([0, 0.5]);
  // Rotterdam -> Tanger Med -> Algeciras is intra-EU; through East Port Said from Piraeus to
  // Jeddah it is EU–non-EU.
  expect(
    etsVoyageShares(rules, legs(["NLRTM", "MAPTM", "ESALG"], ["DEEPSEA", "SHORTSEA"]), 2026).map(
      (s) => s.share
    )
  ).toEqual([1, 1]);
  expect(
    etsVoyageShares(rules, legs(["GRPIR", "EGPSD", "SAJED"], ["SHORTSEA", "DEEPSEA"]), 2026).map(
      (s) => s.scope
    )
  ).toEqual(["EU–non-EU", "EU–non-EU"]);
  // A rail leg after the transhipment port ends the voyage there.
  const rail = etsVoyageShares(rules, legs(["CNSHA", "MAPTM", "MACAS"], ["DEEPSEA", "RAIL"]), 2026);
  expect(rail.map((s) => s.scope)).toEqual([
    "neighbouring transhipment port–non-EU",
    "not a sea leg",
  ]);
});

const CODES = [
  "NLRTM",
  "DEHAM",
  "ESVLC",
  "ESLPA",
  "PTPDL",
  "PTLIS",
  "RELPT",
  "FRLEH",
  "GPPTP",
  "MAPTM",
  "EGPSD",
  "CNSHA",
  "SGSIN",
  "USNYC",
  "NOOSL",
];

test("property: shares are 0, 0.5 or 1, symmetric, covered = share × phase-in; voyages without transhipment ports are their legs", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...CODES), { minLength: 2, maxLength: 5 }),
      fc.integer({ min: 2023, max: 2035 }),
      (codes, year) => {
        const legs = codes.slice(1).map((c, i) => ({
          modality: "DEEPSEA" as const,
          origin: end(codes[i]),
          destination: end(c),
        }));
        for (const l of legs) {
          const s = etsShare(rules, l.modality, l.origin, l.destination, year);
          expect([0, 0.5, 1]).toContain(s.share);
          expect(etsShare(rules, l.modality, l.destination, l.origin, year).share).toBe(s.share);
          expect(s.coveredShare).toBeCloseTo(s.share * s.phaseIn, 4);
        }
        const voyage = etsVoyageShares(rules, legs, year);
        expect(voyage).toHaveLength(legs.length);
        const ntp = new Set(["MAPTM", "EGPSD"]);
        if (!codes.slice(1, -1).some((c) => ntp.has(c)))
          expect(voyage.map((v) => v.share)).toEqual(
            legs.map((l) => etsShare(rules, l.modality, l.origin, l.destination, year).share)
          );
      }
    ),
    { numRuns: 200 }
  );
});
