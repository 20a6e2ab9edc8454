/**
 * `route-sheets lanes --footprint`: each lane's result with its ISO 14083 method block, for
 * reporting, as JSON (each lane also as an iLEAP/PACT-style ShipmentFootprint with one transport
 * chain element and its transport operation category) and as CSV. The figures are the engine's
 * one emission model (the same as the sheet's co2e columns and /emissions?include=method).
 */
import Papa from "papaparse";
import { isRouteSheetsError } from "../engine/errors";
import { emissionsReport, EmissionsReport, FactorSets, frameworkOf } from "../engine/emissions";
import type { RouteEngine } from "../engine/route-engine";
import { Modality, ResolvedPlace } from "../engine/types";
import { LaneRow, readHeader } from "./lane-sheet";
import type { ParsedSheet } from "./lane-csv";

export const FOOTPRINT_FORMAT = "route-sheets/lane-footprints/1";

/** iLEAP transport modes (ISO 14083 mode names). */
const ILEAP_MODE: Record<Modality, string> = {
  DEEPSEA: "Sea",
  SHORTSEA: "Sea",
  BARGE: "InlandWaterway",
  RAIL: "Rail",
  TRUCK: "Road",
};

export interface LaneFootprint {
  /** 1-based line of the input file (the header is line 1). */
  row: number;
  input: Record<string, string>;
  result?: Omit<EmissionsReport, "context" | "method">;
  method?: EmissionsReport["method"];
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

/** One footprint per data row of the sheet, in order; a bad row carries its error. */
export function laneFootprints(
  engine: RouteEngine,
  sets: FactorSets,
  { records }: ParsedSheet,
  now: Date = new Date()
): FootprintDocument {
  const columns = records.length ? readHeader(records[0]) : [];
  const lanes: LaneFootprint[] = [];
  for (let i = 1; i < records.length; i++) {
    const row: LaneRow = {};
    columns.forEach((name, c) => (row[name] = records[i][c] ?? ""));
    lanes.push(laneFootprint(engine, sets, row, i + 1));
  }
  return {
    format: FOOTPRINT_FORMAT,
    description:
      "Each lane's well-to-wheel emissions (kg CO2e) with the ISO 14083 method block; shipmentFootprint/toc follow the iLEAP data model (PACT extension) where it fits: numbers there are decimal strings, mass in kg, distance in km, transportActivity in t·km, co2eIntensity in g CO2e per TEU-km.",
    generatedAt: now.toISOString(),
    factorSet: sets.currentId,
    framework: frameworkOf(sets.current),
    lanes,
  };
}

function cell(row: LaneRow, name: string): string | undefined {
  const key = Object.keys(row).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : row[key]?.trim();
  return v ? v : undefined;
}

export function laneFootprint(
  engine: RouteEngine,
  sets: FactorSets,
  row: LaneRow,
  line: number
): LaneFootprint {
  const input: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) if (v !== "") input[k] = v;
  const query = {
    origin: row.origin,
    destination: row.destination,
    modality: row.modality?.trim() ? row.modality : "DEEPSEA",
    vesselInfo: cell(row, "vesselInfo"),
    containerType: cell(row, "containerType"),
    fuelType: cell(row, "fuelType"),
    avoid: cell(row, "avoid"),
    via: cell(row, "via"),
    containers: cell(row, "containers"),
    weightTons: cell(row, "weightTons"),
    factorSet: cell(row, "factorSet"),
  };
  let r: EmissionsReport;
  try {
    r = emissionsReport(engine, sets, query, { method: true });
  } catch (err) {
    return { row: line, input, error: describe(err) };
  }
  const { context, method, ...result } = r;
  const id = `lane-${line}`;
  const m = method!;
  const boxes = r.shipment?.containers ?? 1;
  const teu = r.shipment?.teu ?? boxes * context.box.teu;
  // Cargo mass: the shipment's weight, else the default payload of the boxes (10 t per TEU).
  const tonnes = r.shipment?.weightTons ?? boxes * context.box.payloadTonnes;
  const km = r.distance / 1000;
  const wtw = r.co2eKg ?? round(r.co2eTeu * teu);
  const ttw = r.co2eKgTtw ?? round(r.co2eTeuTtw! * teu);
  const tocId = `toc-${m.modality}-${m.tradeLane ?? m.region}-${m.fuelType}-${m.containerType}`
    .replace(/[^A-Za-z0-9]+/g, "-")
    .toLowerCase();
  return {
    row: line,
    input,
    result,
    method,
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
          origin: location(context.origin),
          destination: location(context.destination),
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

function location(p: ResolvedPlace): Record<string, unknown> {
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

function describe(err: unknown): string {
  if (isRouteSheetsError(err)) return err.detail;
  return err instanceof Error ? err.message : String(err);
}

export const FOOTPRINT_CSV_COLUMNS = [
  "row",
  "origin",
  "destination",
  "modality",
  "containerType",
  "fuelType",
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
  "framework",
  "factor_set",
  "trade_lane",
  "region",
  "data_type",
  "distance_basis",
  "factor_source",
  "error",
] as const;

/** The footprints as CSV (one row per lane; factor sources joined with " | "). */
export function footprintCsv(doc: FootprintDocument): string {
  const rows = doc.lanes.map((l) => {
    const r = l.result;
    const m = l.method;
    const v: Record<(typeof FOOTPRINT_CSV_COLUMNS)[number], string | number | undefined> = {
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
    return FOOTPRINT_CSV_COLUMNS.map((c) => safe(v[c] === undefined ? "" : String(v[c])));
  });
  return Papa.unparse([[...FOOTPRINT_CSV_COLUMNS], ...rows], { newline: "\n" }) + "\n";
}

/** Text starting with = + - @ would run as a formula in Excel. */
function safe(cell: string): string {
  return /^[=+@]/.test(cell) || /^-[^\d]/.test(cell) ? `'${cell}` : cell;
}
