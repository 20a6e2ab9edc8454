/**
 * Distance inside emission control areas (data/eca-areas.json) on real sea routes: the Baltic,
 * North Sea and Mediterranean polygons are the MARPOL legal lines closed over land, the North
 * American ones carry the official points found. Figures are from real runs of the engine.
 */
import fc from "fast-check";
import { loadEngine } from "../../../src/data/load-engine";
import { loadEcaAreas } from "../../../src/data/voyage";
import { LatLng } from "../../../src/engine/types";
import { EcaAreas, EcaResult } from "../../../src/engine/voyage";

const engine = loadEngine({});
const eca = loadEcaAreas();
const NOW = "2026-01-01";

function inside(origin: string, destination: string, modality = "SHORTSEA", asOf = NOW) {
  const r = engine.distance({ origin, destination, modality });
  return { distance: r.distance, eca: eca.measure(r.path, r.distance, asOf) };
}
const byArea = (e: EcaResult) => Object.fromEntries(e.areas.map((a) => [a.name, a.distance]));
const at = (lat: number, lng: number): LatLng => ({ lat, lng });

test("NLRTM -> DEHAM lies wholly in the North Sea ECA; NLRTM -> FIHEL wholly in ECAs", () => {
  const ham = inside("NLRTM", "DEHAM");
  expect(ham.eca.share).toBe(1);
  expect(byArea(ham.eca)).toEqual({ NORTH_SEA: ham.distance });
  const hel = inside("NLRTM", "FIHEL");
  // Real run: 1,717 km, 517 km North Sea + 1,199 km Baltic (the earlier polygons left 9 km out;
  // 1,219 km Baltic before the island rings let the route pass west of Hiiumaa straight up the
  // Gulf of Finland instead of by two network corners off Estonia).
  expect(hel.eca.share).toBe(1);
  expect(hel.eca.distanceInside).toBe(hel.distance);
  expect(byArea(hel.eca).BALTIC_SEA / 1000).toBeCloseTo(1199, -1);
  expect(byArea(hel.eca).NORTH_SEA / 1000).toBeCloseTo(517, -1);
});

test("ESALG -> ITGOA lies in the Mediterranean SECA from 1 May 2025, not before", () => {
  const now = inside("ESALG", "ITGOA");
  expect(byArea(now.eca)).toEqual({ MEDITERRANEAN_SEA: now.distance });
  expect(inside("ESALG", "ITGOA", "SHORTSEA", "2025-04-30").eca.distanceInside).toBe(0);
});

test("CNSHA -> NLRTM: the Mediterranean leg (Port Said to Gibraltar) and the Channel/North Sea part", () => {
  const r = inside("CNSHA", "NLRTM", "DEEPSEA");
  const areas = byArea(r.eca);
  expect(Object.keys(areas).sort()).toEqual(["MEDITERRANEAN_SEA", "NORTH_SEA"]);
  // Real run: 3,587 km in the Mediterranean (about 1,940 nm), 761 km from 5° W in the Channel to Rotterdam.
  expect(areas.MEDITERRANEAN_SEA / 1000).toBeCloseTo(3587, -2);
  expect(areas.NORTH_SEA / 1000).toBeCloseTo(761, -1);
  expect(r.eca.share).toBeCloseTo((areas.MEDITERRANEAN_SEA + areas.NORTH_SEA) / r.distance, 3);
});

test("the legal lines decide: 62° N, 4° W, 5° W / 48°30' N, the Skaw, 5°36' W, 41° N at the Bosporus", () => {
  const name = (p: LatLng) => eca.areaAt(p, NOW)?.name;
  expect(name(at(61.9, 2))).toBe("NORTH_SEA");
  expect(name(at(62.1, 2))).toBeUndefined();
  expect(name(at(60, -3.9))).toBe("NORTH_SEA");
  expect(name(at(60, -4.1))).toBeUndefined();
  expect(name(at(49.5, -4.9))).toBe("NORTH_SEA"); // English Channel east of 5° W
  expect(name(at(49.5, -5.1))).toBeUndefined(); // its approaches west of 5° W
  expect(name(at(48.45, -4.9))).toBeUndefined(); // south of 48°30' N
  expect(name(at(53.8, -3.5))).toBeUndefined(); // Irish Sea
  expect(name(at(51.3, -3.5))).toBeUndefined(); // Bristol Channel
  expect(name(at(56.05, -3.3))).toBe("NORTH_SEA"); // Firth of Forth (left out before)
  expect(name(at(57.9, 10.8))).toBe("NORTH_SEA"); // Skagerrak, north of the Skaw parallel
  expect(name(at(57.6, 11.2))).toBe("BALTIC_SEA"); // Kattegat, south of it
  expect(name(at(35.95, -5.55))).toBe("MEDITERRANEAN_SEA"); // Strait of Gibraltar, east of 5°36' W
  expect(name(at(35.95, -5.7))).toBeUndefined();
  expect(name(at(40.75, 28.0))).toBe("MEDITERRANEAN_SEA"); // Sea of Marmara (left out before)
  expect(name(at(41.6, 29.5))).toBeUndefined(); // Black Sea
  expect(name(at(30.5, 32.35))).toBeUndefined(); // Suez Canal
});

test("the official North American points found are polygon vertices; per-area confirmed flags", () => {
  const areas = Object.fromEntries(eca.areas.map((a) => [a.name, a]));
  const atl = areas.NORTH_AMERICAN_ATLANTIC.polygon;
  // Point 1 (60°00'N 64°09.36'W), point 20 (45°19.45'N 48°43.28'W), point 38 (40°17.32'N 64°08.37'W).
  for (const [lat, lng] of [
    [60, -(64 + 9.36 / 60)],
    [45 + 19.45 / 60, -(48 + 43.28 / 60)],
    [40 + 17.32 / 60, -(64 + 8.37 / 60)],
  ])
    expect(atl.some(([x, y]) => Math.abs(x - lng) < 1e-4 && Math.abs(y - lat) < 1e-4)).toBe(true);
  // Pacific point 47 (58°51.04'N 153°15.03'W) off Alaska: SE Alaska is now inside.
  expect(eca.areaAt(at(57.5, -137.5), NOW)?.name).toBe("NORTH_AMERICAN_PACIFIC");
  const confirmed = (n: string) => (areas[n] as unknown as { confirmed: boolean }).confirmed;
  expect(["BALTIC_SEA", "NORTH_SEA", "MEDITERRANEAN_SEA"].map(confirmed)).toEqual([
    true,
    true,
    true,
  ]);
  expect(
    [
      "NORTH_AMERICAN_ATLANTIC",
      "NORTH_AMERICAN_PACIFIC",
      "NORTH_AMERICAN_HAWAII",
      "US_CARIBBEAN",
    ].map(confirmed)
  ).toEqual([false, false, false, false]);
});

// Ports well inside one ECA region (North Europe: Baltic + North Sea; the Mediterranean).
const NORTH_EUROPE = [
  "NLRTM",
  "DEHAM",
  "BEANR",
  "DEBRV",
  "GBFXT",
  "FRLEH",
  "FIHEL",
  "PLGDN",
  "SEGOT",
  "DKAAR",
  "EETLL",
];
const MED = [
  "ESALG",
  "ITGOA",
  "FRMRS",
  "GRPIR",
  "ESVLC",
  "ESBCN",
  "ITGIT",
  "MTMAR",
  "TRAMB",
  "EGPSD",
];

test("property: a leg between two ports deep inside one ECA region, routed inside it, is 100 % inside", () => {
  fc.assert(
    fc.property(
      fc
        .constantFrom(NORTH_EUROPE, MED)
        .chain((group) => fc.tuple(fc.constantFrom(...group), fc.constantFrom(...group))),
      ([a, b]) => {
        fc.pre(a !== b);
        const r = inside(a, b);
        expect(r.eca.share).toBe(1);
        expect(r.eca.distanceInside).toBe(r.distance);
      }
    ),
    { numRuns: 25 }
  );
});

test("property: distance inside ≤ the leg's distance, areas add up, no point in two areas", () => {
  const ports = [
    ...NORTH_EUROPE,
    ...MED,
    "CNSHA",
    "SGSIN",
    "USNYC",
    "USLAX",
    "CAVAN",
    "BRSSZ",
    "GBLIV",
  ];
  fc.assert(
    fc.property(fc.constantFrom(...ports), fc.constantFrom(...ports), (a, b) => {
      fc.pre(a !== b);
      const r = inside(a, b, "DEEPSEA");
      expect(r.eca.distanceInside).toBeLessThanOrEqual(r.distance + r.eca.areas.length);
      expect(r.eca.distanceInside).toBe(r.eca.areas.reduce((t, x) => t + x.distance, 0));
    }),
    { numRuns: 20 }
  );
  // The areas do not overlap: random points in the North European box fall in at most one.
  const single = eca.areas.map((x) => new EcaAreas([x]));
  fc.assert(
    fc.property(
      fc.double({ min: -6, max: 31, noNaN: true }),
      fc.double({ min: 48, max: 66, noNaN: true }),
      (lng, lat) => {
        const p = at(lat, lng);
        const holding = single.filter((x) => x.areaAt(p, NOW) !== undefined);
        expect(holding.length).toBeLessThanOrEqual(1);
      }
    ),
    { numRuns: 300 }
  );
});
