/**
 * `route-sheets lanes --footprint`: each lane's result with its ISO 14083 method block, for
 * reporting, as JSON and CSV. The figures are the engine's one emission model (the same as the
 * sheet's co2e columns and /emissions?include=method); the document itself is shaped by
 * src/client/footprint.ts, which the task pane's "Export footprint" shares.
 */
import { emissionsReport, frameworkOf } from "../engine/emissions";
import {
  failedLane,
  FootprintDocument,
  footprintDocument,
  LaneFootprint,
  laneFootprint as shapeLane,
} from "../client/footprint";
import { isBlankLane, isHeaderRow, LaneCalculator, LaneRow, readHeader } from "./lane-sheet";
import { rowOf, type ParsedSheet } from "./lane-csv";

export {
  FOOTPRINT_CSV_COLUMNS,
  FOOTPRINT_FORMAT,
  footprintCsv,
  type FootprintDocument,
  type LaneFootprint,
} from "../client/footprint";

/**
 * One footprint per lane of the sheet, in order, each row read as the lane sheet reads it (names,
 * decimal commas, the same words for a problem); blank rows and a repeated header are left out,
 * as the pane's export leaves them out. A bad row carries its error.
 */
export function laneFootprints(
  lanes: LaneCalculator,
  { records }: ParsedSheet,
  now: Date = new Date()
): FootprintDocument {
  const columns = records.length ? readHeader(records[0]) : [];
  const entries: LaneFootprint[] = [];
  for (let i = 1; i < records.length; i++) {
    const row = rowOf(columns, records[i]);
    if (isBlankLane(row) || isHeaderRow(row)) continue;
    entries.push(laneFootprint(lanes, row, i + 1));
  }
  const { sets } = lanes;
  return footprintDocument(
    entries,
    { factorSet: sets.currentId, framework: frameworkOf(sets.current) },
    now
  );
}

export function laneFootprint(lanes: LaneCalculator, row: LaneRow, line: number): LaneFootprint {
  let report;
  try {
    report = emissionsReport(lanes.engine, lanes.sets, lanes.query(row), { method: true });
  } catch (err) {
    return failedLane(row, line, lanes.describe(err, row));
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
