/**
 * API-key authentication. The key → account mapping never changes, so it is cached in memory
 * (by key hash, never by key); the account's state (active flag, tier, balances) is asked for on
 * every request, because the CLI changes it from another process (the store may answer from memory
 * it keeps current; refusals are confirmed against the database: see credits.ts).
 */
import fp from "fastify-plugin";
import { fail, ServiceProblem } from "../problem";
import { hashKey, sameHash } from "../store/keys";
import { AccountState, KeyRecord, Store } from "../store/store";

export interface Caller {
  key: KeyRecord;
  account: AccountState;
}

const CACHE_LIMIT = 100_000;

export class KeyAuthenticator {
  private readonly cache = new Map<string, KeyRecord>();

  constructor(private readonly store: Store) {}

  /** Checks, in order: key present (401 No Key), key known (403 Invalid Key), account active (403 Inactive). */
  async authenticate(header: string | string[] | undefined): Promise<Caller> {
    const value = Array.isArray(header) ? header[0] : header;
    if (value === undefined || value.trim() === "") {
      throw fail(
        "No Key",
        "The x-api-key header is required: send your API key (rs_…) in the x-api-key request header."
      );
    }
    const hash = hashKey(value.trim());
    const hex = hash.toString("hex");
    let key = this.cache.get(hex);
    if (!key) {
      const found = await this.store.findKeyByHash(hash);
      if (!found || !sameHash(found.hash, hash)) throw invalidKey();
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(hex, found);
      key = found;
    }
    const account = await this.store.accountState(key.accountId, { cached: true });
    if (!account) {
      this.cache.delete(hex);
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
