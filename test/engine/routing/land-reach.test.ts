/**
 * RAIL/TRUCK reachability as properties, no reference table: every fixed link's two ends reach each
 * other, random pairs of inland places on one continent reach each other, island cities with a
 * fixed link are reachable; and fresh published rail lengths the corridors were not fitted to.
 */
import fc from "fast-check";
import { loadLandLinks, loadOverlandRouter } from "../../../src/data/inland";
import { loadEngine } from "../../../src/data/load-engine";
import { loadPlaces, readInlandPlaces, DATA_ROOT } from "../../../src/data/places";
import * as path from "path";

const router = loadOverlandRouter();
const engine = loadEngine({});
const inland = readInlandPlaces(path.join(DATA_ROOT, "inland-places.csv"));
const ports = loadPlaces().ports;

/** Continents as the land links join them (Eurasia + Africa by land through Suez/Sinai). */
const CONTINENT: Record<string, string> = {};
for (const cc of "US CA MX GT HN SV NI CR".split(" ")) CONTINENT[cc] = "north-america";
for (const cc of "BR CO PE CL AR BO PY EC VE UY".split(" ")) CONTINENT[cc] = "south-america";
for (const cc of "KE UG RW ET ZA ZM ZW MW BW NG BF ML NE TD CM CD SD EG MA SS TZ CF".split(" "))
  CONTINENT[cc] = "eurasia-africa";
for (const cc of "AU".split(" ")) CONTINENT[cc] = "australia";
// Java (Bandung) has no fixed link to the mainland: not part of any continent here.
CONTINENT.ID = "java";

const placesOf = (continent: string) =>
  inland.filter((p) => (CONTINENT[p.locode.slice(0, 2)] ?? "eurasia-africa") === continent);

test("every fixed link's two ends reach each other, by each modality it carries", () => {
  for (const link of loadLandLinks()) {
    for (const m of link.modalities) {
      const r = router.route(link.a, link.b, m);
      expect({ link: link.name, m, reached: r !== null }).toEqual({
        link: link.name,
        m,
        reached: true,
      });
    }
  }
});

test.each(["north-america", "south-america", "eurasia-africa", "australia"])(
  "random pairs of inland places in %s are reachable by TRUCK and RAIL",
  (continent) => {
    const places = placesOf(continent);
    expect(places.length).toBeGreaterThanOrEqual(4);
    fc.assert(
      fc.property(fc.constantFrom(...places), fc.constantFrom(...places), (a, b) => {
        for (const m of ["TRUCK", "RAIL"] as const) {
          const r = router.route({ lat: a.lat!, lng: a.lng! }, { lat: b.lat!, lng: b.lng! }, m);
          expect({ from: a.locode, to: b.locode, m, reached: r !== null }).toEqual({
            from: a.locode,
            to: b.locode,
            m,
            reached: true,
          });
        }
      }),
      { numRuns: 60 }
    );
  }
);

test("every inland place reaches its continent's first place by TRUCK and RAIL (so all pairs do)", () => {
  const failures: string[] = [];
  for (const continent of ["north-america", "south-america", "eurasia-africa", "australia"]) {
    const [first, ...rest] = placesOf(continent);
    for (const p of rest)
      for (const m of ["TRUCK", "RAIL"] as const)
        if (!router.route({ lat: p.lat!, lng: p.lng! }, { lat: first.lat!, lng: first.lng! }, m))
          failures.push(`${p.locode} ${m}`);
  }
  expect(failures).toEqual([]);
});

test.each([
  ["CAMTR", "CATOR"],
  ["CAMTR", "USNYC"],
  ["USGLS", "USHOU"],
  ["USGLS", "USCHI"],
])("island city with a fixed link: %s → %s by TRUCK and RAIL", (a, b) => {
  for (const modality of ["TRUCK", "RAIL"]) {
    const r = engine.distance({ origin: a, destination: b, modality });
    expect(r.distance).toBeGreaterThan(0);
  }
});

test("the far north is land: Eurasia's ring is cut at ±180°, and its jumps no longer flip the band between them", () => {
  const at = (lat: number, lng: number) => ({ lat, lng });
  for (const p of [at(67.85, 20.22), at(66.5, 25.73), at(67.5, 64.0), at(66.53, 66.6)])
    expect(router.connected(p, at(59.33, 18.07), "TRUCK")).toBe(true);
  // Stockholm → Kiruna by rail (the ore line): about 1,200 km.
  const kiruna = router.route(at(59.33, 18.07), at(67.85, 20.22), "RAIL");
  expect(kiruna).not.toBeNull();
  expect(kiruna!.meters / 1000).toBeGreaterThan(1000);
  expect(kiruna!.meters / 1000).toBeLessThan(1400);
});

test("Hanoi → Haiphong by coordinates and by code", () => {
  const byCoordinates = engine.distance({
    origin: "21.0285,105.8542",
    destination: "20.8449,106.6881",
    modality: "TRUCK",
  });
  // Road distance is about 120 km (National Route 5 / the expressway).
  expect(byCoordinates.distance / 1000).toBeGreaterThan(100);
  expect(byCoordinates.distance / 1000).toBeLessThan(140);
  expect(
    engine.distance({ origin: "VNHAN", destination: "VNHPH", modality: "RAIL" }).distance
  ).toBeGreaterThan(0);
});

test.each([
  // Published line lengths (sources in data/rail-corridors.json); the access legs add a little.
  ["KEMBA", "KENBO", 472],
  ["AUADL", "AUDRW", 2979],
  ["USCHI", "USMSY", 1503],
])("RAIL %s → %s runs on the network within 6 %% of the %d km line", (a, b, km) => {
  const r = engine.distance({ origin: a, destination: b, modality: "RAIL" });
  expect(r.basis).toBe("network");
  expect(Math.abs(r.distance / 1000 / km - 1)).toBeLessThan(0.06);
});

test("answers say how they were computed: circuity estimates say so", () => {
  const truck = engine.distance({ origin: "DEBER", destination: "PLWAW", modality: "TRUCK" });
  expect(truck.basis).toBe("great circle × circuity");
  const sea = engine.distance({ origin: "CNSHA", destination: "NLRTM", modality: "DEEPSEA" });
  expect(sea.basis).toBeUndefined();
  expect(ports.get("INDEL")).toBeDefined();
});
