/**
 * ROUTE.CHAIN, ROUTE.DURATION and ROUTE.ETS (issue 20): the transport chain spilled one row per leg
 * and hub plus a total row, transit time in days, and the EU ETS cost of a sea leg. The figures come
 * from the service (the engine's one emission model); this file only shapes cells. DURATION and ETS
 * take ranges like DISTANCE: one answer per row, each bad row its own error cell.
 */
import { NotCachedError, RouteApiClient } from "../client/api-client";
import { chain, durationDays, etsCoveredKgPerTeu } from "../client/emission-extensions";
import { isApiError } from "../client/errors";
import { suggestFor } from "../client/place-lookup";
import { MODALITIES } from "../engine/types";
import { InputError, toExcelError } from "./excel-errors";
import type { EmissionFunctions } from "./function-types";
import { asGrid } from "./grid";
import { cancelable, isPreview, PREVIEW_MESSAGE } from "./invocation";
import { laneQuery, placeArgument, placeError, withSuggestions } from "./lane-query";
import { Cell, perLane } from "./lane-runner";
import { oneDecimal, optionalBoolean, optionalText, parseModality } from "./units";

export type { EmissionFunctions } from "./function-types";

/** Header of ROUTE.CHAIN's rows (shown with header TRUE). */
export const CHAIN_COLUMNS = [
  "Element",
  "From",
  "To",
  "Modality / hub",
  "Distance (km)",
  "kg CO2e per TEU",
  "kg CO2e per tonne",
  "kg CO2e (shipment)",
] as const;

export function createEmissionFunctions(getClient: () => RouteApiClient): EmissionFunctions {
  return {
    async chain({ points, modalities, containerType, containers, weightTons, header }, invocation) {
      const cacheOnly = isPreview(invocation);
      try {
        const client = getClient();
        // Codes, coordinates and ids as typed; names through the places look-up (as the lanes).
        const places = await Promise.all(
          listOf(points, "points").map(
            async (p) => (await placeArgument(client, p, "points", cacheOnly)).value
          )
        );
        if (places.length < 2) throw new InputError("points: give at least two places");
        const modes = listOf(modalities, "modalities").map((m) => parseModality(m));
        if (modes.length !== places.length - 1)
          throw new InputError(
            `modalities: give one modality per leg (${places.length - 1} for ${places.length} points), got ${modes.length}`
          );
        const boxes = optionalNumber(containers, "containers");
        const tons = optionalNumber(weightTons, "weightTons");
        const answer = await cancelable(
          invocation,
          chainWithSuggestions(client, cacheOnly, () =>
            chain(
              client,
              {
                points: places.join(places.some((p) => p.includes(",")) ? ";" : ","),
                modalities: modes.join(","),
                containerType: optionalText(containerType),
                // One box when no shipment is given, so the last column always has a value.
                containers: boxes ?? (tons === undefined ? 1 : undefined),
                weightTons: tons,
              },
              { cacheOnly }
            )
          )
        );
        const rows: Cell[][] = [];
        answer.legs.forEach((l, i) => {
          rows.push([
            `Leg ${l.leg}`,
            l.origin,
            l.destination,
            l.modality,
            ...figures(l.distance, l),
          ]);
          const hub = answer.hubs.find((h) => h.after === i + 1);
          if (hub) rows.push(["Hub", hub.point, hub.point, hub.hubType, ...figures(0, hub)]);
        });
        const t = answer.total;
        rows.push([
          "Total",
          answer.legs[0].origin,
          answer.legs[answer.legs.length - 1].destination,
          "",
          ...figures(t.distance, t),
        ]);
        const withHeader = optionalBoolean(header, "header") ?? false;
        return withHeader ? [CHAIN_COLUMNS.slice(), ...rows] : rows;
      } catch (error) {
        if (error instanceof NotCachedError) return [[PREVIEW_MESSAGE]];
        throw toExcelError(error);
      }
    },

    duration(lane, invocation) {
      return perLane(invocation, { ...lane }, async (cells, cacheOnly) => {
        const speedKnots = optionalNumber(cells.speedKnots, "speedKnots");
        const portHours = optionalNumber(cells.portHours, "portHours");
        const client = getClient();
        const lane = await laneQuery(client, cells, cacheOnly);
        const { origin, destination, modality, vesselInfo, avoid } = lane.query;
        // Days to 0.1, like every figure of the functions.
        return oneDecimal(
          await withSuggestions(client, lane, cacheOnly, () =>
            durationDays(
              client,
              { origin, destination, modality, speedKnots, portHours, vesselInfo, avoid },
              { cacheOnly }
            )
          )
        );
      });
    },

    ets(lane, invocation) {
      return perLane(invocation, { ...lane }, async (cells, cacheOnly) => {
        const price = optionalNumber(cells.carbonPrice, "carbonPrice");
        if (price === undefined)
          throw new InputError("carbonPrice is required: the price per tonne CO2e, e.g. 70");
        const year = optionalNumber(cells.year, "year");
        const client = getClient();
        const lane = await laneQuery(client, cells, cacheOnly);
        const { origin, destination, modality, containerType } = lane.query;
        const kg = await withSuggestions(client, lane, cacheOnly, () =>
          etsCoveredKgPerTeu(
            client,
            { origin, destination, modality, containerType, year },
            { cacheOnly }
          )
        );
        // Allowances are per tonne: kg per TEU × price per tonne ÷ 1000.
        return Math.round((kg * price) / 10) / 100;
      });
    },
  };
}

/** A chain row's km and kg CO2e (per TEU, per tonne, shipment), to 0.1 like every figure. */
function figures(
  metres: number,
  kg: { co2eTeu: number; co2eTon: number; co2eKg?: number }
): Cell[] {
  return [
    oneDecimal(metres / 1000),
    oneDecimal(kg.co2eTeu),
    oneDecimal(kg.co2eTon),
    kg.co2eKg === undefined ? "" : oneDecimal(kg.co2eKg),
  ];
}

/** `points KRPUX is not a known UN/LOCODE`: the service's 404 detail for a code it does not know. */
const UNKNOWN_POINT = /"?([^\s"]+)"? is not a known (UN\/LOCODE|terminal id)/;

/**
 * The chain's answer; a code the service does not know becomes #VALUE! `unknown place "KRPUX" —
 * did you mean KRPUS (Busan)?`, as DISTANCE answers it.
 */
async function chainWithSuggestions<T>(
  client: RouteApiClient,
  cacheOnly: boolean,
  call: () => Promise<T>
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const m = isApiError(error) && error.status === 404 ? UNKNOWN_POINT.exec(error.detail) : null;
    if (!m || cacheOnly) throw error;
    throw placeError(await suggestFor(client, m[1].toUpperCase()), "points");
  }
}

/** The places or modalities of a chain: a comma/semicolon text or a range of cells. */
function listOf(raw: unknown, parameter: string): string[] {
  const cells = asGrid(raw)
    .flat()
    .map((v) => optionalText(v))
    .filter((v): v is string => v !== undefined);
  if (cells.length === 0)
    throw new InputError(
      parameter === "modalities"
        ? `modalities is required: one per leg, from ${MODALITIES.join(", ")}`
        : "points is required: two or more places (a range, or a text with commas)"
    );
  if (cells.length > 1) return cells;
  const only = cells[0];
  // "lat,lng" stays whole; places in one cell are separated by ";" or ",".
  if (only.includes(";"))
    return only
      .split(";")
      .map((x) => x.trim())
      .filter(Boolean);
  if (/^\s*-?\d+([.,]\d+)?\s*,\s*-?\d+([.,]\d+)?\s*$/.test(only)) return [only];
  return only
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
}

function optionalNumber(raw: unknown, parameter: string): number | undefined {
  if (typeof raw === "number") return raw;
  const text = optionalText(raw);
  if (text === undefined) return undefined;
  const value = Number(text.replace(",", "."));
  if (!Number.isFinite(value) || value < 0)
    throw new InputError(`${parameter} "${text}" is not allowed: use a number of at least 0`);
  return value;
}
