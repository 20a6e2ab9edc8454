/**
 * The lane footprint document for reporting (issue 20 item 6), shaped ONCE for both surfaces that
 * write it: `route-sheets lanes --footprint` (from the engine's report) and the task pane's
 * "Export footprint" (from /emissions?include=method answers). Pure and browser-safe: it shapes an
 * emissions answer with its method block into each lane's entry (an iLEAP/PACT-style
 * ShipmentFootprint with one transport chain element and its transport operation category), the
 * whole document, and its CSV.
 */
import { OPTIONAL_COLUMNS } from "./lane-columns";
import { CsvFormat, csvCell, csvDocument, csvNumber, DEFAULT_CSV_FORMAT } from "./csv";
import type { LegEmissionFields, MethodBlock } from "../engine/emissions/report";
import type { Modality } from "../engine/types";

export const FOOTPRINT_FORMAT = "route-sheets/lane-footprints/1";

export const FOOTPRINT_DESCRIPTION =
  "Each lane's well-to-wheel emissions (kg CO2e) with the ISO 14083 method block; shipmentFootprint/toc follow the iLEAP data model (PACT extension) where it fits: numbers there are decimal strings, mass in kg, distance in km, transportActivity in t·km, co2eIntensity in g CO2e per TEU-km.";

/** iLEAP transport modes (ISO 14083 mode names). */
const ILEAP_MODE: Record<Modality, string> = {
  DEEPSEA: "Sea",
  SHORTSEA: "Sea",
  BARGE: "InlandWaterway",
  RAIL: "Rail",
  TRUCK: "Road",
};

/** A lane's row as read from a sheet: column name → cell text. */
export type LaneCells = Record<string, string>;

/** Where a leg starts or ends, as the service resolved it. */
export interface FootprintPlace {
  lat: number;
  lng: number;
  locode?: string;
  name?: string;
}

/** The box the per-TEU and per-tonne figures assume: TEU per container, default cargo payload (t). */
export interface FootprintBox {
  teu: number;
  payloadTonnes: number;
}

/** The answer fields a footprint is made of (an /emissions answer with include=method). */
export interface FootprintResult extends LegEmissionFields {
  distance: number;
}

/** One lane's emissions with what the footprint needs besides the answer's figures. */
export interface FootprintAnswer {
  result: FootprintResult;
  method: MethodBlock;
  origin: FootprintPlace;
  destination: FootprintPlace;
  box: FootprintBox;
}

export interface LaneFootprint {
  /** 1-based row of the sheet (the header is row 1 when the sheet starts at the top). */
  row: number;
  input: Record<string, string>;
  result?: FootprintResult;
  method?: MethodBlock;
  shipmentFootprint?: Record<string, unknown>;
  toc?: Record<string, unknown>;
  error?: string;
}

export interface FootprintDocument {
  format: string;
  description: string;
  generatedAt: string;
  factorSet: string;
  framework: string;
  lanes: LaneFootprint[];
}

/** The optional lane-sheet columns a footprint reads besides origin, destination and modality. */
export const FOOTPRINT_QUERY_COLUMNS = OPTIONAL_COLUMNS;

export type FootprintQuery = { origin: string; destination: string; modality: string } & Partial<
  Record<(typeof FOOTPRINT_QUERY_COLUMNS)[number], string>
>;

/** A cell by column name in any case, trimmed; undefined when absent or blank. */
export function laneCell(row: LaneCells, name: string): string | undefined {
  const key = Object.keys(row).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : row[key]?.trim();
  return v ? v : undefined;
}

/** The emissions query of a lane row: a blank modality means DEEPSEA, as in the functions. */
export function footprintQuery(row: LaneCells): FootprintQuery {
  const query: FootprintQuery = {
    origin: row.origin,
    destination: row.destination,
    modality: row.modality?.trim() ? row.modality : "DEEPSEA",
  };
  for (const name of FOOTPRINT_QUERY_COLUMNS) query[name] = laneCell(row, name);
  return query;
}

/** The row's non-blank cells, as the entry's `input`. */
export function laneInput(row: LaneCells): Record<string, string> {
  const input: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) if (v !== "") input[k] = v;
  return input;
}

/** A lane whose emissions could not be had: its input and the reason. */
export function failedLane(row: LaneCells, line: number, error: string): LaneFootprint {
  return { row: line, input: laneInput(row), error };
}

/** A lane's entry: the answer's figures and method block, as an iLEAP shipment footprint and TOC. */
export function laneFootprint(row: LaneCells, line: number, a: FootprintAnswer): LaneFootprint {
  const { result: r, method: m, box } = a;
  const id = `lane-${line}`;
  const boxes = r.shipment?.containers ?? 1;
  const teu = r.shipment?.teu ?? boxes * box.teu;
  // Cargo mass: the shipment's weight, else the default payload of the boxes (10 t per TEU).
  const tonnes = r.shipment?.weightTons ?? boxes * box.payloadTonnes;
  const km = r.distance / 1000;
  const wtw = r.co2eKg ?? round(r.co2eTeu * teu);
  const ttw = r.co2eKgTtw ?? round(r.co2eTeuTtw! * teu);
  const tocId = `toc-${m.modality}-${m.tradeLane ?? m.region}-${m.fuelType}-${m.containerType}`
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
  return {
    row: line,
    input: laneInput(row),
    result: r,
    method: m,
    shipmentFootprint: {
      shipmentId: id,
      mass: dec(tonnes * 1000),
      tces: [
        {
          tceId: `${id}-tce-1`,
          prevTceIds: [],
          tocId,
          shipmentId: id,
          mass: dec(tonnes * 1000),
          packagingOrTrEqType: "Container",
          packagingOrTrEqAmount: dec(boxes),
          distance: { value: dec(km), unit: "km", dataSource: "Simulated" },
          origin: location(a.origin),
          destination: location(a.destination),
          transportActivity: dec(tonnes * km),
          co2eWTW: dec(wtw),
          co2eTTW: dec(ttw),
        },
      ],
    },
    toc: {
      tocId,
      isVerified: false,
      isAccredited: false,
      description: `${m.modality} ${m.tradeLane ?? m.region}, ${m.containerType}, ${m.fuelType}: ${m.dataType} values (${m.framework}, factor set ${m.factorSet})`,
      mode: ILEAP_MODE[m.modality],
      temperatureControl: /RF$/.test(m.containerType) ? "refrigerated" : "ambient",
      energyCarriers: [{ energyCarrier: m.fuelType }],
      co2eIntensityWTW: dec(r.intensity!.gCo2ePerTeuKm),
      co2eIntensityTTW: dec(
        r.co2eTeu > 0 ? (r.intensity!.gCo2ePerTeuKm * r.co2eTeuTtw!) / r.co2eTeu : 0
      ),
      co2eIntensityThroughput: "TEUkm",
    },
  };
}

/** The document around the lanes; `factorSet`/`framework` name the set the lanes default to. */
export function footprintDocument(
  lanes: LaneFootprint[],
  set: { factorSet: string; framework: string },
  now: Date = new Date()
): FootprintDocument {
  return {
    format: FOOTPRINT_FORMAT,
    description: FOOTPRINT_DESCRIPTION,
    generatedAt: now.toISOString(),
    factorSet: set.factorSet,
    framework: set.framework,
    lanes,
  };
}

function location(p: FootprintPlace): Record<string, unknown> {
  return {
    locationName: p.name ?? p.locode ?? `${p.lat},${p.lng}`,
    ...(p.locode ? { countryCode: p.locode.slice(0, 2), locode: p.locode } : {}),
    lat: p.lat,
    lng: p.lng,
  };
}

/** iLEAP numbers are decimal strings. */
function dec(x: number): string {
  return String(Math.round(x * 1000) / 1000);
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** The footprint's figures, each named with its unit: numbers in every output. */
const FIGURE_COLUMNS = [
  "distance_km",
  "co2e_kg_per_teu",
  "co2e_kg_per_teu_wtt",
  "co2e_kg_per_teu_ttw",
  "co2e_kg_per_ton",
  "co2e_kg_per_ton_wtt",
  "co2e_kg_per_ton_ttw",
  "co2e_kg_shipment",
  "intensity_g_per_teu_km",
  "intensity_g_per_tkm",
] as const;

export const FOOTPRINT_CSV_COLUMNS = [
  "row",
  "origin",
  "destination",
  "modality",
  "containerType",
  "fuelType",
  ...FIGURE_COLUMNS,
  "framework",
  "factor_set",
  "trade_lane",
  "region",
  "data_type",
  "distance_basis",
  "factor_source",
  "error",
] as const;

export type FootprintCsvColumn = (typeof FOOTPRINT_CSV_COLUMNS)[number];

/** One lane as the CSV's cells (numbers as numbers, blanks as undefined); a sheet table takes these. */
export function footprintCells(
  l: LaneFootprint
): Record<FootprintCsvColumn, string | number | undefined> {
  const r = l.result;
  const m = l.method;
  return {
    row: l.row,
    origin: l.input.origin,
    destination: l.input.destination,
    modality: m?.modality ?? l.input.modality,
    containerType: m?.containerType ?? l.input.containerType,
    fuelType: m?.fuelType ?? l.input.fuelType,
    distance_km: r ? r.distance / 1000 : undefined,
    co2e_kg_per_teu: r?.co2eTeu,
    co2e_kg_per_teu_wtt: r?.co2eTeuWtt,
    co2e_kg_per_teu_ttw: r?.co2eTeuTtw,
    co2e_kg_per_ton: r?.co2eTon,
    co2e_kg_per_ton_wtt: r?.co2eTonWtt,
    co2e_kg_per_ton_ttw: r?.co2eTonTtw,
    co2e_kg_shipment: r?.co2eKg,
    intensity_g_per_teu_km: r?.intensity?.gCo2ePerTeuKm,
    intensity_g_per_tkm: r?.intensity?.gCo2ePerTkm,
    framework: m?.framework,
    factor_set: m?.factorSet,
    trade_lane: m?.tradeLane,
    region: m?.region,
    data_type: m?.dataType,
    distance_basis: m?.distanceBasis,
    factor_source: m?.factorSource.join(" | "),
    error: l.error,
  };
}

/** The footprint's columns holding a number: a CSV writes them with its decimal mark, a sheet keeps them numbers. */
export const FOOTPRINT_NUMBER_COLUMNS: ReadonlySet<FootprintCsvColumn> = new Set([
  "row",
  ...FIGURE_COLUMNS,
]);

/** km and kg at the precision every surface shows them: 0.1 (intensities as answered). */
const ONE_DECIMAL: ReadonlySet<FootprintCsvColumn> = new Set(
  FIGURE_COLUMNS.filter((c) => !c.startsWith("intensity"))
);

/** One of the sheet's own columns: `key` into each lane's input, `title` as the header typed it. */
export interface SheetColumn {
  key: string;
  title: string;
}

export interface FootprintCsvOptions {
  /** Delimiter, decimal mark and byte-order mark (default: comma, point, none). */
  format?: CsvFormat;
  /**
   * The sheet's own columns: each is kept, after `row`, with the cells the lane had (the
   * analyst's lane id included); the footprint's own columns follow, those that share a name with
   * one of the sheet's named `<name>_used` (the value the footprint used).
   */
  inputColumns?: ReadonlyArray<SheetColumn>;
}

/** The footprint as a table: one shape for the CSV of the CLI and of the pane, and the pane's sheet. */
export interface FootprintTable {
  header: string[];
  /** Numbers as numbers (km and kg at 0.1), text as text, blanks as "". */
  rows: Array<Array<string | number>>;
  /** Per column: true when it holds numbers (the sheet's own columns are text as typed). */
  numeric: boolean[];
}

export function footprintTable(
  doc: FootprintDocument,
  inputColumns: ReadonlyArray<SheetColumn> = []
): FootprintTable {
  const taken = new Set(inputColumns.map((c) => c.title.trim().toLowerCase()));
  // With the sheet's columns, origin and destination are the sheet's own cells.
  const own = FOOTPRINT_CSV_COLUMNS.filter(
    (c) => c !== "row" && !(inputColumns.length && (c === "origin" || c === "destination"))
  );
  const cell = (v: string | number | undefined, c: FootprintCsvColumn): string | number => {
    if (v === undefined) return "";
    if (typeof v !== "number" || !FOOTPRINT_NUMBER_COLUMNS.has(c)) return String(v);
    return ONE_DECIMAL.has(c) ? Math.round(v * 10) / 10 : v;
  };
  return {
    header: [
      "row",
      ...inputColumns.map((c) => c.title),
      ...own.map((c) => (taken.has(c.toLowerCase()) ? `${c}_used` : c)),
    ],
    rows: doc.lanes.map((l) => {
      const v = footprintCells(l);
      return [
        l.row,
        ...inputColumns.map((c) => l.input[c.key] ?? ""),
        ...own.map((c) => cell(v[c], c)),
      ];
    }),
    numeric: [
      true,
      ...inputColumns.map(() => false),
      ...own.map((c) => FOOTPRINT_NUMBER_COLUMNS.has(c)),
    ],
  };
}

/**
 * The footprints as CSV (one row per lane; factor sources joined with " | "), in the sheet's
 * delimiter, decimal mark and byte-order mark.
 */
export function footprintCsv(doc: FootprintDocument, options: FootprintCsvOptions = {}): string {
  const format = options.format ?? DEFAULT_CSV_FORMAT;
  const table = footprintTable(doc, options.inputColumns);
  const text = (x: string | number) => (typeof x === "number" ? csvNumber(x, format.decimal) : x);
  return csvDocument([table.header, ...table.rows.map((r) => r.map(text))], format);
}

/** A cell made safe for a spreadsheet (see csv.ts: the one escaping every CSV goes through). */
export const csvSafe = csvCell;
