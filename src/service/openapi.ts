/** @fastify/swagger settings: OpenAPI 3.1 generated from the route schemas. */
import { PASSAGES } from "../engine/types";

export function openApiOptions(version: string) {
  return {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "Route Sheets route information and route optimizer service",
        version,
        description: [
          "Distances (metres), CO2e emissions (kilograms, well-to-wheel) and multimodal route options for freight.",
          "Authentication: header x-api-key. Errors: RFC 9457 application/problem+json `{type, title, status, detail}`; `title` is the Type column of the error catalogue, `type` the relative URI /problems/<slug> (GET it for the meaning); 500s add `instance` (urn:request:<id>) and `requestId`.",
          "Missing optimizer access answers 403 with title Invalid Key (the key is not valid for /route-optimizer) and a detail saying so.",
          "Credits: terminals 0, distance 1, emissions 1, path 1 (route-information pool); route search 1, operators 0 (route-optimizer pool) by default; only 200 answers are charged.",
          "Rate limit: token bucket per key, default 50 requests/s with bursts of 100; 429 carries Retry-After in whole seconds.",
          `Extensions: query parameter \`avoid\` (passages: ${PASSAGES.join(", ")}) on distance, emissions and path; query parameter \`include=passages\` on distance, emissions and batch items (the canals/straits of the sea route, in order); GET /account (the caller’s balances); modality SHORTSEA on distance/emissions/path; POST /route-information/api/batch; GET /route-information/api/path (the routed path as a GeoJSON Feature, charged like distance); GET /route-information/api/places (find places, ports and terminals by UN/LOCODE or name; free).`,
          "Emission extensions: include=method (WTT/TTW split, intensity, ISO 14083 method block), include=time (transit time at default service speeds; speedKnots, portHours), include=eca (distance inside ECAs/SECAs and the EU ETS share; year), via= (waypoints such as CAPE_OF_GOOD_HOPE), factorSet= (pin an earlier emission factor set), containers= / weightTons= (shipment totals co2eKg) on distance/emissions/batch; GET /route-information/api/chain (door-to-door transport chain with hub emissions, charged like emissions per leg).",
          "Unknown query parameters are ignored.",
        ].join("\n\n"),
      },
      components: {
        securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key" } },
      },
      tags: [
        { name: "route-information", description: "Terminals, distances, emissions." },
        {
          name: "route-optimizer",
          description: "Multimodal route search; needs optimizer access.",
        },
        { name: "extension", description: "Additions to the original interface." },
        { name: "meta", description: "Health." },
      ],
    },
    refResolver: {
      // Name components after the shared schemas' $id instead of def-N.
      buildLocalReference(json: { $id?: string }, _base: unknown, _fragment: unknown, i: number) {
        return json.$id || `def-${i}`;
      },
    },
  };
}
