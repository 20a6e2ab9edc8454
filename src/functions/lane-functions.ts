/**
 * The per-lane functions (DISTANCE, EMISSIONS, PASSAGES, LANE): each lane's arguments made into a
 * query (lane-query.ts) and asked, over cells or ranges (lane-runner.ts).
 */
import type { RouteApiClient } from "../client/api-client";
import { toExcelError } from "./excel-errors";
import type { RouteFunctions } from "./function-types";
import { InvocationLike, PREVIEW_MESSAGE } from "./invocation";
import { laneEntity, LANE_COLUMNS, laneRow, passagesText, placeLabel } from "./lane-output";
import { laneQuery, withSuggestions } from "./lane-query";
import { BLANK, laneAnswers, perLane } from "./lane-runner";
import { supportsDataTypes } from "./runtime-features";
import { METRES_PER_UNIT, oneDecimal, parseBasis, parseUnit, roundedDistance } from "./units";

export type LaneFunctions = Pick<RouteFunctions, "distance" | "emissions" | "passages" | "lane">;

export function laneFunctions(getClient: () => RouteApiClient): LaneFunctions {
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
    distance({ unit, via, ...lane }, invocation) {
      let chosenUnit: keyof typeof METRES_PER_UNIT;
      try {
        chosenUnit = parseUnit(unit);
      } catch (error) {
        return Promise.reject(toExcelError(error));
      }
      return perLane(
        invocation,
        { ...lane, ...(via != null ? { via } : {}) },
        onLane(async (client, { query }, cacheOnly) => {
          const { containerType: _c, fuelType: _f, ...distanceQuery } = query;
          const answer = await client.distance(distanceQuery, { cacheOnly });
          return roundedDistance(answer.distance, chosenUnit);
        })
      );
    },

    emissions({ containers, weightTons, via, ...lane }, invocation) {
      // containers / weightTons (issue 20) are only sent when given: the plain call stays as it was.
      const shipment = containers != null || weightTons != null ? { containers, weightTons } : {};
      // via likewise: a range of waypoints spills like the other arguments.
      const waypoints = via != null ? { via } : {};
      return perLane(
        invocation,
        { ...lane, ...shipment, ...waypoints },
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

    passages(lane, invocation) {
      return perLane(
        invocation,
        { ...lane },
        onLane(async (client, { query }, cacheOnly) =>
          passagesText((await client.lane(query, { cacheOnly })).passages)
        )
      );
    },

    lane(lane, invocation) {
      return laneCards(
        invocation,
        { ...lane },
        onLane(async (client, { query, origin, destination }, cacheOnly) => {
          const answer = await client.lane(query, { cacheOnly });
          const ends = { origin: placeLabel(origin), destination: placeLabel(destination) };
          return supportsDataTypes()
            ? laneEntity(query, answer, ends)
            : laneRow(query, answer, ends);
        })
      );
    },
  };
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
