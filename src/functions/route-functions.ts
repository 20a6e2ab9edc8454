/**
 * What each ROUTE.* function does, with the client injected so it runs (and is tested) outside
 * Excel. functions.ts holds the thin @customfunction wrappers Excel registers; the parts live in
 * lane-runner.ts (ranges, blanks, one error cell per lane), lane-query.ts (places and choices),
 * lane-output.ts (LANE's card and row) and option-rows.ts (OPTIONS' rows).
 *
 * Per-lane functions (DISTANCE, EMISSIONS, PASSAGES, LANE) take each per-lane argument as a cell or
 * a range and answer in the same shape; each lane is its own client call, so the client's cache,
 * de-duplication and batch window turn a 5,000-row spill into a few requests.
 */
import { NotCachedError, RouteApiClient } from "../client/api-client";
import { distinctRoutings } from "../client/distinct-routings";
import { FailureContext, InputError, NoResultError, toExcelError } from "./excel-errors";
import { isoDateOf } from "./excel-dates";
import { cancelable, InvocationLike, isPreview, PREVIEW_MESSAGE } from "./invocation";
import { laneEntity, LANE_COLUMNS, laneRow, passagesText } from "./lane-output";
import { laneQuery, placeArgument, withSuggestions } from "./lane-query";
import { BLANK, Cell, laneAnswers, LaneResult, perLane } from "./lane-runner";
import { OPTION_COLUMNS, routingRow } from "./option-rows";
import { supportsDataTypes } from "./runtime-features";
import {
  METRES_PER_UNIT,
  optionalBoolean,
  optionalInteger,
  optionalText,
  parseBasis,
  parseUnit,
  roundedDistance,
  oneDecimal,
} from "./units";

export { PREVIEW_MESSAGE, isPreview } from "./invocation";
export type { InvocationLike } from "./invocation";
export type { Answer, Cell, LaneResult } from "./lane-runner";
export { LANE_COLUMNS, laneEntity, laneRow, NO_PASSAGES } from "./lane-output";
export { OPTION_COLUMNS, optionRows, routingRow } from "./option-rows";

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

export function createRouteFunctions(getClient: () => RouteApiClient): RouteFunctions {
  /** One lane's call with its query resolved, unknown codes answered with a suggestion. */
  const onLane =
    <T>(
      ask: (
        client: RouteApiClient,
        lane: Awaited<ReturnType<typeof laneQuery>>,
        cacheOnly: boolean
      ) => Promise<T>
    ) =>
    async (cells: Record<string, unknown>, cacheOnly: boolean): Promise<T> => {
      const client = getClient();
      const lane = await laneQuery(client, cells, cacheOnly);
      return withSuggestions(client, lane, cacheOnly, () => ask(client, lane, cacheOnly));
    };

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
        onLane(async (client, { query }, cacheOnly) => {
          const { containerType: _c, fuelType: _f, ...distanceQuery } = query;
          const answer = await client.distance(distanceQuery, { cacheOnly });
          return roundedDistance(answer.distance, chosenUnit);
        })
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
          return onLane(async (client, { query }) => {
            const answer = await client.emissions(query, { cacheOnly });
            // A shipment answers its total (kg CO2e); a plain call per TEU or per tonne.
            if (answer.co2eKg !== undefined) return oneDecimal(answer.co2eKg);
            return oneDecimal(basis === "TEU" ? answer.co2eTeu : answer.co2eTon);
          })(cells, cacheOnly);
        }
      );
    },

    passages(origin, destination, modality, vesselInfo, avoid, invocation) {
      return perLane(
        invocation,
        { origin, destination, modality, vesselInfo, avoid },
        onLane(async (client, { query }, cacheOnly) =>
          passagesText((await client.lane(query, { cacheOnly })).passages)
        )
      );
    },

    lane(origin, destination, modality, vesselInfo, avoid, containerType, fuelType, invocation) {
      return laneCards(
        invocation,
        { origin, destination, modality, vesselInfo, avoid, containerType, fuelType },
        onLane(async (client, { query }, cacheOnly) => {
          const answer = await client.lane(query, { cacheOnly });
          return supportsDataTypes() ? laneEntity(query, answer) : laneRow(query, answer);
        })
      );
    },

    terminals(locode, name, invocation) {
      return run<Cell[][]>(invocation, async (cacheOnly) => {
        const code = optionalText(locode)
          ?.toUpperCase()
          .replace(/[\s-]+/g, "");
        if (!code) throw new InputError("locode is required: a UN/LOCODE such as NLRTM");
        const terminals = await getClient().terminals(
          { terminalLocode: code, terminalName: optionalText(name) },
          { cacheOnly }
        );
        if (terminals.length === 0)
          throw new NoResultError(
            `No terminals found for locode ${code}${optionalText(name) ? ` and name "${optionalText(name)}"` : ""}`
          );
        return terminals.map((t) => [t.name, t.locode, t.id]);
      });
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
            throw new NoResultError(`No operators match "${optionalText(search)}" by name or SCAC`);
          return matches.map((o) => [o.name, o.scac ?? "", o.id]);
        },
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
          const count = optionalInteger(top, "top", 1) ?? 5;
          const withHeader = optionalBoolean(header, "header") ?? true;
          const window = {
            minDeparture: isoDateOf(minDeparture, "minDeparture"),
            maxDeparture: isoDateOf(maxDeparture, "maxDeparture"),
          };
          const client = getClient();
          const [from, to] = await Promise.all([
            placeArgument(client, firstCell(origin), "origin", cacheOnly),
            placeArgument(client, firstCell(destination), "destination", cacheOnly),
          ]);
          const answer = await client.routeOptions(
            {
              origin: from.value,
              originType: from.type,
              destination: to.value,
              destinationType: to.type,
              modalities: listOf(modalities),
              maxTransfers: optionalInteger(maxTransfers, "maxTransfers", 0),
              sort: optionalText(sort)?.toUpperCase(),
              ...window,
            },
            { cacheOnly }
          );
          const routings = distinctRoutings(answer.results).slice(0, count);
          if (routings.length === 0)
            throw new NoResultError(
              `No route options from ${from.value} to ${to.value} with these constraints`
            );
          const dates = supportsDataTypes();
          const rows: unknown[][] = routings.map((r) => routingRow(r, dates));
          return withHeader ? [OPTION_COLUMNS.slice(), ...rows] : rows;
        },
        { optimizer: true }
      );
    },
  };
}

/** Runs a lookup; in preview from the cache only. Failures become CustomFunctions.Error. */
async function run<T>(
  invocation: InvocationLike | undefined,
  compute: (cacheOnly: boolean) => Promise<T>,
  context: FailureContext = {}
): Promise<T> {
  try {
    return await cancelable(invocation, compute(isPreview(invocation)));
  } catch (error) {
    if (error instanceof NotCachedError) return [[PREVIEW_MESSAGE]] as T;
    throw toExcelError(error, context);
  }
}

/**
 * ROUTE.LANE over cells or ranges: one card per lane in a column where Excel has data types, else
 * a header and one row per lane (a lane's error in its row's first cell, blank lanes blank).
 */
async function laneCards(
  invocation: InvocationLike | undefined,
  args: Record<string, unknown>,
  each: (cells: Record<string, unknown>, cacheOnly: boolean) => Promise<unknown>
): Promise<unknown[][]> {
  const cards = supportsDataTypes();
  const width = cards ? 1 : LANE_COLUMNS.length;
  const padded = (first: unknown) => [first, ...Array<string>(width - 1).fill(BLANK)];
  const result = await laneAnswers<unknown>(
    invocation,
    args,
    {
      places: ["origin", "destination"],
      blank: padded(BLANK),
      preview: padded(PREVIEW_MESSAGE),
      failed: (error) => padded(error),
    },
    async (cells, cacheOnly) => {
      const answer = await each(cells, cacheOnly);
      return Array.isArray(answer) ? answer : [answer];
    }
  );
  const lanes = (result.single ? [result.answer] : result.answers.flat()) as unknown[][];
  return cards ? lanes : [LANE_COLUMNS.slice(), ...lanes];
}

/** OPTIONS asks for one lane: the first cell of a range. */
function firstCell(raw: unknown): unknown {
  let value = raw;
  while (Array.isArray(value)) value = value[0];
  return value;
}

/** "DEEPSEA, RAIL" or a range of cells → ["DEEPSEA", "RAIL"]; undefined when empty. */
function listOf(raw: unknown): string[] | undefined {
  const cells = Array.isArray(raw) ? (raw as unknown[]).flat(2) : [raw];
  const items = cells
    .flatMap((cell) => (optionalText(cell) ?? "").split(/[\s,;]+/))
    .map((item) => item.trim().toUpperCase())
    .filter((item) => item !== "");
  return items.length ? [...new Set(items)] : undefined;
}
