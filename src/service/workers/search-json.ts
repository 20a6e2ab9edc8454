/**
 * A search's answer as the JSON Fastify would send: fast-json-stringify compiled from the same
 * response schema (`RouteSearchResult#`) with the same shared schemas, so the search thread can
 * serialise its ~240 KB answer and the event loop only writes the string out.
 */
import fastJsonStringify, { Schema } from "fast-json-stringify";
import type { RouteSearchResult as SearchResult } from "../../engine/optimizer/types";
import { ProblemSchema, SHARED_SCHEMAS } from "../schemas";

let compiled: ((doc: SearchResult) => string) | undefined;

/** The shared schemas keyed by $id, as Fastify hands them to its serializer compiler. */
function externalSchemas(): Record<string, Schema> {
  const all: Record<string, Schema> = {};
  for (const s of [ProblemSchema, ...SHARED_SCHEMAS]) all[(s as { $id: string }).$id] = s as Schema;
  return all;
}

/** The 200 answer's JSON, byte for byte what the route's response schema would make. */
export function searchResultJson(result: SearchResult): string {
  compiled ??= fastJsonStringify({ $ref: "RouteSearchResult#" }, { schema: externalSchemas() }) as (
    doc: SearchResult
  ) => string;
  return compiled(result);
}
