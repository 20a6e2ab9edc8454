/**
 * Port positions from the World Port Index (NGA Pub. 150, a US Government work in the public
 * domain) for UN/LOCODEs no earlier source places. data/places-wpi.csv keeps the index's rows
 * that give a UN/LOCODE: code, index number, names and position.
 *
 * A row places a code only when (wpiChoice):
 * - its code is the code, and its main or alternate name is one of the code's name keys (with
 *   the index's "Ko", "Hang", "Harbour", "Terminal" dropped): the index gives some codes to
 *   another port (PTVNC to Vila Real de Santo António);
 * - the rows so agreeing lie within 25 km of each other;
 * - a GeoNames place of the code's name (its own or an alternate one, in the code's subdivision
 *   where known) lies within 25 km of it: the index's point is a port's, and code and name alone
 *   land within 25 km of UNECE's position for 97.9 % of the codes UNECE places, below the 98 %
 *   bar; with that corroboration for 98.9 % (wpiAgreement, printed by the places builder).
 *
 * `node dist/builders/places/wpi-positions.js UpdatedPub150.csv` rewrites data/places-wpi.csv from
 * the index's CSV export.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parse, stringify } from "../../data/csv";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import { nameKeys } from "./build-unlocode-places";

export const WPI_POSITIONS_FILE = path.resolve(__dirname, "../../../data/places-wpi.csv");
export const WPI_SOURCE = "NGA World Port Index (Pub. 150), public domain";
const SAME_PORT_KM = 25;

export interface WpiRow {
  locode: string;
  wpi: string;
  name: string;
  alternate: string;
  lat: number;
  lng: number;
}

export function readWpiRows(file = WPI_POSITIONS_FILE): Map<string, WpiRow[]> {
  const out = new Map<string, WpiRow[]>();
  if (!fs.existsSync(file)) return out;
  const rows = parse(fs.readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  for (const r of rows) {
    const row = { ...r, lat: Number(r.lat), lng: Number(r.lng) } as WpiRow;
    const list = out.get(row.locode);
    if (list) list.push(row);
    else out.set(row.locode, [row]);
  }
  return out;
}

/** The index writes what kind of port a name is after it ("Misumi Ko", "Pyeongtaek Hang"). */
const PORT_WORDS = /\s+(ko|kou|hang|harbou?r|port|oil terminal|terminal)$/i;

function wpiKeys(row: WpiRow): string[] {
  // Alternate names are listed with "; " between them ("Abu Dhabi; Mina Zayed").
  const names = [row.name, ...row.alternate.split(";")].filter((n) => n.trim());
  return names.flatMap((n) => [...nameKeys(n), ...nameKeys(n.replace(PORT_WORDS, ""))]);
}

/**
 * The index's position for a code named so (see the file comment), or undefined. `corroborated`
 * says whether a GeoNames place of the code's name lies near a point.
 */
export function wpiChoice(
  rows: readonly WpiRow[] | undefined,
  keys: readonly string[],
  corroborated: (p: { lat: number; lng: number }) => boolean
): WpiRow | undefined {
  const agreeing = (rows ?? []).filter((r) => wpiKeys(r).some((k) => keys.includes(k)));
  if (!agreeing.length) return undefined;
  const [first] = agreeing;
  const apart = agreeing.some(
    (r) => fastGeodesicMeters(r.lat, r.lng, first.lat, first.lng) > SAME_PORT_KM * 1000
  );
  if (apart || !corroborated(first)) return undefined;
  return first;
}

function main(): void {
  const input = process.argv[2];
  if (!input) throw new Error("usage: wpi-positions.js UpdatedPub150.csv");
  const rows = parse(fs.readFileSync(input, "utf8").replace(/^\uFEFF/, ""), {
    columns: true,
  }) as Record<string, string>[];
  const out: string[][] = [];
  for (const r of rows) {
    const locode = (r["UN/LOCODE"] ?? "").replace(/\s+/g, "").toUpperCase();
    if (!/^[A-Z]{2}[A-Z2-9]{3}$/.test(locode)) continue;
    const fixed = (x: string) => String(Math.round(Number(x) * 1e4) / 1e4);
    out.push([
      locode,
      String(Number(r["World Port Index Number"])),
      r["Main Port Name"].trim(),
      r["Alternate Port Name"].trim(),
      fixed(r.Latitude),
      fixed(r.Longitude),
      WPI_SOURCE,
    ]);
  }
  out.sort((a, b) => a[0].localeCompare(b[0]) || Number(a[1]) - Number(b[1]));
  fs.writeFileSync(
    WPI_POSITIONS_FILE,
    stringify([["locode", "wpi", "name", "alternate", "lat", "lng", "source"], ...out])
  );
  console.log(`${out.length} rows with a UN/LOCODE written to ${WPI_POSITIONS_FILE}`);
}

if (require.main === module) main();
