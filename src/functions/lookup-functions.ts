/**
 * The look-up functions (TERMINALS, OPERATORS, OPTIONS): one question each, answered as a spill.
 */
import { NotCachedError, RouteApiClient } from "../client/api-client";
import { distinctRoutings } from "../client/distinct-routings";
import { ApiError, isApiError } from "../client/errors";
import { FailureContext, InputError, NoResultError, quoted, toExcelError } from "./excel-errors";
import { isoDateOf } from "./excel-dates";
import type { RouteFunctions } from "./function-types";
import { cancelable, InvocationLike, isPreview, PREVIEW_MESSAGE } from "./invocation";
import { placeArgument } from "./lane-query";
import type { Cell } from "./lane-runner";
import { OPTION_COLUMNS, routingRow } from "./option-rows";
import { supportsDataTypes } from "./runtime-features";
import { optionalBoolean, optionalInteger, optionalText } from "./units";

export type LookupFunctions = Pick<RouteFunctions, "terminals" | "operators" | "options">;

export function lookupFunctions(getClient: () => RouteApiClient): LookupFunctions {
  return {
    terminals({ locode, name }, invocation) {
      return run<Cell[][]>(invocation, async (cacheOnly) => {
        const client = getClient();
        const code = await terminalsLocode(client, locode, cacheOnly);
        const part = optionalText(name);
        let terminals;
        try {
          terminals = await client.terminals(
            { terminalLocode: code, terminalName: part },
            { cacheOnly }
          );
        } catch (error) {
          throw withArgumentNames(error);
        }
        if (terminals.length === 0)
          throw new NoResultError(
            `No terminals found for locode ${code}${part ? ` and name "${part}"` : ""}`
          );
        return terminals.map((t) => [t.name, t.locode, t.id]);
      });
    },

    operators({ search }, invocation) {
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

    options(args, invocation) {
      return run<unknown[][]>(
        invocation,
        async (cacheOnly) => {
          const count = optionalInteger(args.top, "top", 1) ?? 5;
          const withHeader = optionalBoolean(args.header, "header") ?? true;
          const window = {
            minDeparture: isoDateOf(args.minDeparture, "minDeparture"),
            maxDeparture: isoDateOf(args.maxDeparture, "maxDeparture"),
          };
          const client = getClient();
          const [from, to] = await Promise.all([
            placeArgument(client, firstCell(args.origin), "origin", cacheOnly),
            placeArgument(client, firstCell(args.destination), "destination", cacheOnly),
          ]);
          const answer = await client.routeOptions(
            {
              origin: from.value,
              originType: from.type,
              destination: to.value,
              destinationType: to.type,
              modalities: listOf(args.modalities),
              maxTransfers: optionalInteger(args.maxTransfers, "maxTransfers", 0),
              sort: optionalText(args.sort)?.toUpperCase(),
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

/**
 * TERMINALS' location: a UN/LOCODE as typed (NLRTM, "nl rtm"), or a place's name looked up
 * ("Rotterdam" → NLRTM). #VALUE! naming `locode` otherwise.
 */
async function terminalsLocode(
  client: RouteApiClient,
  raw: unknown,
  cacheOnly: boolean
): Promise<string> {
  if (optionalText(raw) === undefined)
    throw new InputError(
      "locode is required: a UN/LOCODE such as NLRTM, or a name such as Rotterdam"
    );
  const place = await placeArgument(client, raw, "locode", cacheOnly);
  const code = place.type === "LOCODE" ? place.value : place.locode;
  if (!code)
    throw new InputError(
      `locode ${quoted(place.typed)} is not allowed: use a UN/LOCODE such as NLRTM, or a name`
    );
  return code.toUpperCase();
}

/** The service's names of TERMINALS' arguments (terminalLocode, terminalName) as the function's. */
function withArgumentNames(error: unknown): unknown {
  if (!isApiError(error) || !error.detail) return error;
  const detail = error.detail
    .replace(/\bterminalLocode\b/g, "locode")
    .replace(/\bterminalName\b/g, "name");
  return detail === error.detail ? error : new ApiError(error.status, error.title, detail);
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
