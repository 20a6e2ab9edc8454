/** GET /account (extension): the calling key's account, so the task pane can show both balances. */
import { FastifyPluginAsync } from "fastify";
import { Type } from "@sinclair/typebox";
import { effectiveRateLimit } from "../plugins/guard";
import { callerOf, problemResponses, SECURITY } from "./common";

export const AccountInfo = Type.Object(
  {
    name: Type.String({ description: "Account name." }),
    tier: Type.Union([Type.Literal("free"), Type.Literal("paid")]),
    active: Type.Boolean(),
    optimizerAccess: Type.Boolean({ description: "Whether the key may call /route-optimizer." }),
    credits: Type.Object({
      routeInformation: Type.Number({ description: "Route-information credits left." }),
      routeOptimizer: Type.Number({ description: "Route-optimizer credits left." }),
    }),
    rateLimit: Type.Object({
      perSecond: Type.Number({ description: "Sustained requests per second of this key." }),
      burst: Type.Number({ description: "Largest burst of this key." }),
    }),
  },
  { $id: "AccountInfo" }
);

export const accountApi: FastifyPluginAsync = async (app) => {
  app.get(
    "/account",
    {
      schema: {
        tags: ["extension"],
        summary: "Extension: the account of the calling x-api-key (balances, tier, rate limit).",
        description: "Costs 0 credits. Counts against the key's rate limit like any keyed request.",
        security: SECURITY,
        response: {
          200: { description: "The caller's account.", $ref: "AccountInfo#" },
          ...problemResponses([]),
        },
      },
      onRequest: app.guard(null),
    },
    async (request) => {
      const { key, account } = callerOf(request);
      const limit = effectiveRateLimit(key, app.defaultRateLimit);
      return {
        name: account.name,
        tier: account.tier,
        active: account.active,
        optimizerAccess: account.optimizerAccess,
        credits: {
          routeInformation: account.credits,
          routeOptimizer: account.optimizerCredits,
        },
        rateLimit: { perSecond: limit.perSecond, burst: limit.burst },
      };
    }
  );
};
