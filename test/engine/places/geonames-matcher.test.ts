/**
 * The offline builder's GeoNames matching (src/builders/places/build-unlocode-places.ts) on small
 * made-up gazetteers: a unique name places a code, namesakes do not, a subdivision (admin-1, and
 * admin-2 where one subdivision's alone) picks among them, a hamlet only cities500 lists never
 * makes a town ambiguous, alternate names never place a code but do tell a place from a
 * province centre.
 */
import {
  GeoNamesMatcher,
  GeoPlace,
  ListEntry,
  nameKeys,
} from "../../../src/builders/places/build-unlocode-places";

const place = (
  name: string,
  lat: number,
  lng: number,
  extra: Partial<GeoPlace> = {}
): GeoPlace => ({
  name,
  lat,
  lng,
  country: "XX",
  admin1: "A",
  admin2: "",
  population: 5_000,
  ...extra,
});
const entry = (locode: string, name: string, extra: Partial<ListEntry> = {}): ListEntry => ({
  locode,
  name,
  subdivision: "",
  function: "1-------",
  status: "AI",
  ...extra,
});
const find = (m: GeoNamesMatcher, name: string, subdivision = "") =>
  m.unique("XX", subdivision, nameKeys(name))?.name;

test("a unique name places the code; two namesakes far apart do not", () => {
  const m = new GeoNamesMatcher(
    [place("Alpha", 10, 10), place("Beta", 11, 11), place("Beta", 12, 12)],
    []
  );
  expect(find(m, "Alpha")).toBe("Alpha");
  expect(find(m, "ALPHA Pt")).toBeUndefined();
  expect(find(m, "Beta")).toBeUndefined();
});

test("the subdivision learnt from codes with a position picks the namesake in it", () => {
  const geo = [
    place("Gamma", 10, 10, { admin1: "N", admin2: "n1" }),
    place("Gamma", 12, 12, { admin1: "S", admin2: "s1" }),
    place("Delta", 10.5, 10.5, { admin1: "N", admin2: "n1" }),
    place("Delta", 10.9, 10.9, { admin1: "N", admin2: "n2" }),
    place("Epsilon", 10.1, 10.1, { admin1: "N", admin2: "n1" }),
    place("Zeta", 10.2, 10.2, { admin1: "N", admin2: "n1" }),
    place("Eta", 10.95, 10.95, { admin1: "N", admin2: "n2" }),
    place("Theta", 10.85, 10.85, { admin1: "N", admin2: "n2" }),
  ];
  // Codes with a position teach NOR → admin-1 N, admin-2 N.n1 and NOT → N.n2.
  const list = [
    entry("XXEPS", "Epsilon", { subdivision: "NOR", lat: 10.1, lng: 10.1 }),
    entry("XXZET", "Zeta", { subdivision: "NOR", lat: 10.2, lng: 10.2 }),
    entry("XXETA", "Eta", { subdivision: "NOT", lat: 10.95, lng: 10.95 }),
    entry("XXTHE", "Theta", { subdivision: "NOT", lat: 10.85, lng: 10.85 }),
  ];
  const m = new GeoNamesMatcher(geo, list);
  expect(m.admin1Of.get("XX|NOR")).toBe("N");
  expect(m.admin2Of.get("XX|NOR")).toBe("N.n1");
  expect(find(m, "Gamma")).toBeUndefined();
  expect(find(m, "Gamma", "NOR")).toBe("Gamma");
  expect(m.unique("XX", "NOR", ["gamma"])!.lat).toBe(10);
  // Both Deltas are in N: the county tells them apart.
  expect(m.unique("XX", "NOR", ["delta"])!.lat).toBe(10.5);
  expect(m.unique("XX", "NOT", ["delta"])!.lat).toBe(10.9);
});

test("a hamlet only cities500 lists is used where no larger place has the name, never as a rival", () => {
  const m = new GeoNamesMatcher(
    [
      place("Iota", 10, 10, { population: 200_000 }),
      place("Iota", 14, 14, { population: 600, small: true }),
      place("Kappa", 13, 13, { population: 600, small: true }),
    ],
    []
  );
  expect(m.unique("XX", "", ["iota"])!.lat).toBe(10);
  expect(find(m, "Kappa")).toBe("Kappa");
});

test("alternate names never place a code, but a position at a place so named is no province centre", () => {
  const m = new GeoNamesMatcher(
    [
      place("Lambda-on-River", 47, 39, { alternateNames: ["Lambda"] }),
      place("Mu", 30, 30, { alternateNames: ["Nu"] }),
    ],
    []
  );
  expect(find(m, "Nu")).toBeUndefined();
  expect(m.namedNear("XX", "", nameKeys("Lambda"), { lat: 47.05, lng: 39.05 })).toBe(true);
  expect(m.namedNear("XX", "", nameKeys("Lambda"), { lat: 49, lng: 39 })).toBe(false);
});

test("a subdivision no position teaches is found by its name in GeoNames (admin-1, else admin-2)", () => {
  const jp = (name: string, lat: number, admin1: string): GeoPlace =>
    place(name, lat, 135, { country: "JP", admin1 });
  const gb = (name: string, lat: number, admin2: string): GeoPlace =>
    place(name, lat, 0, { country: "GB", admin1: "ENG", admin2 });
  const geo = [
    jp("Hanyu", 36.17, "34"), // Saitama
    jp("Hanyu", 35.4, "36"), // Shimane
    gb("Alpha Green", 51.2, "G5"), // Kent
    gb("Alpha Green", 50.3, "C6"), // Cornwall
  ];
  // UN/LOCODE's names: "Simane [Shimane]" (the English name in the bracket), "Kent".
  const names = new Map([
    ["JP|32", "Simane [Shimane]"],
    ["GB|KEN", "Kent"],
    ["GB|ZZZ", "Nowhere Such"],
  ]);
  expect(new GeoNamesMatcher(geo, []).unique("JP", "32", ["hanyu"])).toBeUndefined();
  const m = new GeoNamesMatcher(geo, [], names);
  expect(m.admin1Of.get("JP|32")).toBe("36");
  expect(m.unique("JP", "32", ["hanyu"])!.lat).toBe(35.4);
  expect(m.admin2Of.get("GB|KEN")).toBe("ENG.G5");
  expect(m.unique("GB", "KEN", ["alpha green"])!.lat).toBe(51.2);
  expect(m.admin1Of.has("GB|ZZZ")).toBe(false);
  expect([...m.namedSubdivisions].sort()).toEqual(["GB|KEN", "JP|32"]);
});
