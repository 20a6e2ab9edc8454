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
    guard(operation: Operation | null, path?: string): onRequestHookHandler;
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

/** Calls `next` with the value at once, or once the promise settles: one path for both. */
function whenReady<T, U>(value: T | Promise<T>, next: (v: T) => U | Promise<U>): U | Promise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

/**
 * `operation` null: a batch (access and balance are checked per item). `path`: the endpoint named
 * in an access refusal, when it is not the operation's own. A callback hook running one list of
 * checks: each step goes on at once when its answer is at hand (a cached key, a store and a rate
 * limiter that answer at once, a balance that covers the call) and after its promise otherwise, so
 * the common call needs no promise and every call sees the same checks in the same order.
 */
export function guard(deps: GuardDeps, operation: Operation | null, path?: string) {
  const { auth, rateLimiter, credits } = deps;
  function limitAndAccess(caller: Caller): Caller | Promise<Caller> {
    const limit = effectiveRateLimit(caller.key, deps.defaultRate);
    // takeNow undefined: the limiter must wait (Redis); `take` takes the token.
    const decision =
      rateLimiter.takeNow?.(caller.key.id, limit.perSecond, limit.burst) ??
      rateLimiter.take(caller.key.id, limit.perSecond, limit.burst);
    return whenReady(decision, (d) => {
      admit(limit, d);
      if (!operation) return caller;
      checkAccess(caller, operation, path);
      if (credits.covers(caller, operation)) return caller;
      return credits.precheck(caller, operation).then(() => caller);
    });
  }
  return function guardHook(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction
  ): void {
    let checked: Caller | Promise<Caller>;
    try {
      refuseKeyInUrl(request.url);
      const header = request.headers["x-api-key"];
      checked = whenReady(
        auth.authenticateNow(header) ?? auth.authenticate(header),
        limitAndAccess
      );
    } catch (e) {
      done(e as Error);
      return;
    }
    if (checked instanceof Promise)
      checked.then((caller) => {
        request.caller = caller;
        done();
      }, done);
    else {
      request.caller = checked;
      done();
    }
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
    app.decorate("guard", (operation: Operation | null, path?: string) =>
      guard(deps, operation, path)
    );
  },
  {
    name: "route-sheets-guard",
    fastify: "5.x",
    dependencies: ["route-sheets-auth", "route-sheets-credits", "route-sheets-rate-limit"],
  }
);
