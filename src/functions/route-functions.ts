/**
 * What each ROUTE.* function does, with the client injected so it runs (and is tested) outside
 * Excel. functions.ts holds the thin @customfunction wrappers Excel registers.
 */
import { NotCachedError, RouteApiClient } from "../client/api-client";
import type { RouteOption } from "../client/types";
import { FailureContext, InputError, NoResultError, toExcelError } from "./excel-errors";
import { normalizePlace, requirePlace } from "./place-type";
import { fromMetres, optionalInteger, optionalText, parseBasis, parseUnit } from "./units";

/** Shown instead of a value while Excel previews a formula: previews must not spend credits. */
export const PREVIEW_MESSAGE = "Preview: press Enter to compute";

export type Cell = string | number;

/** The part of CustomFunctions.Invocation the functions read. */
export interface InvocationLike {
  isInValuePreview?: boolean | string;
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
    invocation?: InvocationLike
  ): Promise<number | string>;
  emissions(
    origin: unknown,
    destination: unknown,
    modality?: unknown,
    per?: unknown,
    containerType?: unknown,
    fuelType?: unknown,
    vesselInfo?: unknown,
    invocation?: InvocationLike
  ): Promise<number | string>;
  terminals(locode: unknown, name?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  operators(search?: unknown, invocation?: InvocationLike): Promise<Cell[][]>;
  options(
    origin: unknown,
    destination: unknown,
    modalities?: unknown,
    maxTransfers?: unknown,
    sort?: unknown,
    top?: unknown,
    invocation?: InvocationLike
  ): Promise<Cell[][]>;
}

export function createRouteFunctions(getClient: () => RouteApiClient): RouteFunctions {
  /** Runs a lookup; in preview from the cache only. Failures become CustomFunctions.Error. */
  async function run<T>(
    invocation: InvocationLike | undefined,
    compute: (cacheOnly: boolean) => Promise<T>,
    preview: T,
    context: FailureContext = {}
  ): Promise<T> {
    try {
      return await compute(isPreview(invocation));
    } catch (error) {
      if (error instanceof NotCachedError) return preview;
      throw toExcelError(error, context);
    }
  }

  return {
    distance(origin, destination, modality, vesselInfo, unit, invocation) {
      return run<number | string>(
        invocation,
        async (cacheOnly) => {
          const chosenUnit = parseUnit(unit);
          const answer = await getClient().distance(
            {
              origin: normalizePlace(origin),
              destination: normalizePlace(destination),
              modality: modalityOf(modality),
              vesselInfo: optionalText(vesselInfo),
            },
            { cacheOnly }
          );
          return fromMetres(answer.distance, chosenUnit);
        },
        PREVIEW_MESSAGE
      );
    },

    emissions(origin, destination, modality, per, containerType, fuelType, vesselInfo, invocation) {
      return run<number | string>(
        invocation,
        async (cacheOnly) => {
          const basis = parseBasis(per);
          const answer = await getClient().emissions(
            {
              origin: normalizePlace(origin),
              destination: normalizePlace(destination),
              modality: modalityOf(modality),
              vesselInfo: optionalText(vesselInfo),
              containerType: optionalText(containerType),
              fuelType: optionalText(fuelType),
            },
            { cacheOnly }
          );
          return basis === "TEU" ? answer.co2eTeu : answer.co2eTon;
        },
        PREVIEW_MESSAGE
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

    options(origin, destination, modalities, maxTransfers, sort, top, invocation) {
      return run<Cell[][]>(
        invocation,
        async (cacheOnly) => {
          const from = requirePlace(origin, "origin");
          const to = requirePlace(destination, "destination");
          const count = optionalInteger(top, "top", 1) ?? 5;
          const answer = await getClient().routeOptions(
            {
              origin: from.value,
              originType: from.type,
              destination: to.value,
              destinationType: to.type,
              modalities: listOf(modalities),
              maxTransfers: optionalInteger(maxTransfers, "maxTransfers", 0),
              sort: optionalText(sort),
            },
            { cacheOnly }
          );
          const options = answer.results.slice(0, count);
          if (options.length === 0)
            throw notFound(
              `No route options found from ${from.value} to ${to.value} with these constraints`
            );
          return options.map(summaryRow);
        },
        [[PREVIEW_MESSAGE]],
        { optimizer: true }
      );
    },
  };
}

/** Columns of ROUTE.OPTIONS, in order (the task pane can use them as headers). */
export const OPTION_COLUMNS = [
  "Lead time (days)",
  "Transfers",
  "Total kg CO2e",
  "Modalities",
  "Operators",
  "Earliest pickup",
  "Latest drop-off",
] as const;

/** One spilled row per route option. */
export function summaryRow(option: RouteOption): Cell[] {
  const legs = option.legs ?? [];
  const modalities = legs.map((leg) => leg.modality);
  const operators = unique(legs.flatMap((leg) => (leg.operators ?? []).map((op) => op.name)));
  return [
    option.leadTimeInMinutes / 1440,
    option.transfers,
    option.emissionsInKgCo2e,
    modalities.join(" > "),
    operators.join(", "),
    option.earliestPickup ?? "",
    option.latestDropOff ?? "",
  ];
}

function modalityOf(raw: unknown): string {
  return optionalText(raw)?.toUpperCase() ?? "DEEPSEA";
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
