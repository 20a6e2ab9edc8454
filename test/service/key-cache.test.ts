/**
 * The authenticator's key cache (issue 21, /distance speed): keys seen valid skip the SHA-256
 * and the key look-up for a bounded time, in a bounded number; unknown keys are never kept; the
 * cache never prints a key; the account's state is still read on every request.
 */
import * as fc from "fast-check";
import { inspect } from "node:util";
import { createAccountWithKey } from "../../src/service/accounts";
import { KeyAuthenticator, KeyCache } from "../../src/service/plugins/auth";
import { SqliteStore } from "../../src/service/store/sqlite";
import { KeyRecord } from "../../src/service/store/store";
import { tempDir } from "./support";

function record(id: string): KeyRecord {
  return {
    id,
    accountId: `acc_${id}`,
    hash: Buffer.alloc(32),
    prefix: "rs_abcde",
    ratePerSecond: null,
    burst: null,
  };
}

test("an entry lives ttlMs from when it was stored (use does not renew it); the oldest goes past the bound", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 8 }),
      fc.integer({ min: 1, max: 1000 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 11 }), fc.integer({ min: 0, max: 400 })), {
        maxLength: 60,
      }),
      (entries, ttlMs, steps) => {
        let now = 0;
        const cache = new KeyCache({ entries, ttlMs }, () => now);
        // A model: key → expiry, in insertion order.
        const model = new Map<string, number>();
        for (const [k, advance] of steps) {
          now += advance;
          const secret = `rs_key${k}`;
          const expected = (model.get(secret) ?? -1) > now ? secret : undefined;
          if (expected === undefined) model.delete(secret);
          expect(cache.get(secret)?.id).toBe(expected);
          if (!expected) {
            cache.set(secret, record(secret));
            model.delete(secret);
            while (model.size >= entries) model.delete(model.keys().next().value as string);
            model.set(secret, now + ttlMs);
          }
          expect(cache.size).toBeLessThanOrEqual(entries);
        }
      }
    )
  );
});

test("the cache never prints its keys (JSON, util.inspect)", () => {
  const cache = new KeyCache();
  const secret = "rs_" + "s".repeat(43);
  cache.set(secret, record("key_1"));
  expect(JSON.stringify({ cache })).not.toContain(secret);
  expect(inspect(cache, { depth: 5, showHidden: true })).not.toContain(secret);
  expect(inspect(new KeyAuthenticator(undefined as never), { depth: 5 })).not.toContain("rs_");
});

describe("KeyAuthenticator on a real SQLite store", () => {
  let store: SqliteStore;
  beforeEach(() => {
    store = SqliteStore.open(tempDir());
  });
  afterEach(async () => store.close());

  test("a valid key is looked up once; unknown keys are looked up every time and never cached", async () => {
    const { key, account } = await createAccountWithKey(store, { credits: 3 });
    let lookups = 0;
    const find = store.findKeyByHash.bind(store);
    store.findKeyByHash = (hash) => {
      lookups++;
      return find(hash);
    };
    const auth = new KeyAuthenticator(store, { entries: 4, ttlMs: 60_000 });
    for (let i = 0; i < 5; i++) expect((await auth.authenticate(key)).account.id).toBe(account.id);
    expect(lookups).toBe(1);
    const unknown = key.slice(0, -1) + (key.endsWith("A") ? "B" : "A");
    for (let i = 0; i < 3; i++)
      await expect(auth.authenticate(unknown)).rejects.toMatchObject({ title: "Invalid Key" });
    expect(lookups).toBe(4);
    // The key as sent with spaces around it is the same key (and the same cache entry).
    await auth.authenticate(`  ${key} `);
    expect(lookups).toBe(4);
  });

  test("the account's state is read on every request: deactivating a cached key's account refuses it at once", async () => {
    const { key, account } = await createAccountWithKey(store, { credits: 3 });
    const auth = new KeyAuthenticator(store);
    await auth.authenticate(key);
    await store.setActive(account.id, false);
    await expect(auth.authenticate(key)).rejects.toMatchObject({ title: "Inactive" });
    await store.setActive(account.id, true);
    expect((await auth.authenticate(key)).account.active).toBe(true);
  });
});
