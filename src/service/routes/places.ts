/**
 * GET /route-information/api/places (extension): place look-up by UN/LOCODE or name as a user
 * types, for the add-in's place input. Free (no credit), behind the key and the rate limit.
 */
import { FastifyPluginAsync } from "fastify";
import { Type } from "@sinclair/typebox";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { MODALITIES } from "../../engine/types";
import { PLACE_QUERY_MAX, RouteEngine } from "../../engine/route-engine";
import { problemResponses, SECURITY } from "./common";
import { incorrectValues } from "../../engine/errors";
import { chooseByName } from "../../engine/places/name-choice";

const QUERY_TEXT = `What the user typed: a UN/LOCODE (any case, "nl rtm"), a place, port or terminal name in any case, with or without diacritics ("Sao Paulo", "Antwerpen"), or a LOCODE followed by a terminal name ("NLRTM Euromax"); 1 to ${PLACE_QUERY_MAX} characters.`;

export const PlacesQuery = Type.Object({
  query: Type.Optional(Type.String({ description: `${QUERY_TEXT} Or give it as q.` })),
  q: Type.Optional(Type.String({ description: "Short for query (give one of the two)." })),
  limit: Type.Optional(
    Type.String({ description: "Most results to return: 1 to 20 (default 5)." })
  ),
});

export const PlaceResult = Type.Object(
  {
    kind: Type.Union([Type.Literal("port"), Type.Literal("terminal"), Type.Literal("place")]),
    locode: Type.String({
      description:
        'UN/LOCODE of the place, or of the terminal\'s port; "" for a town that has none (a GeoNames place of 15,000+ inhabitants, given by its name or lat,lng).',
    }),
    terminalId: Type.Optional(
      Type.String({
        format: "uuid",
        description: "Terminals only: the id origin/destination and the other endpoints accept.",
      })
    ),
    name: Type.String(),
    country: Type.String({ description: "ISO 3166-1 alpha-2 (the LOCODE's first two letters)." }),
    lat: Type.Number(),
    lng: Type.Number(),
    modalities: Type.Array(Type.Unsafe({ type: "string", enum: [...MODALITIES] }), {
      description:
        "Modalities the place supports (port kinds, UN/LOCODE function classifier, terminal data).",
    }),
    match: Type.Union([Type.Literal("exact"), Type.Literal("fuzzy")], {
      description:
        "exact: a code, name or alias equal after case/accent folding; fuzzy: word prefix, misspelling or a mistyped code.",
    }),
    score: Type.Number({ minimum: 0, maximum: 1, description: "1 for exact matches; best first." }),
    subdivision: Type.Optional(
      Type.String({
        description: "UN/LOCODE subdivision (ISO 3166-2 without the country), e.g. OR.",
      })
    ),
    region: Type.Optional(Type.String({ description: "The subdivision's name, e.g. Oregon." })),
    population: Type.Optional(
      Type.Integer({
        description: "Inhabitants (GeoNames), where known: ranks places of one name.",
      })
    ),
  },
  { $id: "PlaceResult" }
);

export const placesApi: FastifyPluginAsync<{ engine: RouteEngine }> = async (app, options) => {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    "/places",
    {
      schema: {
        tags: ["route-information", "extension"],
        summary: "Extension: find places, ports and terminals by UN/LOCODE or name.",
        description:
          "Costs 0 credits (free tier allowed); counts against the key's rate limit. Exact matches first, then fuzzy ones; an unknown name answers 200 with no results.",
        security: SECURITY,
        querystring: PlacesQuery,
        response: {
          200: Type.Object({
            query: Type.String(),
            results: Type.Array(Type.Ref(PlaceResult)),
            choice: Type.Object(
              {
                kind: Type.Union([
                  Type.Literal("one"),
                  Type.Literal("ambiguous"),
                  Type.Literal("unknown"),
                ]),
                locode: Type.Optional(Type.String()),
                terminalId: Type.Optional(Type.String()),
                message: Type.Optional(Type.String({ maxLength: 100 })),
              },
              {
                description:
                  'What the name stands for as origin or destination in lanes and the add-in: one place, or ambiguous (exact matches at several places, ranked by population or port size) or unknown, with a message of at most 100 characters ("Portland: USPDX (Oregon) or USPWM (Maine)").',
              }
            ),
          }),
          ...problemResponses(["Incorrect Values"]),
        },
      },
      onRequest: app.guard(null),
    },
    async (request) => {
      const { query, q, limit } = request.query;
      if (query !== undefined && q !== undefined && query !== q)
        throw incorrectValues("q", "give query or q, not both.");
      const text = query ?? q;
      const results = options.engine.places(text, limit);
      const choice = chooseByName(text ?? "", results);
      return {
        query: text ?? "",
        results,
        choice:
          choice.kind === "one"
            ? {
                kind: choice.kind,
                ...(choice.match.locode ? { locode: choice.match.locode } : {}),
                ...(choice.match.terminalId ? { terminalId: choice.match.terminalId } : {}),
              }
            : { kind: choice.kind, message: choice.problem },
      };
    }
  );
};
