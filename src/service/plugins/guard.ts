/**
 * The checks before any computing, in the order the contract fixes: key present → key valid →
 * account active → rate limit → tier/optimizer access → balance pre-check. Runs as the route's
 * onRequest hook, i.e. before query/body validation.
 */
import {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from "fastify";
import fp from "fastify-plugin";
import { Operation, RateLimitSetting } from "../config";
import { Caller, KeyAuthenticator } from "./auth";
import { checkAccess, Credits } from "./credits";
import { HttpProblem } from "./problem";
import { fail } from "../problem";
import { containsKey } from "../store/keys";
import { RateLimitDecision, RateLimiter } from "../rate-limit/limiter";
import { KeyRecord } from "../store/store";

declare module "fastify" {
  interface FastifyInstance {
    /** The onRequest hook of a keyed route; `null`: a batch (access and balance per item). */
    guard(operation: Operation | null): onRequestHookHandler;
  }
}

export interface GuardDeps {
  auth: KeyAuthenticator;
  rateLimiter: RateLimiter;
  credits: Credits;
  defaultRate: RateLimitSetting;
}

/** The key's own token bucket setting, or the service default. */
export function effectiveRateLimit(key: KeyRecord, fallback: RateLimitSetting): RateLimitSetting {
  return key.ratePerSecond
    ? // A bucket under one token would never let a request through.
      { perSecond: key.ratePerSecond, burst: Math.max(1, key.burst ?? key.ratePerSecond * 2) }
    : fallback;
}

/** Query parameter names a client might put a key under. */
const KEY_PARAMETERS = /[?&](x-api-key|api[-_]?key|apikey|key)=/i;

/** URLs end up in logs, proxies and browser history: a key there is refused (and never logged). */
function refuseKeyInUrl(url: string): void {
  const q = url.indexOf("?");
  if (q < 0) return;
  const query = url.slice(q);
  let decoded = query;
  if (query.includes("%"))
    try {
      decoded = decodeURIComponent(query);
    } catch {
      /* malformed escapes: check the raw text */
    }
  if (KEY_PARAMETERS.test(query) || containsKey(decoded))
    throw fail(
      "Incorrect Values",
      "An API key was sent in the URL: send it only in the x-api-key request header (URLs are logged and cached). Consider this key exposed; ask the service operator for a new one."
    );
}

/** 429 Too Many Requests when the bucket refused. */
function admit(limit: RateLimitSetting, decision: RateLimitDecision): void {
  if (decision.allowed) return;
  const wait = decision.retryAfterSeconds;
  throw new HttpProblem(
    "Too Many Requests",
    `This x-api-key is limited to ${limit.perSecond} requests/s (bursts of ${limit.burst}); retry after ${wait} s and back off exponentially.`,
    { "retry-after": String(wait) }
  );
}

/**
 * `operation` null: a batch (access and balance are checked per item). A callback hook: when
 * nothing needs waiting for (a cached key, a store and a rate limiter that answer at once, a
 * balance that covers the call) the checks run synchronously, without a promise; otherwise the
 * rest of them runs asynchronously, in the same order.
 */
export function guard(deps: GuardDeps, operation: Operation | null) {
  const { auth, rateLimiter, credits } = deps;
  /** The checks from wherever the synchronous path stopped (`caller`: authenticated already). */
  async function rest(request: FastifyRequest, known: Caller | undefined): Promise<void> {
    const caller = known ?? (await auth.authenticate(request.headers["x-api-key"]));
    const limit = effectiveRateLimit(caller.key, deps.defaultRate);
    admit(limit, await rateLimiter.take(caller.key.id, limit.perSecond, limit.burst));
    if (operation) {
      checkAccess(caller, operation);
      await credits.precheck(caller, operation);
    }
    request.caller = caller;
  }
  return function guardHook(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction
  ): void {
    let caller: Caller | undefined;
    try {
      refuseKeyInUrl(request.url);
      caller = auth.authenticateNow(request.headers["x-api-key"]);
      if (caller && rateLimiter.takeNow) {
        const limit = effectiveRateLimit(caller.key, deps.defaultRate);
        // undefined: the limiter must wait (Redis); the promise path takes the token.
        const decision = rateLimiter.takeNow(caller.key.id, limit.perSecond, limit.burst);
        if (decision) {
          admit(limit, decision);
          if (operation) {
            checkAccess(caller, operation);
            if (!credits.covers(caller, operation)) {
              const known = caller;
              credits.precheck(known, operation).then(() => {
                request.caller = known;
                done();
              }, done);
              return;
            }
          }
          request.caller = caller;
          done();
          return;
        }
      }
    } catch (e) {
      done(e as Error);
      return;
    }
    rest(request, caller).then(() => done(), done);
  };
}

/** Decorates the root with `guard(operation)`, built from the auth, credits and rate-limit plugins. */
export const guardPlugin = fp(
  async (app) => {
    const deps: GuardDeps = {
      auth: app.keyAuth,
      rateLimiter: app.rateLimiter,
      credits: app.credits,
      defaultRate: app.defaultRateLimit,
    };
    app.decorate("guard", (operation: Operation | null) => guard(deps, operation));
  },
  {
    name: "route-sheets-guard",
    fastify: "5.x",
    dependencies: ["route-sheets-auth", "route-sheets-credits", "route-sheets-rate-limit"],
  }
);
