/**
 * Import of a plain CSV of connections, one row per leg:
 * operator_scac,service_code,modality,origin_locode,origin_terminal,departure,destination_locode,
 * destination_terminal,arrival,vessel_name,vessel_imo,vessel_mmsi
 * (times ISO 8601 with offset; terminal and vessel columns may be empty). Each row is one voyage.
 */
import { PlausibilityOptions, voyageProblems } from "./plausibility";
import { parse } from "csv-parse/sync";
import { LOCODE_PATTERN } from "../../places/parse-place";
import { isScheduledModality, SCHEDULED_MODALITIES, VoyageDef } from "../model";
import { ImportResult } from "./dcsa";

export const CSV_COLUMNS = [
  "operator_scac",
  "service_code",
  "modality",
  "origin_locode",
  "origin_terminal",
  "departure",
  "destination_locode",
  "destination_terminal",
  "arrival",
  "vessel_name",
  "vessel_imo",
  "vessel_mmsi",
] as const;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

export function parseConnectionsCsv(
  text: string,
  options: { source: string } & PlausibilityOptions
): ImportResult {
  const rows: Record<string, string>[] = parse(text, {
    columns: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  });
  const header = rows.length ? Object.keys(rows[0]) : firstLine(text);
  const missing = CSV_COLUMNS.filter((c) => !header.includes(c));
  if (missing.length)
    throw new Error(
      `CSV of connections: missing column(s) ${missing.join(", ")}; expected ${CSV_COLUMNS.join(",")}.`
    );
  const errors: string[] = [];
  const voyages: VoyageDef[] = [];
  rows.forEach((r, i) => {
    const line = i + 2;
    const problems: string[] = [];
    const modality = r.modality.toUpperCase();
    if (!r.operator_scac) problems.push("operator_scac is empty");
    if (!r.service_code) problems.push("service_code is empty");
    if (!isScheduledModality(modality))
      problems.push(`modality "${r.modality}" is not one of ${SCHEDULED_MODALITIES.join(", ")}`);
    for (const c of ["origin_locode", "destination_locode"] as const) {
      if (!LOCODE_PATTERN.test(r[c].toUpperCase()))
        problems.push(`${c} "${r[c]}" is not a UN/LOCODE`);
    }
    for (const c of ["departure", "arrival"] as const) {
      if (!TIME.test(r[c]) || !Number.isFinite(Date.parse(r[c])))
        problems.push(`${c} "${r[c]}" is not an ISO 8601 date-time with offset`);
    }
    if (!problems.length && Date.parse(r.arrival) <= Date.parse(r.departure))
      problems.push("arrival is not after departure");
    if (problems.length) {
      errors.push(`line ${line}: ${problems.join("; ")}`);
      return;
    }
    const origin: VoyageDef["calls"][number] = {
      locode: r.origin_locode.toUpperCase(),
      departure: r.departure,
    };
    if (r.origin_terminal) origin.terminal = r.origin_terminal;
    const destination: VoyageDef["calls"][number] = {
      locode: r.destination_locode.toUpperCase(),
      arrival: r.arrival,
    };
    if (r.destination_terminal) destination.terminal = r.destination_terminal;
    const voyage: VoyageDef = {
      operator: r.operator_scac.toUpperCase(),
      serviceCode: r.service_code,
      modality: modality as VoyageDef["modality"],
      calls: [origin, destination],
      source: `${options.source} line ${line}`,
    };
    if (r.vessel_name && r.vessel_imo && r.vessel_mmsi)
      voyage.vessel = { name: r.vessel_name, imo: r.vessel_imo, mmsi: r.vessel_mmsi };
    const impossible = voyageProblems(voyage, options);
    if (impossible.length) {
      errors.push(`line ${line}: ${impossible.join("; ")}`);
      return;
    }
    voyages.push(voyage);
  });
  if (errors.length)
    throw new Error(
      `CSV of connections: ${errors.length} invalid row(s): ${errors.slice(0, 20).join(" | ")}`
    );
  return { voyages, operatorCodes: [...new Set(voyages.map((v) => v.operator))], warnings: [] };
}

function firstLine(text: string): string[] {
  return (text.split(/\r?\n/)[0] ?? "").split(",").map((s) => s.trim().replace(/^\uFEFF/, ""));
}
