/**
 * GET /route-information/api/path (extension): the routed path of a distance query as a GeoJSON
 * Feature, so a map can draw the sailed route instead of a great-circle arc. Same parameters,
 * validation and errors as /distance; charged like /distance by default (it answers the same distance).
 */
import { FastifyInstance, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { parseModality } from "../../engine/route-engine";
import { pathFeature, MAX_PATH_POINTS } from "../path-geojson";
import { RouteQuery } from "../schemas";
import { callerOf, problemResponses, RouteDeps, SECURITY, upperCase } from "./common";

export const GEOJSON = "application/geo+json";

/** application/json when the caller asks for it and not for GeoJSON; application/geo+json otherwise. */
function mediaTypeFor(accept: string | undefined): string {
  const a = (accept ?? "").toLowerCase();
  return a.includes("application/json") && !a.includes(GEOJSON) ? "application/json" : GEOJSON;
}

export function pathRoutes(app: FastifyInstance, deps: RouteDeps): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { engine, credits } = deps;
  const schema = { $ref: "PathFeature#" };

  api.get(
    "/path",
    {
      schema: {
        tags: ["route-information", "extension"],
        summary:
          "Extension: the routed path between two places for one modality, as a GeoJSON Feature.",
        description: [
          "Same query parameters, validation and errors as /route-information/api/distance; `properties.distance` is that call's answer.",
          `The LineString has at most ${MAX_PATH_POINTS} [lng, lat] points (long paths are thinned, both ends kept); longitudes are in [-180, 180] and consecutive points are joined the short way, so a path across ±180° steps from 180 to -180.`,
          "Content type application/geo+json (application/json when the Accept header asks for that and not for GeoJSON).",
          `Cost: ${credits.costOf("path")} route-information credit(s) per 200 answer, like /distance (it answers the same distance). Free tier allowed.`,
        ].join(" "),
        security: SECURITY,
        querystring: RouteQuery,
        response: {
          200: {
            description:
              "GeoJSON Feature: LineString geometry, properties {distance (m), modality, passages}.",
            content: { [GEOJSON]: { schema }, "application/json": { schema } },
          },
          ...problemResponses(["Incorrect Values", "Over Limit", "Unknown Data", "Not Found"]),
        },
      },
      onRequest: app.guard("path"),
      preValidation: async (request: FastifyRequest) =>
        upperCase(request.query as Record<string, unknown>, ["modality"]),
    },
    async (request, reply) => {
      const result = engine.distance(request.query);
      await credits.settle(callerOf(request), "path", request.id);
      reply.type(mediaTypeFor(request.headers.accept));
      return pathFeature(result, parseModality(request.query.modality));
    }
  );
}
