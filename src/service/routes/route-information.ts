/**
 * The /route-information/api plugin (registered with that prefix): GET terminals, distance,
 * emissions (thin wrappers around the engine), path and the batch.
 */
import { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import type { Static } from "@sinclair/typebox";
import { DistanceQuery, EmissionsQuery, TerminalsQuery } from "../schemas";
import { Store } from "../store/store";
import { batchRoutes } from "./batch";
import {
  ApiPluginOptions,
  callerOf,
  DISTANCE_INCLUDE,
  parseInclude,
  problemResponses,
  RouteDeps,
  routeDeps,
  SECURITY,
  upperCase,
} from "./common";
import { pathRoutes } from "./path";
import { distanceExtras, emissionsBody } from "./emissions-body";
import { LaneCache, PlainBodies, queryTextOf } from "./lane-cache";

const TAG = ["route-information"];

export const routeInformationApi: FastifyPluginAsync<ApiPluginOptions & { store: Store }> = async (
  app,
  options
) => {
  const deps = routeDeps(app, options);
  routeInformationRoutes(app, deps);
  pathRoutes(app, deps);
  batchRoutes(app, { ...deps, store: options.store });
};

/**
 * What reply.send takes for an error: an Error of this realm (Fastify tells errors from payloads
 * by instanceof; an error made elsewhere, e.g. by a native module under a test runner, keeps its
 * message and fields such as `code`).
 */
function asError(error: unknown): Error {
  if (error instanceof Error) return error;
  const message = (error as { message?: unknown } | null)?.message;
  return Object.assign(new Error(typeof message === "string" ? message : String(error)), error, {
    cause: error,
  });
}

function routeInformationRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { engine, credits } = deps;
  const lanes = new LaneCache();
  const plainBodies = new PlainBodies();
  // A callback hook (no promise per request).
  const normaliseModality = (request: FastifyRequest, _reply: FastifyReply, done: () => void) => {
    upperCase(request.query as Record<string, unknown>, ["modality"]);
    done();
  };

  api.get(
    "/terminals",
    {
      schema: {
        tags: TAG,
        summary: "Terminal search by LOCODE and optional name.",
        description: `Cost: ${credits.costOf("terminals")} route-information credits. Best name match first.`,
        security: SECURITY,
        querystring: TerminalsQuery,
        response: {
          200: {
            description: "Terminals of the LOCODE (best name match first).",
            type: "array",
            items: { $ref: "Terminal#" },
          },
          204: { description: "No terminal matches; no body.", type: "null" },
          ...problemResponses(["Incorrect Values", "Unknown Data", "Over Limit"]),
        },
      },
      onRequest: app.guard("terminals"),
    },
    async (request, reply) => {
      const found = engine.terminals(request.query.terminalLocode, request.query.terminalName);
      if (found.length === 0) return reply.code(204).send(null);
      await credits.settle(callerOf(request), "terminals", request.id);
      return found.map((t) => ({ id: t.id, name: t.name, locode: t.locode }));
    }
  );

  /** The /distance body of a valid query (throws the engine's errors). */
  function distanceBody(query: Static<typeof DistanceQuery>, url: string): object {
    const plain = query.include === undefined;
    const text = plain ? queryTextOf(url) : "";
    const known = plain ? plainBodies.get(text) : undefined;
    if (known) return known;
    // The include list is checked first (a 400 for it comes before the engine's errors).
    const include = parseInclude(query.include, "include", DISTANCE_INCLUDE);
    const { distance, passages } = lanes.distance(query, (q) => engine.distance(q));
    if (plain) return plainBodies.remember(text, distance);
    const extras = distanceExtras(engine, query, include);
    return include.has("passages") ? { distance, passages, ...extras } : { distance, ...extras };
  }

  api.get(
    "/distance",
    {
      schema: {
        tags: TAG,
        summary: "Distance in metres between two places for one modality.",
        description: `Cost: ${credits.costOf("distance")} route-information credit per 200 answer (errors are free). Free tier allowed.`,
        security: SECURITY,
        querystring: DistanceQuery,
        response: {
          200: { description: "Distance in metres.", $ref: "DistanceResult#" },
          ...problemResponses(["Incorrect Values", "Over Limit", "Unknown Data", "Not Found"]),
        },
      },
      onRequest: app.guard("distance"),
      preValidation: normaliseModality,
    },
    // Answered from the debit's callback (no promise per call): errors thrown here or passed
    // back reach the error handler as an async handler's would.
    (request, reply) => {
      const body = distanceBody(request.query, request.url);
      credits.settleThen(callerOf(request), "distance", request.id, (error) =>
        reply.send(error === undefined ? body : asError(error))
      );
    }
  );

  api.get(
    "/emissions",
    {
      schema: {
        tags: TAG,
        summary:
          "CO2e per TEU and per tonne (kg, well-to-wheel) and distance (m) between two places.",
        description: `Cost: ${credits.costOf("emissions")} route-information credit per 200 answer. Not available to free accounts (402 Free Tier Not Allowed).`,
        security: SECURITY,
        querystring: EmissionsQuery,
        response: {
          200: {
            description: "kg CO2e per TEU, kg CO2e per tonne, distance in metres.",
            $ref: "EmissionsResult#",
          },
          ...problemResponses([
            "Incorrect Values",
            "Over Limit",
            "Free Tier Not Allowed",
            "Unknown Data",
            "Not Found",
          ]),
        },
      },
      onRequest: app.guard("emissions"),
      preValidation: normaliseModality,
    },
    async (request) => {
      const include = parseInclude(request.query.include);
      const body = emissionsBody(engine, request.query, include);
      await credits.settle(callerOf(request), "emissions", request.id);
      return body;
    }
  );
}
