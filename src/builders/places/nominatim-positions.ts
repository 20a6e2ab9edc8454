/**
 * Positions from OpenStreetMap for the UN/LOCODEs that neither UNECE nor GeoNames place (small
 * ports, hamlets, Norwegian and Japanese harbours). The input is the public repository
 * `cristan/improved-un-locodes`, which stores Nominatim's raw answers per code
 * (`data/nominatim/<CC>/<XXX>/<query kind>/<code>.json`, ODbL 1.0, © OpenStreetMap contributors).
 * The choice among the answers is ours and as strict as the GeoNames match:
 *
 * - the answer lies in the code's country (`address.country_code`);
 * - its subdivision agrees where both say one (`ISO3166-2-lvl*` against the UN/LOCODE subdivision);
 * - its name, or a place name of its address, is one of the code's name keys;
 * - the agreeing answers all lie within 25 km of the most important one, else the name is
 *   ambiguous and the code stays without a position.
 *
 * The same choice is made for codes UNECE does place; how often it lands within 25 km of UNECE is
 * printed, and written to data/README.md, as the measure of its precision.
 *
 * `node dist/builders/places/nominatim-positions.js GIT_DIR` (a clone or mirror of the repository)
 * writes data/places-unlocode-osm.csv for the codes data/places-unlocode.csv leaves without a
 * position. Run it before build-unlocode-places, which reads that file.
 */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import { stringify } from "../../data/csv";
import { fastGeodesicMeters } from "../../engine/geo/geodesy";
import {
  DEFAULT_INPUT,
  nameKey,
  nameKeys,
  readListCsv,
  UNLOCODE_PLACES_FILE,
} from "./build-unlocode-places";
import { OSM_POSITIONS_FILE, readOsmPositions } from "./osm-positions";

const SAME_PLACE_KM = 25;

/** The parts of a Nominatim answer the choice reads. */
export interface NominatimAnswer {
  lat: string;
  lon: string;
  name?: string;
  importance?: number;
  osm_type?: string;
  osm_id?: number;
  address?: Record<string, string>;
}

export interface OsmChoice {
  lat: number;
  lng: number;
  osm: string;
  name: string;
}

/** Address fields that name a settlement (the answer may be a street or a station in it). */
const PLACE_FIELDS = [
  "city",
  "town",
  "village",
  "hamlet",
  "municipality",
  "suburb",
  "island",
  "locality",
  "isolated_dwelling",
  "quarter",
  "neighbourhood",
];

function subdivisionAgrees(answer: NominatimAnswer, country: string, subdivision: string): boolean {
  if (!subdivision) return true;
  const said = Object.entries(answer.address ?? {})
    .filter(([k]) => k.startsWith("ISO3166-2-lvl"))
    .map(([, v]) => v.toUpperCase());
  return said.length === 0 || said.includes(`${country}-${subdivision.toUpperCase()}`);
}

function nameAgrees(answer: NominatimAnswer, keys: ReadonlySet<string>): boolean {
  const names = [answer.name ?? "", ...PLACE_FIELDS.map((f) => answer.address?.[f] ?? "")];
  return names.some((n) => n !== "" && keys.has(nameKey(n)));
}

/** The position OpenStreetMap gives the code, or undefined when none agrees or several do. */
export function chooseOsmPosition(
  code: { locode: string; name: string; subdivision: string },
  answers: readonly NominatimAnswer[]
): OsmChoice | undefined {
  const country = code.locode.slice(0, 2);
  const keys = new Set(nameKeys(code.name));
  const agreeing = answers.filter(
    (a) =>
      a.address?.country_code?.toUpperCase() === country &&
      subdivisionAgrees(a, country, code.subdivision) &&
      nameAgrees(a, keys) &&
      Number.isFinite(Number(a.lat)) &&
      Number.isFinite(Number(a.lon))
  );
  if (!agreeing.length) return undefined;
  const best = agreeing.reduce((b, a) => ((a.importance ?? 0) > (b.importance ?? 0) ? a : b));
  const lat = Number(best.lat);
  const lng = Number(best.lon);
  const apart = agreeing.some(
    (a) => fastGeodesicMeters(lat, lng, Number(a.lat), Number(a.lon)) > SAME_PLACE_KM * 1000
  );
  if (apart) return undefined;
  return { lat, lng, osm: `${best.osm_type ?? ""}/${best.osm_id ?? ""}`, name: best.name ?? "" };
}

/** Every code's answers, read from the repository's git objects in one `cat-file` stream. */
async function readAnswers(gitDir: string): Promise<Map<string, NominatimAnswer[]>> {
  const tree = execFileSync(
    "git",
    ["--git-dir", gitDir, "ls-tree", "-r", "HEAD", "data/nominatim"],
    {
      maxBuffer: 1 << 30,
    }
  ).toString();
  const files: { sha: string; code: string }[] = [];
  for (const line of tree.split("\n")) {
    const m = /^\S+ blob (\S+)\t.*\/([A-Z0-9]{5})\.json$/.exec(line);
    if (m) files.push({ sha: m[1], code: m[2] });
  }
  const codesOf = new Map<string, string[]>();
  for (const f of files) codesOf.set(f.sha, [...(codesOf.get(f.sha) ?? []), f.code]);
  const out = new Map<string, NominatimAnswer[]>();
  const child = spawn("git", ["--git-dir", gitDir, "cat-file", "--batch"]);
  child.stdin.end([...codesOf.keys()].join("\n") + "\n");
  let buffer = Buffer.alloc(0);
  for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const nl = buffer.indexOf(10);
      if (nl < 0) break;
      const [sha, kind, size] = buffer.subarray(0, nl).toString().split(" ");
      if (kind === "missing") {
        buffer = buffer.subarray(nl + 1);
        continue;
      }
      const end = nl + 1 + Number(size);
      if (buffer.length < end + 1) break;
      const body = buffer.subarray(nl + 1, end).toString();
      buffer = buffer.subarray(end + 1);
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        continue;
      }
      const answers = (Array.isArray(parsed) ? parsed : [parsed]) as NominatimAnswer[];
      for (const code of codesOf.get(sha) ?? [])
        out.set(code, [...(out.get(code) ?? []), ...answers.filter((a) => a && a.lat)]);
    }
  }
  return out;
}

async function main(): Promise<void> {
  const gitDir = process.argv[2];
  if (!gitDir) throw new Error("usage: nominatim-positions GIT_DIR [UNLOCODE_LIST_DIR]");
  const list = readListCsv(process.argv[3] ?? DEFAULT_INPUT);
  const built = readListCsv(UNLOCODE_PLACES_FILE);
  const placedByUs = new Map(built.map((e) => [e.locode, e]));
  const previous = fs.existsSync(OSM_POSITIONS_FILE)
    ? readOsmPositions(OSM_POSITIONS_FILE)
    : new Map();
  const answers = await readAnswers(gitDir);
  const rows: string[][] = [];
  let checked = 0;
  let within = 0;
  for (const e of list) {
    const choice = chooseOsmPosition(e, answers.get(e.locode) ?? []);
    if (!choice) continue;
    if (e.lat !== undefined && e.lng !== undefined) {
      checked++;
      if (fastGeodesicMeters(e.lat, e.lng, choice.lat, choice.lng) <= SAME_PLACE_KM * 1000)
        within++;
    }
    const ours = placedByUs.get(e.locode);
    // Only codes the other sources leave without a position (or that this file placed before).
    if (ours?.lat !== undefined && !previous.has(e.locode)) continue;
    rows.push([
      e.locode,
      choice.lat.toFixed(5),
      choice.lng.toFixed(5),
      choice.name,
      choice.osm,
      "OpenStreetMap Nominatim via cristan/improved-un-locodes (ODbL 1.0)",
    ]);
  }
  fs.writeFileSync(
    OSM_POSITIONS_FILE,
    stringify([["locode", "lat", "lng", "osm_name", "osm_object", "source"], ...rows])
  );
  console.log(
    `${rows.length} positions written; precision on codes UNECE places: ${within}/${checked} = ` +
      `${((100 * within) / checked).toFixed(1)} % within ${SAME_PLACE_KM} km`
  );
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
