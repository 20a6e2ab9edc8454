/**
 * What each ROUTE.* function does, with the client injected so it runs (and is tested) outside
 * Excel. functions.ts holds the thin @customfunction wrappers Excel registers.
 *
 * Per-lane functions (DISTANCE, EMISSIONS, PASSAGES) take each per-lane argument as a cell or a
 * range (see grid.ts) and answer in the same shape; each lane is its own client call, so the
 * client's cache, de-duplication and batch window turn a 5,000-row spill into a few requests, and
 * one bad row gets its own error cell. Called with plain values (not arrays) they answer a plain
 * value, as a single-cell formula shows it.
 */
import { NotCachedError, RouteApiClient } from "../client/api-client";
import { departureOf, distinctRoutings, DistinctRouting } from "../client/distinct-routings";
import type { EmissionsParams, LaneAnswer, RouteOption } from "../client/types";
import { FailureContext, InputError, NoResultError, toExcelError } from "./excel-errors";
import { asGrid, mapGrid } from "./grid";
import { requirePlace } from "./place-type";
import { supportsDataTypes } from "./runtime-features";
import { excelDate, isoDateOf } from "./excel-dates";
import {
  fromMetres,
  METRES_PER_UNIT,
  optionalBoolean,
  optionalInteger,
  optionalText,
  parseAvoid,
  parseBasis,
  parseModality,
  parseUnit,
} from "./units";

/** Shown instead of a value while Excel previews a formula: previews must not spend credits. */
export const PREVIEW_MESSAGE = "Preview: press Enter to compute";

export type Cell = string | number;
/** One answer cell of a spill: a value or Excel's error for that lane. */
export type Answer = Cell | CustomFunctions.Error;
/** What a per-lane function returns: a value for plain arguments, rows of answers for ranges. */
export type LaneResult = Cell | Answer[][];

/** The part of CustomFunctions.Invocation the functions read. */
export interface InvocationLike {
  isInValuePreview?: boolean | string;
  /** Set by Excel on @cancelable functions: called when the user or Excel stops the call. */
  onCanceled?: () => void;
}

export function isPreview(invocation: InvocationLike | null | undefined): boolean {
  const flag = invocation?.isInValuePreview;
  return flag === true || flag === "true";
}

export interface RouteFunctions {
  distance(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    unit?: unknown,
    avoid?: unknown,
    invocation?: InvocationLike
  ): Promise<LaneResult>;
  emissions(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    per?: unknown,
    containerType?: unknown,
    fuelType?: unknown,
    vesselInfo?: unknown,
    avoid?: unknown,
    invocation?: InvocationLike,
    containers?: unknown,
    weightTons?: unknown
  ): Promise<LaneResult>;
  passages(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    avoid?: unknown,
    invocation?: InvocationLike
  ): Promise<LaneResult>;
  lane(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    vesselInfo?: unknown,
    avoid?: unknown,
    containerType?: unknown,
    fuelType?: unknown,
    invocation?: InvocationLike
  ): Promise<unknown[][]>;
  terminals(locode: unknown, name?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  operators(search?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  options(
    origin: unknown,
    destination: unknown,
    modalities?: unknown,
    maxTransfers?: unknown,
    sort?: unknown,
    top?: unknown,
    minDeparture?: unknown,
    maxDeparture?: unknown,
    header?: unknown,
    invocation?: InvocationLike
  ): Promise<unknown[][]>;
}

/** Text of PASSAGES for a route through no canal or strait. */
export const NO_PASSAGES = "none";

export function createRouteFunctions(getClient: () => RouteApiClient): RouteFunctions {
  /** Runs a lookup; in preview from the cache only. Failures become CustomFunctions.Error. */
  async function run<T>(
    invocation: InvocationLike | undefined,
    compute: (cacheOnly: boolean) => Promise<T>,
    preview: T,
    context: FailureContext = {}
  ): Promise<T> {
    try {
      return await cancelable(invocation, compute(isPreview(invocation)));
    } catch (error) {
      if (error instanceof NotCachedError) return preview;
      throw toExcelError(error, context);
    }
  }

  /**
   * Runs `each` for every lane of the ranges; each lane's failure becomes its own error cell. A
   * shape mismatch fails the whole call. Plain arguments give a plain value (or throw).
   */
  async function perLane(
    invocation: InvocationLike | undefined,
    args: Record<string, unknown>,
    each: (cells: Record<string, unknown>, cacheOnly: boolean) => Promise<Cell>
  ): Promise<LaneResult> {
    const cacheOnly = isPreview(invocation);
    const single = singleCells(args);
    if (single) {
      // A single-cell formula (the common case, 10,000 of them in a sheet): no grid to build.
      const asCell = (value: Cell) => (Object.values(args).some(Array.isArray) ? [[value]] : value);
      try {
        return asCell(await cancelable(invocation, each(single, cacheOnly)));
      } catch (error) {
        if (error instanceof NotCachedError) return asCell(PREVIEW_MESSAGE);
        throw toExcelError(error);
      }
    }
    // A 10,000-row sheet repeats its lanes: each distinct row of arguments is worked out once.
    const seen = new Map<string, Promise<Answer>>();
    const settle = (cells: Record<string, unknown>): Promise<Answer> => {
      const key = JSON.stringify(Object.values(cells));
      let answer = seen.get(key);
      if (!answer) {
        answer = each(cells, cacheOnly).catch((error: unknown) =>
          error instanceof NotCachedError ? PREVIEW_MESSAGE : toExcelError(error)
        );
        seen.set(key, answer);
      }
      return answer;
    };
    let rows: Promise<Answer>[][];
    try {
      const grids: Record<string, unknown[][]> = {};
      for (const [name, raw] of Object.entries(args)) grids[name] = asGrid(raw);
      rows = mapGrid(grids, settle);
    } catch (error) {
      throw toExcelError(error);
    }
    const answers = await cancelable(
      invocation,
      Promise.all(rows.map((row) => Promise.all(row)))
    ).catch((error: unknown) => {
      throw toExcelError(error);
    });
    const ranged = Object.values(args).some(Array.isArray);
    if (answers.length === 1 && answers[0].length === 1) {
      const only = answers[0][0];
      // One cell: its error is the formula's error, as Excel shows it for a plain value.
      if (only instanceof CustomFunctions.Error) throw only;
      return ranged ? answers : only;
    }
    return answers;
  }

  /** The emissions query of one lane, checked here so bad rows cost no request. */
  function laneQuery(cells: Record<string, unknown>): EmissionsParams {
    return {
      origin: requirePlace(cells.origin, "origin").value,
      destination: requirePlace(cells.destination, "destination").value,
      modality: parseModality(cells.modality),
      vesselInfo: optionalText(cells.vesselInfo),
      avoid: parseAvoid(cells.avoid),
      containerType: optionalText(cells.containerType),
      fuelType: optionalText(cells.fuelType)?.toUpperCase(),
      ...shipmentOf(cells),
    };
  }

  return {
    distance(origin, destination, modality, vesselInfo, unit, avoid, invocation) {
      let chosenUnit: keyof typeof METRES_PER_UNIT;
      try {
        chosenUnit = parseUnit(unit);
      } catch (error) {
        return Promise.reject(toExcelError(error));
      }
      return perLane(
        invocation,
        { origin, destination, modality, vesselInfo, avoid },
        async (cells, cacheOnly) => {
          const { containerType: _c, fuelType: _f, ...query } = laneQuery(cells);
          const answer = await getClient().distance(query, { cacheOnly });
          return fromMetres(answer.distance, chosenUnit);
        }
      );
    },

    emissions(
      origin,
      destination,
      modality,
      per,
      containerType,
      fuelType,
      vesselInfo,
      avoid,
      invocation,
      containers,
      weightTons
    ) {
      // containers / weightTons (issue 20) are only sent when given: the plain call stays as it was.
      const shipment = containers != null || weightTons != null ? { containers, weightTons } : {};
      return perLane(
        invocation,
        {
          origin,
          destination,
          modality,
          per,
          containerType,
          fuelType,
          vesselInfo,
          avoid,
          ...shipment,
        },
        async (cells, cacheOnly) => {
          const basis = parseBasis(cells.per);
          const answer = await getClient().emissions(laneQuery(cells), { cacheOnly });
          // A shipment answers its total (kg CO2e); a plain call per TEU or per tonne.
          if (answer.co2eKg !== undefined) return answer.co2eKg;
          return basis === "TEU" ? answer.co2eTeu : answer.co2eTon;
        }
      );
    },

    passages(origin, destination, modality, vesselInfo, avoid, invocation) {
      return perLane(
        invocation,
        { origin, destination, modality, vesselInfo, avoid },
        async (cells, cacheOnly) => {
          const answer = await getClient().lane(laneQuery(cells), { cacheOnly });
          return answer.passages.length ? answer.passages.join(", ") : NO_PASSAGES;
        }
      );
    },

    lane(origin, destination, modality, vesselInfo, avoid, containerType, fuelType, invocation) {
      return run<unknown[][]>(
        invocation,
        async (cacheOnly) => {
          const query = laneQuery(
            firstCells({
              origin,
              destination,
              modality,
              vesselInfo,
              avoid,
              containerType,
              fuelType,
            })
          );
          const answer = await getClient().lane(query, { cacheOnly });
          return supportsDataTypes()
            ? [[laneEntity(query, answer)]]
            : [LANE_COLUMNS.slice(), laneRow(query, answer)];
        },
        [[PREVIEW_MESSAGE]]
      );
    },

    terminals(locode, name, invocation) {
      return run<Cell[][]>(
        invocation,
        async (cacheOnly) => {
          const code = optionalText(locode)?.toUpperCase().replace(/\s+/g, "");
          if (!code) throw new InputError("locode is required: a UN/LOCODE such as NLRTM");
          const terminals = await getClient().terminals(
            { terminalLocode: code, terminalName: optionalText(name) },
            { cacheOnly }
          );
          if (terminals.length === 0)
            throw notFound(
              `No terminals found for locode ${code}${optionalText(name) ? ` and name "${optionalText(name)}"` : ""}`
            );
          return terminals.map((t) => [t.name, t.locode, t.id]);
        },
        [[PREVIEW_MESSAGE]]
      );
    },

    operators(search, invocation) {
      return run<Cell[][]>(
        invocation,
        async (cacheOnly) => {
          const needle = optionalText(search)?.toLowerCase();
          const all = await getClient().operators({ cacheOnly });
          const matches = needle
            ? all.filter(
                (o) =>
                  o.name.toLowerCase().includes(needle) ||
                  (o.scac ?? "").toLowerCase().includes(needle)
              )
            : all;
          if (matches.length === 0)
            throw notFound(`No operators match "${optionalText(search)}" by name or SCAC`);
          return matches.map((o) => [o.name, o.scac ?? "", o.id]);
        },
        [[PREVIEW_MESSAGE]],
        { optimizer: true }
      );
    },

    options(
      origin,
      destination,
      modalities,
      maxTransfers,
      sort,
      top,
      minDeparture,
      maxDeparture,
      header,
      invocation
    ) {
      return run<unknown[][]>(
        invocation,
        async (cacheOnly) => {
          const from = requirePlace(origin, "origin");
          const to = requirePlace(destination, "destination");
          const count = optionalInteger(top, "top", 1) ?? 5;
          const withHeader = optionalBoolean(header, "header") ?? false;
          const answer = await getClient().routeOptions(
            {
              origin: from.value,
              originType: from.type,
              destination: to.value,
              destinationType: to.type,
              modalities: listOf(modalities),
              maxTransfers: optionalInteger(maxTransfers, "maxTransfers", 0),
              sort: optionalText(sort)?.toUpperCase(),
              minDeparture: isoDateOf(minDeparture, "minDeparture"),
              maxDeparture: isoDateOf(maxDeparture, "maxDeparture"),
            },
            { cacheOnly }
          );
          const routings = distinctRoutings(answer.results).slice(0, count);
          if (routings.length === 0)
            throw notFound(
              `No route options found from ${from.value} to ${to.value} with these constraints`
            );
          const dates = supportsDataTypes();
          const rows: unknown[][] = routings.map((r) => routingRow(r, dates));
          return withHeader ? [OPTION_COLUMNS.slice(), ...rows] : rows;
        },
        [[PREVIEW_MESSAGE]],
        { optimizer: true }
      );
    },
  };
}

/** Settles with `work`, or rejects when Excel cancels a @cancelable call (the answer still fills the cache). */
function cancelable<T>(invocation: InvocationLike | undefined, work: Promise<T>): Promise<T> {
  // Excel calls onCanceled only on @cancelable functions; setting it elsewhere is harmless.
  if (!invocation) return work;
  return new Promise<T>((resolve, reject) => {
    invocation.onCanceled = () => reject(new Error("Canceled"));
    work.then(resolve, reject);
  });
}

/** The arguments' values when each is a plain value or a single cell; undefined for ranges. */
function singleCells(args: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(args)) {
    if (!Array.isArray(raw)) out[name] = raw ?? null;
    else if (raw.length === 1 && Array.isArray(raw[0]) && raw[0].length === 1)
      out[name] = raw[0][0];
    else return undefined;
  }
  return out;
}

/** LANE takes one lane: the first cell of any range given. */
function firstCells(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(args)) out[name] = asGrid(raw)[0][0];
  return out;
}

/** Header of ROUTE.LANE's spilled form (runtimes without data types). */
export const LANE_COLUMNS = [
  "Origin",
  "Destination",
  "Modality",
  "Distance (km)",
  "Distance (nm)",
  "kg CO2e per TEU",
  "kg CO2e per tonne",
  "Passages",
] as const;

export function laneRow(query: EmissionsParams, answer: LaneAnswer): Cell[] {
  return [
    query.origin,
    query.destination,
    query.modality,
    answer.distance / 1000,
    answer.distance / 1852,
    answer.co2eTeu,
    answer.co2eTon,
    answer.passages.length ? answer.passages.join(", ") : NO_PASSAGES,
  ];
}

/**
 * The lane as an entity value (CustomFunctionsRuntime 1.4): a card whose fields formulas read,
 * e.g. =A2.Distance (km), =A2.Passages.
 */
export function laneEntity(query: EmissionsParams, answer: LaneAnswer): Record<string, unknown> {
  const number = (value: number, numberFormat: string) => ({
    type: "FormattedNumber",
    basicValue: value,
    numberFormat,
  });
  const text = (value: string) => ({ type: "String", basicValue: value });
  return {
    type: "Entity",
    text: `${query.origin} → ${query.destination} (${query.modality})`,
    properties: {
      Origin: text(query.origin),
      Destination: text(query.destination),
      Modality: text(query.modality),
      Distance: number(answer.distance / 1000, '#,##0.0 "km"'),
      DistanceNm: number(answer.distance / 1852, '#,##0.0 "nm"'),
      CO2ePerTEU: number(answer.co2eTeu, '#,##0.0 "kg CO2e/TEU"'),
      CO2ePerTonne: number(answer.co2eTon, '#,##0.0 "kg CO2e/t"'),
      Passages: text(answer.passages.length ? answer.passages.join(", ") : NO_PASSAGES),
      ...(query.avoid ? { Avoided: text(query.avoid) } : {}),
    },
    layouts: {
      card: {
        title: { property: "Origin" },
        sections: [
          {
            layout: "List",
            properties: [
              "Destination",
              "Modality",
              "Distance",
              "DistanceNm",
              "CO2ePerTEU",
              "CO2ePerTonne",
              "Passages",
            ],
          },
        ],
      },
    },
  };
}

/** Columns of ROUTE.OPTIONS, in order (the header row when asked for). */
export const OPTION_COLUMNS = [
  "Next departure",
  "Sails",
  "Departures in window",
  "Route",
  "Modalities",
  "Operators",
  "Lead time (days)",
  "Transfers",
  "kg CO2e per TEU",
  "Latest drop-off",
  "Earliest pick-up",
] as const;

/** One spilled row per distinct routing: its next departure, how often it sails, its figures. */
export function routingRow(routing: DistinctRouting, formattedDates = false): unknown[] {
  const option = routing.next;
  const legs = option.legs ?? [];
  const ports = legs.length ? [legs[0].origin, ...legs.map((leg) => leg.destination)] : [];
  const operators = unique(legs.flatMap((leg) => (leg.operators ?? []).map((op) => op.name)));
  const date = (iso: string | undefined) => excelDate(iso, formattedDates);
  return [
    date(departureOf(option)),
    routing.frequency,
    routing.departures.length,
    ports.join(" > "),
    legs.map((leg) => leg.modality).join(" > "),
    operators.join(", "),
    option.leadTimeInMinutes / 1440,
    option.transfers,
    option.emissionsInKgCo2e,
    date(option.latestDropOff),
    date(option.earliestPickup),
  ];
}

/** The routing rows of a search answer, as ROUTE.OPTIONS spills them (dates as serials). */
export function optionRows(options: RouteOption[], top = 5): unknown[][] {
  return distinctRoutings(options)
    .slice(0, top)
    .map((r) => routingRow(r));
}

/** "DEEPSEA, RAIL" or a range of cells → ["DEEPSEA", "RAIL"]; undefined when empty. */
function listOf(raw: unknown): string[] | undefined {
  const cells = Array.isArray(raw) ? (raw as unknown[]).flat(2) : [raw];
  const items = cells
    .flatMap((cell) => (optionalText(cell) ?? "").split(/[\s,;]+/))
    .map((item) => item.trim().toUpperCase())
    .filter((item) => item !== "");
  return items.length ? unique(items) : undefined;
}

function unique<T>(items: T[]): T[] {
  return [...new Set(items)];
}

function notFound(message: string): NoResultError {
  return new NoResultError(message);
}

/** containers / weightTons of a lane (issue 20): numbers, or #VALUE! naming the argument. */
function shipmentOf(cells: Record<string, unknown>): { containers?: number; weightTons?: number } {
  const out: { containers?: number; weightTons?: number } = {};
  for (const name of ["containers", "weightTons"] as const) {
    const text = optionalText(cells[name]);
    if (text === undefined) continue;
    const value = Number(text.replace(",", "."));
    if (!Number.isFinite(value) || value <= 0)
      throw new InputError(`${name} "${text}" is not allowed: use a number above 0`);
    out[name] = value;
  }
  return out;
}
