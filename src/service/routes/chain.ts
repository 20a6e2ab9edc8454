/**
 * GET /route-information/api/chain (extension): a door-to-door transport chain (ISO 14083) — each
 * leg's distance and emissions as /emissions gives them, the hub operation at every transfer point
 * (GLEC hub default factors by hub type) and the chain total. One credit per leg (the emissions
 * cost per leg, all legs or none in one transaction, ledgered as `chain`); like /emissions, not
 * available to free accounts.
 */
import { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { chainEmissions, MAX_CHAIN_POINTS, splitPoints } from "../../engine/emissions";
import { MODALITIES } from "../../engine/types";
import { balanceOf, confirmedAccount, overLimit, POLICY, settleAll } from "../plugins/credits";
import { Store } from "../store/store";
import { EMISSION_EXTRAS, QUERY_OPTIONS } from "../schemas";
import {
  ApiPluginOptions,
  callerOf,
  CHAIN_INCLUDE,
  parseInclude,
  problemResponses,
  routeDeps,
  SECURITY,
  upperCase,
} from "./common";
import { factorSetsOf } from "./emissions-body";
import { loadEtsRules } from "../../data/voyage";
import { parseYear } from "../../engine/voyage";

const CHAIN_PATH = "/route-information/api/chain";

export const ChainQuery = Type.Object(
  {
    points: Type.String({
      description: `2 to ${MAX_CHAIN_POINTS} places in order, separated by commas: UN/LOCODEs or terminal UUIDs (separate by semicolons when a place is "lat,lng"), e.g. CNCTU,CNSHA,NLRTM,DEDUI.`,
    }),
    modalities: Type.String({
      description: `One modality per leg (points − 1), comma-separated, in order; allowed values: ${MODALITIES.join(", ")}; case-insensitive.`,
    }),
    containerType: Type.Optional(
      Type.String({ description: "Container type (as on /emissions); default 20DV." })
    ),
    containers: Type.Optional(
      Type.String({
        description:
          "Number of boxes (as on /emissions), a whole number from 1 to 100000: adds co2eKg everywhere.",
        pattern: "^\\s*\\+?\\d+\\s*$",
      })
    ),
    weightTons: Type.Optional(
      Type.String({
        description:
          "Cargo mass in tonnes (as on /emissions), a decimal number from 0.001 to 10000000: adds co2eKg.",
        pattern: "^\\s*\\+?(\\d+([.,]\\d*)?|[.,]\\d+)\\s*$",
      })
    ),
    factorSet: Type.Optional(
      Type.String({ description: "Emission factor set (as on /emissions)." })
    ),
    include: Type.Optional(
      Type.String({
        description:
          "Allowed values: method, eca (passages and time are not used by /chain). method: each leg carries the WTT/TTW split, intensity and method block of /emissions?include=method. eca: each leg carries the EU ETS share of /emissions?include=eca (ets), with sea legs through a neighbouring container transhipment port (Tanger Med, East Port Said: not ports of call) counted as one voyage.",
      })
    ),
    year: Type.Optional(
      Type.String({
        description:
          "Extension, include=eca: the year for the EU ETS phase-in and derogations, a whole year from 2000 to 2100 (default: the current year).",
      })
    ),
  },
  QUERY_OPTIONS
);

const ChainLegSchema = Type.Object(
  {
    leg: Type.Integer({ description: "1-based leg number." }),
    origin: Type.String(),
    destination: Type.String(),
    modality: Type.String(),
    distance: Type.Number({ description: "Metres." }),
    co2eTeu: Type.Number({ description: "kg CO2e per TEU (WTW)." }),
    co2eTon: Type.Number({ description: "kg CO2e per tonne of cargo (WTW)." }),
    ...EMISSION_EXTRAS,
  },
  { additionalProperties: true }
);

const ChainHubSchema = Type.Object(
  {
    after: Type.Integer({ description: "The hub lies between leg `after` and the next leg." }),
    point: Type.String(),
    hubType: Type.String({
      description: "MARITIME_CONTAINER_TERMINAL, RAIL_TERMINAL or INLAND_TERMINAL.",
    }),
    co2eTeu: Type.Number({ description: "kg CO2e per TEU for the hub operation." }),
    co2eTon: Type.Number({ description: "kg CO2e per tonne of cargo." }),
    co2eKg: Type.Optional(Type.Number({ description: "kg CO2e for the shipment." })),
    perContainer: Type.Number({ description: "kg CO2e per container handled." }),
    source: Type.String({ description: "The factor's source." }),
  },
  { additionalProperties: true }
);

export const ChainResultSchema = Type.Object({
  legs: Type.Array(ChainLegSchema),
  hubs: Type.Array(ChainHubSchema),
  total: Type.Object(
    {
      distance: Type.Number({ description: "Metres, all legs." }),
      co2eTeu: Type.Number({ description: "kg CO2e per TEU, legs plus hubs." }),
      co2eTon: Type.Number({ description: "kg CO2e per tonne, legs plus hubs." }),
      co2eKg: Type.Optional(Type.Number({ description: "kg CO2e for the shipment." })),
      hubsByType: Type.Record(Type.String(), Type.Number(), {
        description: "Hub emissions (kg CO2e per TEU) by hub type.",
      }),
      legs: Type.Integer(),
      hubs: Type.Integer(),
      factorSet: Type.String(),
    },
    { additionalProperties: true }
  ),
});

export const chainApi: FastifyPluginAsync<ApiPluginOptions & { store: Store }> = async (
  app,
  options
) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { engine, credits } = routeDeps(app, options);
  api.get(
    "/chain",
    {
      schema: {
        tags: ["route-information", "extension"],
        summary:
          "Extension: door-to-door transport chain — legs, hub operations at transfer points, chain total (kg CO2e, WTW).",
        description: [
          "Each leg is routed and computed exactly as /route-information/api/emissions for its two points (trade lane or region from the leg's own ends).",
          "At every transfer point a hub operation is added with the GLEC default hub factor of its type: MARITIME_CONTAINER_TERMINAL when a ship is on either side, RAIL_TERMINAL when a train is, INLAND_TERMINAL otherwise.",
          `Cost: ${credits.costOf("emissions")} route-information credit(s) per leg (the /emissions cost per leg), charged all legs or none, only for 200 answers, ledgered as \`chain\`. Not available to free accounts.`,
        ].join(" "),
        security: SECURITY,
        querystring: ChainQuery,
        response: {
          200: { description: "Legs, hubs and total.", ...ChainResultSchema },
          ...problemResponses([
            "Incorrect Values",
            "Over Limit",
            "Free Tier Not Allowed",
            "Unknown Data",
            "Not Found",
          ]),
        },
      },
      onRequest: app.guard("emissions", CHAIN_PATH),
      preValidation: async (request: FastifyRequest) =>
        upperCase(request.query as Record<string, unknown>, ["modalities"]),
    },
    async (request) => {
      const caller = callerOf(request);
      const include = parseInclude(request.query.include, "include", CHAIN_INCLUDE);
      const legCount = splitPoints(request.query.points).length - 1;
      const cost = credits.costOf("emissions") * legCount;
      // A refusal on the database's word: the caller's balance may come from memory.
      if (cost > balanceOf(caller, POLICY.emissions.pool))
        await confirmedAccount(options.store, caller);
      const balance = balanceOf(caller, POLICY.emissions.pool);
      if (cost > balance) throw overLimit(POLICY.emissions.pool, cost, balance);
      const result = chainEmissions(engine, factorSetsOf(engine), request.query, {
        method: include.has("method"),
        ...(include.has("eca")
          ? {
              ets: {
                rules: loadEtsRules(),
                year: parseYear(request.query.year, new Date().getUTCFullYear()),
              },
            }
          : {}),
      });
      // All legs or none, each ledgered as `chain`: a chain answered 402 leaves no debit.
      await settleAll(
        options.store,
        credits.costs,
        caller,
        request.id,
        "emissions",
        result.legs.length,
        "chain"
      );
      return result;
    }
  );
};
