/**
 * The World Port Index's positions (data/places-wpi.csv, NGA Pub. 150) for codes no earlier source
 * places: the row must carry the code and the code's name, agreeing rows must be one port, and a
 * GeoNames place of the name must lie within 25 km. Measured like the other sources, against the
 * codes whose UNECE position the list uses.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "csv-parse/sync";
import {
  BuiltEntry,
  DATA_ROOT,
  readGeoNames,
  readSubdivisionNames,
  WPI_BASIS,
  wpiAgreement,
} from "../../../src/builders/places/build-unlocode-places";
import { readWpiRows, WpiRow, wpiChoice } from "../../../src/builders/places/wpi-positions";

const misumi: WpiRow = {
  locode: "JPMIS",
  wpi: "61070",
  name: "Misumi Ko",
  alternate: "Kumamoto",
  lat: 32.6,
  lng: 130.4667,
};
const always = () => true;

test("a row with the code and the code's name gives its position ('Ko' is the index's word for a port)", () => {
  expect(wpiChoice([misumi], ["misumi"], always)).toBe(misumi);
  // Alternate names, listed with "; " between them.
  const abuDhabi = { ...misumi, name: "Abu Zaby", alternate: "Abu Dhabi; Mina Zayed" };
  expect(wpiChoice([abuDhabi], ["mina zayed"], always)).toBe(abuDhabi);
});

test("another name, agreeing rows apart, or no GeoNames place near give nothing", () => {
  expect(wpiChoice([misumi], ["yatsushiro"], always)).toBeUndefined();
  const far = { ...misumi, wpi: "61071", lat: 33.0 };
  expect(wpiChoice([misumi, far], ["misumi"], always)).toBeUndefined();
  const near = { ...misumi, wpi: "61072", lat: 32.65 };
  expect(wpiChoice([misumi, near], ["misumi"], always)).toBe(misumi);
  expect(wpiChoice([misumi], ["misumi"], () => false)).toBeUndefined();
  expect(wpiChoice(undefined, ["misumi"], always)).toBeUndefined();
});

const rows = parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode.csv")), {
  columns: true,
}) as Record<string, string>[];
const wpi = readWpiRows();

test("every position the list takes from the index is an index row of that code", () => {
  const taken = rows.filter((r) => r.basis === WPI_BASIS);
  expect(taken.length).toBeGreaterThanOrEqual(14);
  for (const r of taken)
    expect(wpi.get(r.locode)?.some((w) => w.lat === Number(r.lat) && w.lng === Number(r.lng))).toBe(
      true
    );
});

test("the rule lands within 25 km of UNECE's position for 98 %+ of the codes UNECE places", () => {
  const entries = rows.map((r): BuiltEntry => ({
    locode: r.locode,
    name: r.name,
    subdivision: r.subdivision,
    function: r.function,
    status: r.status,
    ...(r.basis === "UN/LOCODE" ? { lat: Number(r.lat), lng: Number(r.lng) } : {}),
    basis: r.basis === "UN/LOCODE" ? r.basis : "",
    population: 0,
    region: "",
  }));
  const { matched, within } = wpiAgreement(
    entries,
    entries,
    readGeoNames(),
    readSubdivisionNames(),
    wpi
  );
  console.log(`World Port Index: ${within} of ${matched} within 25 km of UNECE`);
  expect(matched).toBeGreaterThan(1000);
  expect(within / matched).toBeGreaterThanOrEqual(0.98);
}, 300_000);
