/**
 * The /route-optimizer/api plugin (registered with that prefix): GET external and
 * external/operators, the optimizer behind key, access and credits.
 */
import { refuseNonDecimalNumbers } from "../validation";
import { FastifyPluginAsync, FastifyRequest } from "fastify";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { RawQuery } from "../../engine/optimizer/types";
import { OptimizerRunner, SearchFailed } from "../workers/optimizer-runner";
import { HttpProblem } from "../plugins/problem";
import { fail } from "../problem";
import { OPTIMIZER_LIST_PARAMS, OptimizerQuery } from "../schemas";
import {
  ApiPluginOptions,
  callerOf,
  problemResponses,
  routeDeps,
  SECURITY,
  upperCase,
} from "./common";

const TAG = ["route-optimizer"];

declare module "fastify" {
  interface FastifyRequest {
    /** The query as the client sent it (strings; lists split), for the optimizer's own parsing. */
    rawQuery: RawQuery | null;
  }
}

/** Lists arrive as repeated keys and/or comma lists: both become one array of trimmed items. */
export function splitLists(query: Record<string, unknown>, names: readonly string[]): void {
  for (const n of names) {
    const v = query[n];
    if (v === undefined) continue;
    const items = (Array.isArray(v) ? v : [v]).flatMap((x) =>
      typeof x === "string" ? x.split(",") : [x]
    );
    query[n] = items.map((x) => (typeof x === "string" ? x.trim() : x)).filter((x) => x !== "");
  }
}

function snapshot(query: Record<string, unknown>): RawQuery {
  const raw: RawQuery = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v === "string") raw[k] = v;
    else if (Array.isArray(v)) raw[k] = v.map(String);
  }
  return raw;
}

/** Searches each key has running or waiting on this instance: one key cannot take every thread. */
export class SearchesPerKey {
  private readonly running = new Map<string, number>();
  constructor(readonly limit: number) {}

  /** Counts a search of `keyId`, or answers 429 when the key already has `limit` of them. */
  enter(keyId: string): () => void {
    const n = this.running.get(keyId) ?? 0;
    if (n >= this.limit)
      throw new HttpProblem(
        "Too Many Requests",
        `This x-api-key already has ${n} route searches running (at most ${this.limit} at once); wait for one to answer, retry after Retry-After seconds.`,
        { "retry-after": "1" }
      );
    this.running.set(keyId, n + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.running.get(keyId) ?? 1) - 1;
      if (now > 0) this.running.set(keyId, now);
      else this.running.delete(keyId);
    };
  }
}

export const routeOptimizerApi: FastifyPluginAsync<ApiPluginOptions> = async (app, options) => {
  const deps = routeDeps(app, options);
  app.decorateRequest("rawQuery", null);
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { credits } = deps;
  const perKey = new SearchesPerKey(deps.config.optimizer.perKeySearches);
  const optimizer = (): OptimizerRunner => {
    if (!deps.optimizer)
      throw fail("System Error", "The route optimizer is not loaded on this server.");
    return deps.optimizer;
  };

  api.get(
    "/external",
    {
      schema: {
        tags: TAG,
        summary: "Multimodal route options between an origin and a destination.",
        description: `Needs route-optimizer access on the key (else 403 Invalid Key) and a paid account (else 402 Free Tier Not Allowed). Cost: ${credits.costOf("optimizerSearch")} route-optimizer credit per 200 answer. List parameters accept repeated keys (modalities=RAIL&modalities=TRUCK) and comma lists (modalities=RAIL,TRUCK), each with at most the values its description says. Every search has a time budget (${deps.config.optimizer.budgetMs} ms on this server): over it, 400 Incorrect Values whose detail says what to narrow, charged like an answer (the search held a thread); a search whose client disconnects is stopped and charged too. At most ${deps.config.optimizer.perKeySearches} searches per key at once (more: 429 Too Many Requests with Retry-After); 503 Service Unavailable with Retry-After when the search threads and their queue are full.`,
        security: SECURITY,
        querystring: OptimizerQuery,
        response: {
          200: { description: "Route options, sorted by `sort`.", $ref: "RouteSearchResult#" },
          ...problemResponses([
            "Incorrect Values",
            "Over Limit",
            "Free Tier Not Allowed",
            "Unknown Data",
            "Not Found",
            "Too Many Requests",
            "Service Unavailable",
          ]),
        },
      },
      onRequest: app.guard("optimizerSearch"),
      preValidation: async (request: FastifyRequest) => {
        const q = request.query as Record<string, unknown>;
        refuseNonDecimalNumbers(q, OptimizerQuery);
        splitLists(q, OPTIMIZER_LIST_PARAMS);
        upperCase(q, ["originType", "destinationType", "modalities", "sort"]);
        request.rawQuery = snapshot(q);
      },
    },
    async (request, reply) => {
      const runner = optimizer();
      const caller = callerOf(request);
      const leave = perKey.enter(caller.key.id);
      // The client went away before its answer: stop the search, its thread is free at once.
      const gone = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableEnded) gone.abort();
      };
      reply.raw.on("close", onClose);
      try {
        const json = await runner.search(
          request.rawQuery ?? {},
          deps.config.optimizer.budgetMs,
          gone.signal
        );
        await credits.settle(caller, "optimizerSearch", request.id);
        // Already the response schema's JSON (made by the search thread): sent as it is.
        return reply.type("application/json; charset=utf-8").send(json);
      } catch (e) {
        // A search stopped by its budget, or by its client leaving, held a thread: it is charged
        // like an answered one (else one key could occupy the threads for free). One still queued
        // when its client left never ran: not charged.
        const neverRan =
          e instanceof SearchFailed &&
          e.failure.failure === "aborted" &&
          e.failure.started === false;
        if (
          e instanceof SearchFailed &&
          (e.failure.failure === "budget" || (gone.signal.aborted && !neverRan))
        )
          await credits.chargeIfPossible(caller, "optimizerSearch", request.id);
        throw e;
      } finally {
        reply.raw.off("close", onClose);
        leave();
      }
    }
  );

  api.get(
    "/external/operators",
    {
      schema: {
        tags: TAG,
        summary: "All operators known to the service (an array of Operator).",
        description: `Needs route-optimizer access and a paid account. Cost: ${credits.costOf("operators")} credits.`,
        security: SECURITY,
        response: {
          200: { description: "Array of operators.", type: "array", items: { $ref: "Operator#" } },
          ...problemResponses(["Over Limit", "Free Tier Not Allowed"]),
        },
      },
      onRequest: app.guard("operators"),
    },
    async (request) => {
      const list = await optimizer().operators();
      await credits.settle(callerOf(request), "operators", request.id);
      return list.map((o) => ({ id: o.id, name: o.name, scac: o.scac }));
    }
  );
};
