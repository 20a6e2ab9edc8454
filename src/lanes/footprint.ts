/**
 * `route-sheets lanes --footprint`: each lane's result with its ISO 14083 method block, for
 * reporting, as JSON and CSV. The figures are the engine's one emission model (the same as the
 * sheet's co2e columns and /emissions?include=method); the document itself is shaped by
 * src/client/footprint.ts, which the task pane's "Export footprint" shares.
 */
import { isRouteSheetsError } from "../engine/errors";
import { emissionsReport, FactorSets, frameworkOf } from "../engine/emissions";
import type { RouteEngine } from "../engine/route-engine";
import {
  failedLane,
  FootprintDocument,
  footprintDocument,
  footprintQuery,
  LaneFootprint,
  laneFootprint as shapeLane,
} from "../client/footprint";
import { LaneRow, readHeader } from "./lane-sheet";
import type { ParsedSheet } from "./lane-csv";

export {
  FOOTPRINT_CSV_COLUMNS,
  FOOTPRINT_FORMAT,
  footprintCsv,
  type FootprintDocument,
  type LaneFootprint,
} from "../client/footprint";

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
  return footprintDocument(
    lanes,
    { factorSet: sets.currentId, framework: frameworkOf(sets.current) },
    now
  );
}

export function laneFootprint(
  engine: RouteEngine,
  sets: FactorSets,
  row: LaneRow,
  line: number
): LaneFootprint {
  let report;
  try {
    report = emissionsReport(engine, sets, footprintQuery(row), { method: true });
  } catch (err) {
    return failedLane(row, line, describe(err));
  }
  const { context, method, ...result } = report;
  return shapeLane(row, line, {
    result,
    method: method!,
    origin: context.origin,
    destination: context.destination,
    box: context.box,
  });
}

function describe(err: unknown): string {
  if (isRouteSheetsError(err)) return err.detail;
  return err instanceof Error ? err.message : String(err);
}
