/**
 * "Export footprint": the lanes of a sheet range (header row: origin, destination, modality and
 * the lane sheet's optional columns, any case) asked of /emissions?include=method through the
 * shared client (batched, cached), and shaped into the same document as `route-sheets lanes
 * --footprint` by src/client/footprint.ts. A bad row carries its error; blank lanes (no origin
 * and no destination) are skipped, as the functions leave them blank.
 */
import type { CallOptions } from "../client/api-client";
import { isApiError } from "../client/errors";
import {
  failedLane,
  FootprintAnswer,
  FootprintBox,
  FootprintDocument,
  footprintDocument,
  FootprintPlace,
  footprintQuery,
  FootprintResult,
  LaneCells,
  LaneFootprint,
  laneFootprint,
  SheetColumn,
} from "../client/footprint";
import { PlacesLookup, suggestFor } from "../client/place-lookup";
import { ApiCall, PATHS, PlacesAnswer } from "../client/types";
import type { MethodBlock } from "../engine/emissions/report";
import { readHeader } from "../client/lane-columns";

/** A lane as read from the sheet: its 1-based sheet row and its cells by canonical column name. */
export interface SheetLane {
  row: number;
  cells: LaneCells;
}

/** The calls the export needs (RouteApiClient has them). */
export interface FootprintClient {
  raw(call: ApiCall, options?: CallOptions): Promise<unknown>;
}

/** A cell's value as text, as a CSV of the sheet would hold it. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return String(value);
}

/**
 * The header of a range's values, checked like the CLI's (origin, destination and modality
 * required, names in any case, no duplicates): per used column, its canonical name (`key`), its
 * title as typed and its index. Columns with a blank header (a selection wider than the lanes)
 * are not part of the lanes.
 */
export function sheetColumnsOfGrid(values: unknown[][]): Array<SheetColumn & { index: number }> {
  if (!values.length)
    throw new Error("The selection is empty: select the lanes with their header row.");
  const used = values[0].map((v, c) => [cellText(v), c] as const).filter(([v]) => v.trim());
  const keys = readHeader(used.map(([v]) => v));
  return used.map(([title, index], k) => ({ key: keys[k], title: title.trim(), index }));
}

/**
 * The lanes of a range's values: the first row is the header (checked like the CLI's: origin,
 * destination and modality required, names in any case, no duplicates), `firstRow` the 0-based
 * sheet row of that header. Columns with a blank header and blank lanes are left out.
 */
export function lanesOfGrid(values: unknown[][], firstRow: number): SheetLane[] {
  const columns = sheetColumnsOfGrid(values);
  const lanes: SheetLane[] = [];
  for (let i = 1; i < values.length; i++) {
    const cells: LaneCells = {};
    for (const c of columns) cells[c.key] = cellText(values[i][c.index]);
    if (!cells.origin?.trim() && !cells.destination?.trim()) continue;
    lanes.push({ row: firstRow + i + 1, cells });
  }
  return lanes;
}

/**
 * Lanes asked of the service together (the client batches them into one /batch request); a
 * long sheet goes in slices of this many, so each call settles within the client's deadline
 * however many lanes there are.
 */
export const LANES_PER_SLICE = 200;

/** Each lane asked of the service, in sheet order; `onProgress` after each slice (lanes done). */
export async function laneFootprintsOf(
  client: FootprintClient,
  lanes: SheetLane[],
  now: Date = new Date(),
  onProgress: (done: number) => void = () => {}
): Promise<FootprintDocument> {
  const entries: LaneFootprint[] = [];
  for (let i = 0; i < lanes.length; i += LANES_PER_SLICE) {
    const slice = lanes.slice(i, i + LANES_PER_SLICE);
    entries.push(...(await Promise.all(slice.map((lane) => laneEntry(client, lane)))));
    onProgress(entries.length);
  }
  return footprintDocument(entries, factorSetOf(entries), now);
}

async function laneEntry(client: FootprintClient, lane: SheetLane): Promise<LaneFootprint> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(footprintQuery(lane.cells)))
    if (v !== undefined) query[k] = v;
  let body: unknown;
  try {
    body = await client.raw({
      type: "emissions",
      path: PATHS.emissions,
      query: { ...query, include: "method" },
    });
  } catch (err) {
    return failedLane(lane.cells, lane.row, await wordedAsLanes(client, lane.cells, err));
  }
  const answer = footprintAnswerOf(body);
  if (typeof answer === "string") return failedLane(lane.cells, lane.row, answer);
  return laneFootprint(lane.cells, lane.row, answer);
}

/**
 * An /emissions?include=method answer as the footprint takes it: the figures (without the method
 * block and the ends), the method block, the resolved ends and the box. A message when the
 * service's answer lacks them (a service without the extension).
 */
export function footprintAnswerOf(body: unknown): FootprintAnswer | string {
  const b = (body ?? {}) as Record<string, unknown>;
  const { method, places, box, ...result } = b as {
    method?: MethodBlock;
    places?: { origin?: FootprintPlace; destination?: FootprintPlace };
    box?: FootprintBox;
  } & Record<string, unknown>;
  if (typeof result.co2eTeu !== "number" || typeof result.distance !== "number")
    return "Unexpected answer from the service: expected co2eTeu, co2eTon and distance.";
  if (!method || !places?.origin || !places.destination || !box || !result.intensity)
    return "The service did not answer include=method with the method block, places and box (a Route Sheets service has them).";
  return {
    result: result as unknown as FootprintResult,
    method,
    origin: places.origin,
    destination: places.destination,
    box,
  };
}

/**
 * The document's factor set: the one the lanes use by default (the first answered lane that does
 * not pin a factorSet), else the first answered lane's; empty when none was answered.
 */
function factorSetOf(lanes: LaneFootprint[]): { factorSet: string; framework: string } {
  const answered = lanes.filter((l) => l.method);
  const lane =
    answered.find((l) => !Object.keys(l.input).some((k) => k.toLowerCase() === "factorset")) ??
    answered[0];
  return { factorSet: lane?.method?.factorSet ?? "", framework: lane?.method?.framework ?? "" };
}

/** The service's own message (the CLI writes the same text for the same bad row). */
/**
 * An unknown place worded as `lanes` and the functions word it (`unknown place "KRPUX" — did you
 * mean KRPUS (Busan)?`, from the same places look-up); any other error as the service gave it.
 */
async function wordedAsLanes(client: FootprintClient, cells: LaneCells, err: unknown) {
  const parameter = isApiError(err) && /^(origin|destination) /.exec(err.detail)?.[1];
  const typed = parameter ? cells[parameter]?.trim() : undefined;
  if (!typed || !/ is not a known /.test((err as Error).message)) return describe(err);
  const lookup: PlacesLookup = {
    places: async (params, options) =>
      (await client.raw({ path: PATHS.places, query: { ...params } }, options)) as PlacesAnswer,
  };
  return (await suggestFor(lookup, typed)).message;
}

function describe(err: unknown): string {
  if (isApiError(err)) return err.detail || err.message;
  return err instanceof Error ? err.message : String(err);
}
