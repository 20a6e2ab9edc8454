/**
 * Issue 28, item 3: the npm sea-ports package's positions that are more than 25 km from a
 * plausible UN/LOCODE or GeoNames position (data/places-unlocode.csv) are corrected by
 * data/sea-ports-corrections.csv, every correction with its reason; the ones the issue names are
 * among them.
 */
import { parse } from "csv-parse/sync";
import * as fs from "fs";
import * as path from "path";
import {
  DATA_ROOT,
  readSeaPortsCorrections,
  SEA_PORTS_CORRECTIONS,
  seaPortsLayer,
} from "../../src/data/places";
import { fastGeodesicMeters } from "../../src/engine/geo/geodesy";

const list = new Map(
  (
    parse(fs.readFileSync(path.join(DATA_ROOT, "places-unlocode.csv")), { columns: true }) as {
      locode: string;
      name: string;
      lat: string;
      lng: string;
      basis: string;
    }[]
  ).map((r) => [r.locode, r])
);
const corrections = readSeaPortsCorrections(SEA_PORTS_CORRECTIONS);
const raw = JSON.parse(
  fs.readFileSync(require.resolve("sea-ports/lib/ports.json"), "utf8")
) as Record<string, { name: string; coordinates?: [number, number] }>;
const km = (a: { lat: number; lng: number }, b: { lat: number; lng: number }) =>
  fastGeodesicMeters(a.lat, a.lng, b.lat, b.lng) / 1000;
const plausible = (code: string) => {
  const r = list.get(code);
  return r && (r.basis === "UN/LOCODE" || r.basis === "GeoNames")
    ? { lat: Number(r.lat), lng: Number(r.lng) }
    : undefined;
};

test.each([
  ["CNXGA", "Xingang"],
  ["BRVDC", "Vila do Conde Pt / Barcarena"],
  ["BRPCL", "Princesa Isabel"],
  ["PESNX", "San Nicolas"],
  ["AUGOV", "Gove"],
  ["FRHON", "Honfleur"],
  ["THPKN", "Pak Nam"],
  ["BRPNN", "Planaltina"],
  ["INHYD", "Hyderabad"],
  ["CNBHY", "Beihai"],
  ["ZAPLZ", "Port Elizabeth"],
])("%s: sea-ports' position is corrected to the list's %s, with the reason", (code, name) => {
  const fix = corrections.find((c) => c.locode === code)!;
  expect(fix).toMatchObject({ name });
  expect(fix.reason).toMatch(/^more than 25 km from the (UN\/LOCODE 2024-2|GeoNames) position/);
  const [lng, lat] = raw[code].coordinates!;
  expect(km({ lat, lng }, plausible(code)!)).toBeGreaterThan(25);
  expect(seaPortsLayer().get(code)).toMatchObject({ name, lat: fix.lat, lng: fix.lng });
  expect(km(seaPortsLayer().get(code) as { lat: number; lng: number }, plausible(code)!)).toBeLessThan(1);
});

test("no sea-ports position is left more than 25 km from a plausible list position", () => {
  const far: string[] = [];
  for (const [code, r] of seaPortsLayer()) {
    const p = plausible(code);
    if (!p || r.lat === undefined || r.lng === undefined) continue;
    if (km(r as { lat: number; lng: number }, p) > 25) far.push(code);
  }
  expect(far).toEqual([]);
});

test("every correction has a reason and a source, and corrects something", () => {
  for (const c of corrections) {
    expect(c.reason).not.toBe("");
    expect(c.source).not.toBe("");
    const [lng, lat] = raw[c.locode].coordinates!;
    expect(km({ lat, lng }, c)).toBeGreaterThan(25);
  }
});
