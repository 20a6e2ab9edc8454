/**
 * API-key authentication. The key → key record mapping never changes (keys are not edited, an
 * account is switched off by its active flag), so it is cached in memory for a short while; the
 * account's state (active flag, tier, balances) is asked for on every request, because the CLI
 * changes it from another process (the store may answer from memory it keeps current; refusals
 * are confirmed against the database: see credits.ts).
 */
import fp from "fastify-plugin";
import { fail, ServiceProblem } from "../problem";
import { hashKey, sameHash } from "../store/keys";
import { AccountState, KeyRecord, Store } from "../store/store";

export interface Caller {
  key: KeyRecord;
  account: AccountState;
}

/** How many keys, and for how long, the authenticator remembers (see KeyCache). */
export interface KeyCacheLimits {
  entries: number;
  ttlMs: number;
}

export const KEY_CACHE_LIMITS: KeyCacheLimits = { entries: 10_000, ttlMs: 60_000 };

/**
 * Keys recently seen valid → their record, so a request does not pay a SHA-256 of its key (the
 * largest cost of authentication). Keyed by the key as sent: a cache keyed by its hash would
 * still hash every request. The key is a secret, so this is only ever in this process's memory,
 * never logged, serialized or written anywhere (the stores keep hashes only); each entry lives
 * `ttlMs` from when it was verified (not renewed by use) and the oldest goes when `entries` are
 * held, so a key stays in memory at most that long after its last check against the store.
 * Only keys the store knows are cached: unknown keys cannot fill it.
 */
export class KeyCache {
  readonly #entries = new Map<string, { key: KeyRecord; expiresAt: number }>();

  constructor(
    private readonly limits: KeyCacheLimits = KEY_CACHE_LIMITS,
    private readonly now: () => number = Date.now
  ) {}

  get(secret: string): KeyRecord | undefined {
    const hit = this.#entries.get(secret);
    if (!hit) return undefined;
    if (hit.expiresAt > this.now()) return hit.key;
    this.#entries.delete(secret);
    return undefined;
  }

  set(secret: string, key: KeyRecord): void {
    this.#entries.delete(secret);
    // Map iteration is in insertion order: the first entry is the oldest.
    while (this.#entries.size >= this.limits.entries)
      this.#entries.delete(this.#entries.keys().next().value as string);
    this.#entries.set(secret, { key, expiresAt: this.now() + this.limits.ttlMs });
  }

  delete(secret: string): void {
    this.#entries.delete(secret);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Never print the keys (console.log, util.inspect, JSON) even by mistake. */
  toJSON(): string {
    return `[KeyCache: ${this.#entries.size} keys]`;
  }

  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toJSON();
  }
}

export class KeyAuthenticator {
  private readonly cache: KeyCache;

  constructor(
    private readonly store: Store,
    limits: KeyCacheLimits = KEY_CACHE_LIMITS
  ) {
    this.cache = new KeyCache(limits);
  }

  /** Checks, in order: key present (401 No Key), key known (403 Invalid Key), account active (403 Inactive). */
  async authenticate(header: string | string[] | undefined): Promise<Caller> {
    const secret = secretOf(header);
    let key = this.cache.get(secret);
    if (!key) {
      const hash = hashKey(secret);
      const found = await this.store.findKeyByHash(hash);
      if (!found || !sameHash(found.hash, hash)) throw invalidKey();
      this.cache.set(secret, found);
      key = found;
    }
    return this.callerOf(
      secret,
      key,
      await this.store.accountState(key.accountId, { cached: true })
    );
  }

  /**
   * The same checks answered at once when nothing needs waiting for (a key in the cache and a
   * store that answers its account synchronously); undefined otherwise (then call
   * `authenticate`). Throws the same problems as `authenticate`. A store's accountStateSync may
   * answer undefined because it would have to ask its database (PostgreSQL): `authenticate` then
   * decides, also for an account that is really gone.
   */
  authenticateNow(header: string | string[] | undefined): Caller | undefined {
    const secret = secretOf(header);
    const key = this.cache.get(secret);
    if (!key || !this.store.accountStateSync) return undefined;
    const account = this.store.accountStateSync(key.accountId);
    return account ? this.callerOf(secret, key, account) : undefined;
  }

  private callerOf(secret: string, key: KeyRecord, account: AccountState | undefined): Caller {
    if (!account) {
      this.cache.delete(secret);
      throw invalidKey();
    }
    if (!account.active) {
      throw fail(
        "Inactive",
        "The account of this x-api-key is inactive; ask the service operator to reactivate it."
      );
    }
    return { key, account };
  }
}

/** The key as sent (trimmed); 401 No Key when there is none. */
function secretOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  const secret = value?.trim();
  if (secret === undefined || secret === "") {
    throw fail(
      "No Key",
      "The x-api-key header is required: send your API key (rs_…) in the x-api-key request header."
    );
  }
  return secret;
}

function invalidKey(): ServiceProblem {
  return fail(
    "Invalid Key",
    "The x-api-key is not valid: it must be a key issued by this service (route-sheets keys create)."
  );
}

declare module "fastify" {
  interface FastifyInstance {
    keyAuth: KeyAuthenticator;
  }
  interface FastifyRequest {
    caller: Caller | null;
  }
}

/** Decorates the root with the key authenticator and every request with its (guarded) caller. */
export const authPlugin = fp(
  async (app, options: { store: Store }) => {
    app.decorate("keyAuth", new KeyAuthenticator(options.store));
    app.decorateRequest("caller", null);
  },
  { name: "route-sheets-auth", fastify: "5.x" }
);
