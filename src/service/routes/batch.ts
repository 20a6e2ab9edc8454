/**
 * POST /route-information/api/batch (extension): many distance/emissions/terminal calls in one HTTP
 * request. One request against the rate limit; credits charged per item exactly as the single
 * call would be, debited in order in one transaction.
 */
import { FastifyInstance, FastifyRequest } from "fastify";
import { createHash } from "node:crypto";
import { Caller } from "../plugins/auth";
import { HttpProblem } from "../plugins/problem";
import type { TypeBoxTypeProvider } from "@fastify/type-provider-typebox";
import { incorrectValues } from "../../engine/errors";
import { Operation } from "../config";
import {
  balanceOf,
  checkAccess,
  overLimit,
  PendingCharge,
  POLICY,
  settleMany,
} from "../plugins/credits";
import { problemFor } from "../plugins/problem";
import { BatchBody, BatchType } from "../schemas";
import { Store } from "../store/store";
import { SliceScheduler } from "../slice-scheduler";
import {
  callerOf,
  DISTANCE_INCLUDE,
  parseInclude,
  problemResponses,
  RouteDeps,
  SECURITY,
} from "./common";
import { distanceExtras, emissionsBody } from "./emissions-body";

interface ItemResult {
  status: number;
  body: unknown;
}

type Item = Record<string, string | undefined> & { type: BatchType };

/**
 * A batch gives the event loop back every YIELD_EVERY items, and sooner when items are slow (after
 * SLICE_MS of computing), so other callers' requests (a /distance) wait at most about that long
 * behind it however many items it has. Cached items take microseconds: a time slice alone would
 * let hundreds run between yields (measured: /distance p50 10 → 55 ms under three 1,000-item
 * batch loops), hence the count too. The running batches share one slice per event-loop turn
 * (SliceScheduler), so a cheap call waits behind one slice per turn, not one per running batch.
 */
const YIELD_EVERY = 20;
const SLICE_MS = 2;

export function batchRoutes(app: FastifyInstance, deps: RouteDeps & { store: Store }): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const { engine, credits, config } = deps;
  const slices = new SliceScheduler();

  /** The 200 body of one item, or null for a terminal search that found nothing (204). */
  function compute(item: Item): unknown {
    const modality = item.modality?.trim().toUpperCase();
    switch (item.type) {
      case "terminals": {
        const found = engine.terminals(item.terminalLocode, item.terminalName);
        return found.length
          ? found.map((t) => ({ id: t.id, name: t.name, locode: t.locode }))
          : null;
      }
      case "distance": {
        const include = parseInclude(item.include, "requests[].include", DISTANCE_INCLUDE);
        const r = engine.distance({ ...item, modality });
        const extras = distanceExtras(engine, { ...item, modality }, include);
        return include.has("passages")
          ? { distance: r.distance, passages: r.passages, ...extras }
          : { distance: r.distance, ...extras };
      }
      case "emissions": {
        const include = parseInclude(item.include, "requests[].include");
        return emissionsBody(engine, { ...item, modality }, include);
      }
    }
  }

  api.post(
    "/batch",
    {
      schema: {
        tags: ["route-information", "extension"],
        summary: "Extension: up to 1,000 terminal/distance/emissions calls in one request.",
        description: [
          "Each item is answered as the single GET call with the same parameters would be, in order: `{status, body}`.",
          "200 items carry the call's body; a terminals item that matches nothing is `{status: 204, body: null}`; failed items carry the problem object as body.",
          "Credits: each 200 item is charged as the single call (route-information pool); failed and 204 items are free. When credits run out mid-batch, the remaining chargeable items are `402 Over Limit` and not charged.",
          "Free accounts: emissions items answer 402 Free Tier Not Allowed.",
          "Rate limit: the batch is ONE request against the key's token bucket.",
          "An item without a valid `type` makes the whole request 400 Type Required; nothing is computed or charged.",
          "Idempotency: send an `Idempotency-Key` header (1–200 visible ASCII characters, e.g. a UUID) to make retries safe: an answer that charged something is stored 24 h per API key and key; a retry with the same body (compared as canonical JSON: key order does not matter) gets the first answer again (header idempotent-replayed: true) and is not charged again; an answer that charged nothing is not stored (a retry runs again, free); the same key with another body is 400; while the first request is still running, 503 with Retry-After. Each API key may hold a limited number of stored bytes (past it, 429 with Retry-After).",
        ].join(" "),
        security: SECURITY,
        body: BatchBody,
        response: {
          200: {
            description: "One result per item, in order.",
            type: "object",
            properties: {
              results: {
                type: "array",
                items: { type: "object", properties: { status: { type: "integer" }, body: {} } },
              },
            },
          },
          ...problemResponses(["Incorrect Values", "Type Required"]),
        },
      },
      onRequest: app.guard(null),
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const idem = idempotencyKeyOf(request.headers["idempotency-key"]);
      if (idem) {
        // Canonical JSON (keys sorted): a retry whose serializer ordered the keys otherwise is
        // the same request.
        const fingerprint = createHash("sha256").update(canonicalJson(request.body)).digest("hex");
        const now = Date.now();
        const maxBytes = config.idempotency.maxBytesPerKey;
        // The key's running counter (no scan of its answers): full already, refused at once.
        const stored = await deps.store.idempotencyBytes(caller.key.id, now);
        if (stored >= maxBytes) throw idempotencyFull(stored, maxBytes);
        const prior = await deps.store.claimIdempotencyKey(caller.key.id, idem, fingerprint, {
          now,
          ttlMs: IDEMPOTENCY_TTL_MS,
          leaseMs: IDEMPOTENCY_LEASE_MS,
        });
        if (prior) {
          if (prior.fingerprint !== fingerprint)
            throw incorrectValues(
              "Idempotency-Key",
              "header Idempotency-Key was already used with a different request body in the last 24 hours; use a new key for a new request."
            );
          if (prior.status === null || prior.body === null)
            throw new HttpProblem(
              "Service Unavailable",
              "A request with this Idempotency-Key is still being answered; retry after Retry-After seconds.",
              { "retry-after": "1" }
            );
          reply.header("idempotent-replayed", "true");
          return reply
            .code(prior.status as 200)
            .type("application/json")
            .send(prior.body as never);
        }
        try {
          // Before any debit, the answer's bytes are reserved on the key's counter within the cap
          // (one conditional update): batches at once cannot store more than the cap together.
          const reserve = async (bytes: number): Promise<void> => {
            if (!(await deps.store.reserveIdempotencyBytes(caller.key.id, idem, bytes, maxBytes)))
              throw idempotencyFull(
                await deps.store.idempotencyBytes(caller.key.id, Date.now()),
                maxBytes,
                bytes
              );
          };
          const { text, charged } = await answer(
            request,
            caller,
            request.body.requests as Item[],
            reserve
          );
          // Only an answer that charged something is kept for replay: a retry of a free or
          // failed answer just runs again (still free), and cannot fill the disk for free.
          if (charged > 0) await deps.store.completeIdempotencyKey(caller.key.id, idem, 200, text);
          else await deps.store.releaseIdempotencyKey(caller.key.id, idem);
          return reply.type("application/json").send(text as never);
        } catch (e) {
          await deps.store.releaseIdempotencyKey(caller.key.id, idem);
          throw e;
        }
      }
      const { text } = await answer(request, caller, request.body.requests as Item[]);
      return reply.type("application/json").send(text as never);
    }
  );

  /** Computes and charges the items; the answer as JSON text (bodies differ in shape) and the
   *  number of items charged. */
  async function answer(
    request: FastifyRequest,
    caller: Caller,
    items: Item[],
    reserve?: (bytes: number) => Promise<void>
  ): Promise<{ text: string; charged: number }> {
    {
      if (items.length > config.batchMaxItems) {
        throw incorrectValues(
          "requests",
          `body field requests holds at most ${config.batchMaxItems} items.`
        );
      }
      // The answer's text item by item, made inside the item's time slice (a 1,000-item answer
      // stringified in one piece after the loop held the event loop); an unpaid item's part is
      // replaced after the debit.
      const parts: string[] = [];
      const pending: PendingCharge[] = [];
      let budget = balanceOf(caller, "route-information");
      let sliceStart = performance.now();
      for (let i = 0; i < items.length; i++) {
        if (i % YIELD_EVERY === YIELD_EVERY - 1 || performance.now() - sliceStart >= SLICE_MS) {
          await slices.next();
          sliceStart = performance.now();
        }
        const op: Operation = items[i].type;
        const cost = credits.costOf(op);
        try {
          checkAccess(caller, op);
          if (cost > 0 && budget < cost) throw overLimit(POLICY[op].pool, cost, budget);
          const body = compute(items[i]);
          if (body === null) {
            parts.push(JSON.stringify({ status: 204, body: null } satisfies ItemResult));
            continue;
          }
          parts.push(JSON.stringify({ status: 200, body } satisfies ItemResult));
          if (cost > 0) {
            budget -= cost;
            pending.push({ index: i, op });
          }
        } catch (err) {
          const p = problemFor(err, request, config.problemTypeBase, Object.values(items[i]));
          parts.push(JSON.stringify({ status: p.status, body: p } satisfies ItemResult));
        }
      }
      if (reserve && pending.length > 0) {
        // At most the answer as computed with every item the debit might refuse as its 402.
        let bytes = Buffer.byteLength(parts.join(",")) + TEXT_FRAME.length;
        for (const { index, op } of pending) {
          const refusal = JSON.stringify(unpaidResult(request, credits.costOf(op)));
          bytes += Math.max(0, Buffer.byteLength(refusal) - Buffer.byteLength(parts[index]));
        }
        await reserve(bytes);
      }
      const unpaid = await settleMany(deps.store, credits.costs, caller, request.id, pending);
      for (const index of unpaid)
        parts[index] = JSON.stringify(unpaidResult(request, credits.costOf(items[index].type)));
      return {
        text: `{"results":[${parts.join(",")}]}`,
        charged: pending.length - unpaid.length,
      };
    }
  }

  /** An item the debit refused: 402 Over Limit. */
  function unpaidResult(request: FastifyRequest, cost: number): ItemResult {
    const p = problemFor(overLimit("route-information", cost, 0), request, config.problemTypeBase);
    return { status: p.status, body: p };
  }
}

/** The characters of the answer's text around its items' parts. */
const TEXT_FRAME = `{"results":[]}`;

/** 429: the key holds (or would hold with this answer's `bytes`) more than the cap allows. */
function idempotencyFull(stored: number, maxBytes: number, bytes?: number): HttpProblem {
  const adding = bytes === undefined ? "" : `, and this answer needs up to ${bytes} more`;
  return new HttpProblem(
    "Too Many Requests",
    `This x-api-key already holds ${stored} bytes of answers under Idempotency-Keys${adding} (at most ${maxBytes} per 24 hours); send the batch without Idempotency-Key, or retry after Retry-After seconds.`,
    { "retry-after": "3600" }
  );
}

/** JSON with object keys sorted at every level (arrays keep their order). */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** A claim without an answer after this long belongs to a process that died: retries may run it. */
const IDEMPOTENCY_LEASE_MS = 120 * 1000;

/** The Idempotency-Key header: 1–200 visible ASCII characters, or none. */
function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const v = Array.isArray(header) ? header[0] : header;
  if (!/^[\x21-\x7e]{1,200}$/.test(v))
    throw incorrectValues(
      "Idempotency-Key",
      "header Idempotency-Key must be 1 to 200 visible ASCII characters (e.g. a UUID)."
    );
  return v;
}
