/**
 * Issue 28, item 2, every code the issue names: the Chinese codes that became airports in
 * UN/LOCODE 2024-2 keep the meaning shippers use (the port or city, with a position and a port or
 * rail function), and the new codes resolve to the same places (data/places-code-equivalents.csv).
 */
import { loadPlaces } from "../../../src/data/places";
import { fastGeodesicMeters } from "../../../src/engine/geo/geodesy";

const { resolver } = loadPlaces();
const at = (code: string) => resolver.resolve(code, "origin");

const OLD_MEANINGS: [string, RegExp][] = [
  ["CNSHA", /Shanghai/],
  ["CNNGB", /Ningbo/],
  ["CNTAO", /Qingdao/],
  ["CNTSN", /Tianjin/],
  ["CNXMN", /Xiamen/],
  ["CNSZX", /Shenzhen/],
  ["CNCAN", /Guangzhou/],
  ["CNDLC", /Dalian/],
  ["CNCKG", /Chongqing/],
  ["CNCTU", /Chengdu/],
  ["CNWUH", /Wuhan/],
];

test.each(OLD_MEANINGS)("%s keeps the meaning shippers use: %s, not its airport", (code, name) => {
  const p = at(code);
  expect(p.name).toMatch(name);
  expect(p.name).not.toMatch(/Apt|Airport/);
  expect(Number.isFinite(p.lat) && Number.isFinite(p.lng)).toBe(true);
});

test.each([
  ["CNSHG", "CNSHA"],
  ["CNSGH", "CNSHA"],
  ["CNNBG", "CNNGB"],
  ["CNNBO", "CNNGB"],
  ["CNQDG", "CNTAO"],
  ["CNQIN", "CNTAO"],
  ["CNTNJ", "CNTSN"],
  ["CNTXG", "CNTSN"],
  ["CNXAM", "CNXMN"],
  ["CNSNZ", "CNSZX"],
  ["CNGGZ", "CNCAN"],
  ["CNDAL", "CNDLC"],
  ["CNCQI", "CNCKG"],
])("the new code %s is the same place as %s", (code, old) => {
  const a = at(code);
  const b = at(old);
  expect(fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng)).toBeLessThan(1_000);
});
