/**
 * Loads ports and terminals from the shipped data (sea-ports package, data/ports-overlay.csv,
 * data/terminals.csv) and from what the importers stored in a data directory
 * (DIR/places/unlocode.json, DIR/places/terminals.csv), and builds the engine's place parts.
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "./csv";
import { MODALITIES, Modality, Port } from "../engine/types";
import {
  LOCODE_PATTERN,
  makeTerminal,
  PlaceIndex,
  placeEntries,
  PlaceResolver,
  PortLayer,
  PortRecord,
  PortRegistry,
  TerminalEntry,
  TerminalRegistry,
  TerminalSpec,
  toUnlocodeColumns,
  UnlocodeCollector,
  UnlocodeColumns,
  UnlocodeImportStats,
  UnlocodeLocation,
  UnlocodeTable,
} from "../engine/places";
import { shippedPlaces, ShippedPlaces } from "./places-snapshot";
import { shippedTowns, townsReady, withTowns } from "./places-towns";
import { cachedSnapshot } from "./snapshot/cache";
import { PackedUnlocodeTable, packUnlocode } from "./unlocode-snapshot";

/** The repository's data/ folder (same relative place from src/data and dist/data). */
export const DATA_ROOT = path.resolve(__dirname, "../../data");

export interface PlacesOptions {
  /** Data directory with imported UN/LOCODE locations and terminals. */
  dataDir?: string;
  /** Curated port coordinates; default data/ports-overlay.csv (skipped when missing). */
  overlayFile?: string;
  /** Built-in terminals; default data/terminals.csv (skipped when missing). */
  terminalsFile?: string;
  /** Inland places (cities, rail and road hubs); default data/inland-places.csv. */
  inlandFile?: string;
  /** Every approved UN/LOCODE with its position; default data/places-unlocode.csv (skipped when missing). */
  unlocodeFile?: string;
}

export interface Places {
  ports: PortRegistry;
  terminals: TerminalRegistry;
  resolver: PlaceResolver;
  /**
   * Look-up by code or name; its index is built by `prepare()` (the service calls it before it
   * listens) or else at the first search.
   */
  finder: {
    search(query: string, limit: number): import("../engine/places").PlaceMatch[];
    prepare(): void;
    /** True once the index is built. */
    readonly ready: boolean;
  };
}

const SHIPPED_INLAND = path.join(DATA_ROOT, "inland-places.csv");
/** The UN/LOCODE list with positions, built offline by src/builders/places/build-unlocode-places.ts. */
export const SHIPPED_UNLOCODE = path.join(DATA_ROOT, "places-unlocode.csv");
/** New Chinese codes that are the places older codes stand for in shipping. */
export const SHIPPED_EQUIVALENTS = path.join(DATA_ROOT, "places-code-equivalents.csv");
/** English/local name pairs (Antwerp/Antwerpen), with sources. */
export const SHIPPED_ALIASES = path.join(DATA_ROOT, "place-aliases.csv");
const UNLOCODE_SOURCE =
  "UN/LOCODE 2024-2, UNECE (https://unece.org/trade/uncefact/unlocode); positions missing there from GeoNames (CC BY 4.0), OpenStreetMap (© OpenStreetMap contributors, ODbL) and the NGA World Port Index (public domain) — data/places-unlocode.csv";
const SHIPPED_OVERLAY = path.join(DATA_ROOT, "ports-overlay.csv");
const SHIPPED_TERMINALS = path.join(DATA_ROOT, "terminals.csv");

/** The overlay ports and the terminals of two files (either may be missing: none from it). */
function readPlaceFiles(
  overlayFile: string,
  terminalsFile: string,
  inlandFile: string
): ShippedPlaces {
  return {
    overlay: fs.existsSync(overlayFile) ? readPortOverlay(overlayFile) : [],
    inland: fs.existsSync(inlandFile) ? readInlandPlaces(inlandFile) : [],
    terminals: fs.existsSync(terminalsFile)
      ? readTerminalsCsv(terminalsFile).map(makeTerminal)
      : [],
    seaPorts: [],
    equivalents: fs.existsSync(SHIPPED_EQUIVALENTS) ? readCodeEquivalents(SHIPPED_EQUIVALENTS) : [],
    aliases: fs.existsSync(SHIPPED_ALIASES) ? readPlaceAliases(SHIPPED_ALIASES) : [],
  };
}

export function loadPlaces(options: PlacesOptions = {}): Places {
  const overlayFile = options.overlayFile ?? SHIPPED_OVERLAY;
  const terminalsFile = options.terminalsFile ?? SHIPPED_TERMINALS;
  const inlandFile = options.inlandFile ?? SHIPPED_INLAND;
  // The shipped files come from their snapshot; files a caller names are read as they are.
  const shipped =
    overlayFile === SHIPPED_OVERLAY &&
    terminalsFile === SHIPPED_TERMINALS &&
    inlandFile === SHIPPED_INLAND;
  const files = shipped
    ? shippedPlaces(
        {
          overlay: overlayFile,
          terminals: terminalsFile,
          inland: inlandFile,
          seaPorts: seaPortsFile(),
          seaPortsCorrections: SEA_PORTS_CORRECTIONS,
          equivalents: SHIPPED_EQUIVALENTS,
          aliases: SHIPPED_ALIASES,
        },
        () => ({
          ...readPlaceFiles(overlayFile, terminalsFile, inlandFile),
          seaPorts: [...seaPortsLayer().values()],
        })
      )
    : readPlaceFiles(overlayFile, terminalsFile, inlandFile);
  const layers: PortLayer[] = [];
  const overlay = indexByLocode(files.overlay);
  if (files.overlay.length) layers.push({ label: "port overlay", records: overlay });
  // Codes that name the same place as an older code: right below the code they stand for.
  const same = sameplaceRecords(files.equivalents, overlay);
  if (same.size) layers.push({ label: "same place", records: same });
  // Checked by hand like the overlay, so above the big lists.
  if (files.inland.length)
    layers.push({ label: "inland places", records: indexByLocode(files.inland) });
  // A data directory's import, else a full list placed beside the shipped data (not in the
  // repository: `route-sheets data import-unlocode --data-dir data FILES` writes it there).
  const unlocodeFile = [
    options.dataDir ? unlocodeStorePath(options.dataDir) : undefined,
    unlocodeStorePath(DATA_ROOT),
  ].find((f) => f !== undefined && fs.existsSync(f));
  if (unlocodeFile) {
    // Built on first lookup: most runs only need a few codes, and the import has ~115,000.
    layers.push({ label: "UN/LOCODE list", records: () => readUnlocodeStore(unlocodeFile) });
  }
  layers.push({
    label: "sea-ports list",
    // From the snapshot when shipped; otherwise read at the first code the other layers lack.
    records: files.seaPorts.length ? indexByLocode(files.seaPorts) : seaPortsLayer,
  });
  // Last: every approved code, its position checked (data/places-unlocode.csv); read from its
  // own snapshot at the first code the layers above lack (or when the search index is built).
  const listFile = options.unlocodeFile ?? SHIPPED_UNLOCODE;
  if (fs.existsSync(listFile))
    layers.push({
      label: "UN/LOCODE list 2024-2",
      records:
        listFile === SHIPPED_UNLOCODE
          ? shippedUnlocodeTable
          : () => new UnlocodeTable(readShippedUnlocode(listFile), `${UNLOCODE_SOURCE} (${listFile})`),
    });
  const ports = new PortRegistry(layers);

  const terminalEntries: TerminalEntry[] = [...files.terminals];
  const importedTerminals = options.dataDir ? terminalStorePath(options.dataDir) : undefined;
  if (importedTerminals && fs.existsSync(importedTerminals)) {
    terminalEntries.push(...readTerminalsCsv(importedTerminals).map(makeTerminal));
  }
  const terminals = new TerminalRegistry(terminalEntries);
  let index: PlaceIndex | undefined;
  const finder = {
    // Towns (data/places-towns.csv) only for names the places have no exact match for.
    search: withTowns((query: string, limit: number) => placeIndex().search(query, limit), shippedTowns),
    // The towns too: a first unknown name must not build their index on the event loop.
    prepare: () => {
      placeIndex();
      shippedTowns();
    },
    get ready() {
      return index !== undefined && townsReady();
    },
  };
  const aliases = aliasesByCode(files.aliases);
  const placeIndex = () => (index ??= new PlaceIndex(placeEntries(ports, terminals.all(), aliases)));
  return { ports, terminals, resolver: new PlaceResolver(ports, terminals), finder };
}

const defaultPlaces = new Map<string, Places>();

/** Places loaded once per data directory (for callers without their own instance). */
export function sharedPlaces(dataDir?: string): Places {
  const key = dataDir ? path.resolve(dataDir) : "";
  let places = defaultPlaces.get(key);
  if (!places) defaultPlaces.set(key, (places = loadPlaces({ dataDir })));
  return places;
}

/** A port's coordinates and name (overlay > imported UN/LOCODE > sea-ports), or undefined. */
export function portOf(locode: string, dataDir?: string): Port | undefined {
  const code = locode.replace(/[\s-]+/g, "").toUpperCase();
  return sharedPlaces(dataDir).ports.get(code);
}

// ---------------------------------------------------------------------------------------------
// sea-ports

interface SeaPortsEntry {
  name: string;
  coordinates?: [number, number];
}

let seaPortsCache: ReadonlyMap<string, PortRecord> | undefined;

function seaPortsFile(): string {
  return require.resolve("sea-ports/lib/ports.json");
}

/** Positions in sea-ports that are wrong there (swapped latitude and longitude), with sources. */
export const SEA_PORTS_CORRECTIONS = path.join(DATA_ROOT, "sea-ports-corrections.csv");

/**
 * sea-ports' lib/ports.json: LOCODE → {name, coordinates: [lng, lat]}, with the positions of
 * data/sea-ports-corrections.csv in place of the ones it gets wrong.
 */
export function seaPortsLayer(): ReadonlyMap<string, PortRecord> {
  if (seaPortsCache) return seaPortsCache;
  const file = seaPortsFile();
  const { version } = JSON.parse(
    fs.readFileSync(path.join(path.dirname(file), "..", "package.json"), "utf8")
  ) as { version: string };
  const source = `sea-ports ${version} (npm package, lib/ports.json; https://www.npmjs.com/package/sea-ports)`;
  const raw = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, SeaPortsEntry>;
  const map = new Map<string, PortRecord>();
  for (const [locode, entry] of Object.entries(raw)) {
    if (!LOCODE_PATTERN.test(locode)) continue;
    const c = entry.coordinates;
    const usable =
      Array.isArray(c) && c.length === 2 && Number.isFinite(c[0]) && Number.isFinite(c[1]);
    map.set(
      locode,
      usable
        ? { locode, name: entry.name, lng: c[0], lat: c[1], source }
        : { locode, name: entry.name, source }
    );
  }
  for (const fix of readSeaPortsCorrections(SEA_PORTS_CORRECTIONS)) {
    const entry = map.get(fix.locode);
    if (entry)
      map.set(fix.locode, {
        ...entry,
        ...(fix.name ? { name: fix.name } : {}),
        lat: fix.lat,
        lng: fix.lng,
        source: fix.source,
      });
  }
  return (seaPortsCache = map);
}

export interface SeaPortsCorrection {
  locode: string;
  lat: number;
  lng: number;
  /** The code's name when sea-ports gives another place's. */
  name: string;
  reason: string;
  source: string;
}

export function readSeaPortsCorrections(file: string): SeaPortsCorrection[] {
  if (!fs.existsSync(file)) return [];
  return readCsvObjects(file, ["locode", "lat", "lng", "source"]).map(({ row, line }) => {
    const where = `${file}:${line}`;
    return {
      locode: checkLocode(row.locode, where),
      lat: coordinate(row.lat, 90, "lat", where),
      lng: coordinate(row.lng, 180, "lng", where),
      name: row.name ?? "",
      reason: row.reason ?? "",
      source: row.source || path.basename(file),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The shipped UN/LOCODE list, code equivalents and name aliases

/** data/places-unlocode.csv as columns (the engine's UnlocodeTable reads them as they are). */
export function readShippedUnlocode(file: string): UnlocodeColumns {
  const rows = readCsvObjects(file, ["locode", "name", "function", "lat", "lng", "basis"]);
  const columns: Required<UnlocodeColumns> = {
    locodes: "",
    names: [],
    subdivisions: [],
    statuses: [],
    functions: [],
    lat: [],
    lng: [],
    basis: [],
    population: [],
    regions: [],
  };
  const codes: string[] = [];
  let previous = "";
  for (const { row, line } of rows) {
    const where = `${file}:${line}`;
    const locode = checkLocode(row.locode, where);
    // The table looks codes up by binary search.
    if (locode <= previous) throw new Error(`${where}: ${locode} is out of order`);
    previous = locode;
    codes.push(locode);
    columns.names.push(row.name);
    columns.subdivisions.push(row.subdivision ?? "");
    columns.statuses.push(row.status ?? "");
    columns.functions.push(row.function);
    const has = row.lat !== "" && row.lng !== "";
    columns.lat.push(has ? coordinate(row.lat, 90, "lat", where) : null);
    columns.lng.push(has ? coordinate(row.lng, 180, "lng", where) : null);
    columns.basis.push(row.basis ?? "");
    columns.population.push(Number(row.population) || 0);
    columns.regions.push(row.region ?? "");
  }
  columns.locodes = codes.join("");
  return columns;
}

/** Two function classifiers together: each place is a function's digit or "-". */
function mergeFunctions(a: string, b: string): string {
  let out = "";
  for (let i = 0; i < 8; i++) out += a[i] !== "-" ? a[i] : b[i];
  return out;
}

let unlocodeTable: PackedUnlocodeTable | undefined;

/**
 * The shipped list, from its snapshot of typed arrays (data/unlocode-snapshot.ts; one per
 * process: it never changes while running).
 */
export function shippedUnlocodeTable(): PackedUnlocodeTable {
  return (unlocodeTable ??= new PackedUnlocodeTable(
    cachedSnapshot(
      "places-unlocode",
      {
        dataFiles: [SHIPPED_UNLOCODE],
        code: ["data/places", "data/unlocode-snapshot", "engine/places/unlocode-table"],
      },
      () => packUnlocode(readShippedUnlocode(SHIPPED_UNLOCODE))
    ).value,
    UNLOCODE_SOURCE
  ));
}

export interface CodeEquivalent {
  code: string;
  /** The new code's name in the list ("Shanghai Pt"). */
  name: string;
  /** The new code's function classifier in the list. */
  functions: string;
  sameAs: string;
  source: string;
}

export function readCodeEquivalents(file: string): CodeEquivalent[] {
  return readCsvObjects(file, ["code", "name", "function", "same_as", "source"]).map(({ row, line }) => {
    const where = `${file}:${line}`;
    if (!row.source) throw new Error(`${where}: source is empty`);
    if (!FUNCTIONS_PATTERN.test(row.function))
      throw new Error(`${where}: function "${row.function}" is not a UN/LOCODE function classifier`);
    return {
      code: checkLocode(row.code, where),
      name: row.name,
      functions: row.function,
      sameAs: checkLocode(row.same_as, where),
      source: row.source,
    };
  });
}

export interface PlaceAlias {
  alias: string;
  locode: string;
  source: string;
}

export function readPlaceAliases(file: string): PlaceAlias[] {
  return readCsvObjects(file, ["alias", "locode", "source"]).map(({ row, line }) => {
    const where = `${file}:${line}`;
    if (!row.alias) throw new Error(`${where}: alias is empty`);
    if (!row.source) throw new Error(`${where}: source is empty`);
    return { alias: row.alias, locode: checkLocode(row.locode, where), source: row.source };
  });
}

function aliasesByCode(aliases: readonly PlaceAlias[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const a of aliases) {
    const list = out.get(a.locode);
    if (list) list.push(a.alias);
    else out.set(a.locode, [a.alias]);
  }
  return out;
}

/**
 * A record per new code at the place of the code it stands for (its overlay port), named as the
 * list names the new code.
 */
function sameplaceRecords(
  equivalents: readonly CodeEquivalent[],
  overlay: ReadonlyMap<string, PortRecord>
): Map<string, PortRecord> {
  const out = new Map<string, PortRecord>();
  for (const e of equivalents) {
    const target = overlay.get(e.sameAs);
    if (!target) continue;
    out.set(e.code, {
      ...target,
      locode: e.code,
      name: e.name || target.name,
      aliases: [target.name],
      functions: e.functions,
      source: e.source,
      basis: `same place as ${e.sameAs}`,
    });
  }
  // The older code keeps the meaning of its new codes (CNSHA: the port and city of Shanghai,
  // not the airport the list now calls it): their functions together.
  for (const e of equivalents) {
    const target = overlay.get(e.sameAs);
    if (!target) continue;
    const old = out.get(e.sameAs) ?? { ...target, functions: "--------" };
    out.set(e.sameAs, { ...old, functions: mergeFunctions(old.functions ?? "--------", e.functions) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// CSV helpers

/**
 * Text of a file written in UTF-8 or Latin-1 (UNECE has published both). Bytes that are not valid
 * UTF-8 are read as Windows-1252, the superset of Latin-1 that the WHATWG "latin1" label means.
 */
export function readTextFile(file: string): string {
  const bytes = fs.readFileSync(file);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder("latin1").decode(bytes);
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function readCsvObjects(
  file: string,
  required: string[]
): { row: Record<string, string>; line: number }[] {
  const records = parse(readTextFile(file), {
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    comment: "#",
    comment_no_infix: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
  }) as { record: Record<string, string>; info: { lines: number } }[];
  if (records.length) {
    const missing = required.filter((c) => !(c in records[0].record));
    if (missing.length)
      throw new Error(
        `${file}: missing column(s) ${missing.join(", ")}; expected ${required.join(",")}`
      );
  }
  return records.map((r) => ({ row: r.record, line: r.info.lines }));
}

function coordinate(value: string, limit: number, what: string, where: string): number {
  const n = Number(value);
  if (value === "" || !Number.isFinite(n) || Math.abs(n) > limit)
    throw new Error(`${where}: ${what} "${value}" is not a number in [-${limit},${limit}]`);
  return n;
}

function checkLocode(value: string, where: string): string {
  const code = value.replace(/[\s-]+/g, "").toUpperCase();
  if (!LOCODE_PATTERN.test(code)) throw new Error(`${where}: "${value}" is not a UN/LOCODE`);
  return code;
}

function indexByLocode(records: Iterable<PortRecord>): Map<string, PortRecord> {
  const map = new Map<string, PortRecord>();
  for (const r of records) map.set(r.locode, r);
  return map;
}

// ---------------------------------------------------------------------------------------------
// Port overlay: locode,name,country,lat,lng,kind,source

export const PORT_OVERLAY_COLUMNS = ["locode", "name", "country", "lat", "lng", "kind", "source"];

export function readPortOverlay(file: string): PortRecord[] {
  return readCsvObjects(file, ["locode", "name", "lat", "lng", "source"]).map(({ row, line }) => {
    const where = `${file}:${line}`;
    const locode = checkLocode(row.locode, where);
    const record: PortRecord = {
      locode,
      name: row.name || locode,
      lat: coordinate(row.lat, 90, "lat", where),
      lng: coordinate(row.lng, 180, "lng", where),
      source: row.source || `${path.basename(file)}`,
    };
    if (row.kind) record.kind = row.kind;
    return record;
  });
}

// ---------------------------------------------------------------------------------------------
// Inland places: locode,name,lat,lng,functions,aliases,source

export const INLAND_PLACE_COLUMNS = ["locode", "name", "lat", "lng", "functions", "aliases", "source"];

const FUNCTIONS_PATTERN = /^[0-9B-]{8}$/;

/** Cities, rail and road hubs that lane sheets use; `functions` is the UN/LOCODE classifier. */
export function readInlandPlaces(file: string): PortRecord[] {
  return readCsvObjects(file, ["locode", "name", "lat", "lng", "functions", "source"]).map(
    ({ row, line }) => {
      const where = `${file}:${line}`;
      if (!row.name) throw new Error(`${where}: place name is empty`);
      if (!FUNCTIONS_PATTERN.test(row.functions))
        throw new Error(
          `${where}: functions "${row.functions}" is not a UN/LOCODE function classifier (8 characters of 0-9, B or -, e.g. -23-----)`
        );
      if (!row.source) throw new Error(`${where}: source is empty`);
      const aliases = (row.aliases ?? "")
        .split(";")
        .map((a) => a.trim())
        .filter(Boolean);
      return {
        locode: checkLocode(row.locode, where),
        name: row.name,
        lat: coordinate(row.lat, 90, "lat", where),
        lng: coordinate(row.lng, 180, "lng", where),
        functions: row.functions,
        ...(aliases.length ? { aliases } : {}),
        source: row.source,
      };
    }
  );
}

// ---------------------------------------------------------------------------------------------
// Terminals: locode,name,lat,lng,modalities,operator,source

export const TERMINAL_COLUMNS = [
  "locode",
  "name",
  "lat",
  "lng",
  "modalities",
  "operator",
  "source",
];

export function readTerminalsCsv(file: string): TerminalSpec[] {
  return readCsvObjects(file, ["locode", "name", "lat", "lng", "modalities"]).map(
    ({ row, line }) => {
      const where = `${file}:${line}`;
      if (!row.name) throw new Error(`${where}: terminal name is empty`);
      return {
        locode: checkLocode(row.locode, where),
        name: row.name,
        lat: coordinate(row.lat, 90, "lat", where),
        lng: coordinate(row.lng, 180, "lng", where),
        modalities: parseModalities(row.modalities ?? "", where),
        operator: row.operator || undefined,
        source: row.source || undefined,
      };
    }
  );
}

function parseModalities(value: string, where: string): Modality[] {
  const out: Modality[] = [];
  for (const raw of value.split(/[;|]/)) {
    const m = raw.trim().toUpperCase();
    if (!m) continue;
    if (!(MODALITIES as readonly string[]).includes(m)) {
      throw new Error(`${where}: modality "${raw.trim()}" is not one of ${MODALITIES.join(", ")}`);
    }
    if (!out.includes(m as Modality)) out.push(m as Modality);
  }
  return out;
}

export function terminalStorePath(dataDir: string): string {
  return path.join(dataDir, "places", "terminals.csv");
}

export interface TerminalImportResult {
  /** Rows read from the file. */
  read: number;
  /** Terminals in the data directory after the import. */
  stored: number;
  file: string;
}

/** Adds the terminals of `file` to the data directory; same locode + name replaces the stored one. */
export function importTerminals(file: string, dataDir: string): TerminalImportResult {
  const incoming = readTerminalsCsv(file);
  const store = terminalStorePath(dataDir);
  const byId = new Map<string, TerminalSpec>();
  if (fs.existsSync(store))
    for (const t of readTerminalsCsv(store)) byId.set(makeTerminal(t).id, t);
  for (const t of incoming) byId.set(makeTerminal(t).id, t);
  const rows = [...byId.values()].map((t) => [
    t.locode,
    t.name,
    t.lat,
    t.lng,
    t.modalities.join(";"),
    t.operator ?? "",
    t.source ?? `imported from ${path.basename(file)}`,
  ]);
  fs.mkdirSync(path.dirname(store), { recursive: true });
  writeAtomically(store, stringify([TERMINAL_COLUMNS, ...rows]));
  return { read: incoming.length, stored: rows.length, file: store };
}

// ---------------------------------------------------------------------------------------------
// UN/LOCODE code list

const UNLOCODE_FORMAT = "route-sheets/unlocode@2";

interface UnlocodeStore extends UnlocodeColumns {
  format: string;
  source: string;
  importedAt: string;
  files: string[];
  stats: UnlocodeImportStats;
}

export function unlocodeStorePath(dataDir: string): string {
  return path.join(dataDir, "places", "unlocode.json");
}

/** Parses UNECE code-list files (no header row; UTF-8 or Latin-1) into locations. */
export function readUnlocodeFiles(files: string[]): {
  locations: UnlocodeLocation[];
  stats: UnlocodeImportStats;
} {
  const collector = new UnlocodeCollector();
  for (const file of files) {
    checkCodeListFile(file);
    const rows = parse(readTextFile(file), {
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as string[][];
    for (const row of rows) collector.add(row);
  }
  return { locations: collector.locations(), stats: collector.stats() };
}

export interface UnlocodeImportResult extends UnlocodeImportStats {
  file: string;
}

/**
 * Refuses what cannot be a UNECE code-list CSV before it is parsed: an empty file, a binary one
 * (NUL bytes, as in a spreadsheet or archive) or JSON.
 */
function checkCodeListFile(file: string): void {
  const name = path.basename(file);
  const head = fs.readFileSync(file).subarray(0, 64 * 1024);
  if (head.length === 0 || head.toString("utf8").trim() === "")
    throw new Error(`${name} is empty: expected a UN/LOCODE code-list CSV (UNECE's CodeListPart1.csv …)`);
  if (head.includes(0))
    throw new Error(`${name} is a binary file, not a UN/LOCODE code-list CSV (UTF-8 or Latin-1 text)`);
  const first = head.toString("utf8").replace(/^\uFEFF/, "").trimStart()[0];
  if (first === "{" || first === "[")
    throw new Error(`${name} is JSON, not a UN/LOCODE code-list CSV (comma-separated, no header row)`);
}

/**
 * Replaces the data directory's UN/LOCODE locations with those of `files`. Files that hold no
 * location (not the code list) are refused before anything is written: the previous import stays.
 */
export function importUnlocode(files: string[], dataDir: string): UnlocodeImportResult {
  const { locations, stats } = readUnlocodeFiles(files);
  if (locations.length === 0)
    throw new Error(
      `No UN/LOCODE locations in ${files.map((f) => path.basename(f)).join(", ")} ` +
        `(${stats.rows} rows, ${stats.malformed} malformed): not a UNECE code-list CSV; the previous import is kept.`
    );
  const names = files.map((f) => path.basename(f));
  const store: UnlocodeStore = {
    format: UNLOCODE_FORMAT,
    source: `UN/LOCODE code list, UNECE (https://unece.org/trade/uncefact/unlocode), imported from ${names.join(", ")}`,
    importedAt: new Date().toISOString(),
    files: names,
    stats,
    ...toUnlocodeColumns(locations),
  };
  const file = unlocodeStorePath(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeAtomically(file, JSON.stringify(store));
  return { ...stats, file };
}

/** The stored UN/LOCODE list (written by importUnlocode). */
export function readUnlocodeStore(file: string): UnlocodeTable {
  const store = JSON.parse(fs.readFileSync(file, "utf8")) as UnlocodeStore;
  if (store.format !== UNLOCODE_FORMAT) {
    throw new Error(
      `${file}: not a UN/LOCODE store of this version (format ${store.format}); re-run route-sheets data import-unlocode`
    );
  }
  return new UnlocodeTable(store, store.source);
}

function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}
