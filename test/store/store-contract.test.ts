/**
 * The Store contract, one suite run against both adapters: the embedded SQLite file and a real
 * PostgreSQL server (started for this file, a fresh database per suite).
 */
import fc from "fast-check";
import * as fs from "node:fs";
import { Pool as PgPool } from "pg";
import { newKey } from "../../src/service/store/keys";
import { MIGRATIONS } from "../../src/service/store/migrations";
import { PG_MIGRATIONS } from "../../src/service/store/postgres-migrations";
import { PostgresStore } from "../../src/service/store/postgres";
import { SqliteStore } from "../../src/service/store/sqlite";
import { NewAccount, Pool, Store } from "../../src/service/store/store";
import { tempDir } from "../service/support";
import { PostgresServer, startPostgres } from "../support/servers";

interface Adapter {
  name: string;
  /** A store on an empty database. */
  fresh(): Promise<Store>;
  /** The same database opened again (another instance / the CLI). */
  reopen(store: Store): Promise<Store>;
  /** Versions recorded in schema_migrations. */
  migrations(store: Store): Promise<number[]>;
  /** Ledger rows of some accounts. */
  ledger(store: Store, accountIds: string[]): Promise<LedgerRow[]>;
  /** Runs one statement on the store's database, behind its back. */
  exec(store: Store, sql: string): Promise<void>;
  /** The stored answers' UTF-8 bytes of an API key's records unexpired at `now`, by a full scan. */
  scannedBytes(store: Store, keyId: string, now: number): Promise<number>;
}

interface LedgerRow {
  account_id: string;
  request_id: string;
  cost: number;
}

let postgres: PostgresServer;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);

afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
  await postgres?.stop();
});

const sqlite: Adapter = {
  name: "SQLite",
  async fresh() {
    const dir = tempDir("route-sheets-store-");
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    return track(SqliteStore.open(dir));
  },
  async reopen(store) {
    return track(new SqliteStore((store as SqliteStore).file));
  },
  async migrations(store) {
    return (
      (store as SqliteStore).db.prepare("SELECT version FROM schema_migrations").all() as {
        version: number;
      }[]
    ).map((r) => r.version);
  },
  async ledger(store, accountIds) {
    return (store as SqliteStore).db
      .prepare(
        `SELECT account_id, request_id, cost FROM ledger WHERE account_id IN (${accountIds.map(() => "?").join(", ")})`
      )
      .all(...accountIds) as LedgerRow[];
  },
  async exec(store, sql) {
    (store as SqliteStore).db.exec(sql);
  },
  async scannedBytes(store, keyId, now) {
    return (store as SqliteStore).db
      .prepare(
        "SELECT COALESCE(SUM(length(CAST(body AS BLOB))), 0) FROM idempotency_keys WHERE key_id = ? AND expires_at > ?"
      )
      .pluck()
      .get(keyId, now) as number;
  },
};

const urls = new WeakMap<Store, string>();
const pg: Adapter = {
  name: "PostgreSQL",
  async fresh() {
    const url = await postgres.createDatabase("contract");
    const store = track(await PostgresStore.connect(url));
    urls.set(store, url);
    return store;
  },
  async reopen(store) {
    const again = track(await PostgresStore.connect(urls.get(store)!));
    urls.set(again, urls.get(store)!);
    return again;
  },
  async migrations(store) {
    const r = await (store as PostgresStore).pool.query<{ version: number }>(
      "SELECT version FROM schema_migrations ORDER BY version"
    );
    return r.rows.map((row) => row.version);
  },
  async ledger(store, accountIds) {
    const r = await (store as PostgresStore).pool.query<LedgerRow>(
      "SELECT account_id, request_id, cost::int AS cost FROM ledger WHERE account_id = ANY ($1)",
      [accountIds]
    );
    return r.rows;
  },
  async exec(store, sql) {
    await (store as PostgresStore).pool.query(sql);
  },
  async scannedBytes(store, keyId, now) {
    const r = await (store as PostgresStore).pool.query<{ bytes: number }>(
      "SELECT COALESCE(SUM(octet_length(body)), 0)::int AS bytes FROM idempotency_keys WHERE key_id = $1 AND expires_at > $2",
      [keyId, now]
    );
    return r.rows[0].bytes;
  },
};

function track<S extends Store>(store: S): S {
  cleanups.push(() => store.close());
  return store;
}

const ACCOUNT: NewAccount = {
  name: "acme",
  tier: "paid",
  credits: 5,
  optimizerAccess: true,
  optimizerCredits: 2,
};

describe.each([sqlite, pg])("Store contract on $name", (adapter) => {
  let store: Store;
  beforeAll(async () => {
    store = await adapter.fresh();
  });

  test("migrations are recorded once, also when the database is opened again", async () => {
    const versions = await adapter.migrations(store);
    const all = (adapter === pg ? PG_MIGRATIONS : MIGRATIONS).map((m) => m.version);
    expect(versions).toEqual(all);
    await adapter.reopen(store);
    expect(await adapter.migrations(store)).toEqual(all);
  });

  test("an account with its key: found by hash and by id, initial credits recorded as grants", async () => {
    const { key, record } = newKey({ perSecond: 10, burst: 20 });
    const state = await store.createAccount(ACCOUNT, record);
    expect(state).toEqual({
      id: expect.stringMatching(/^acc_/),
      name: "acme",
      tier: "paid",
      active: true,
      optimizerAccess: true,
      credits: 5,
      optimizerCredits: 2,
    });
    const byHash = await store.findKeyByHash(record.hash);
    expect(byHash).toEqual({ ...record, accountId: state.id });
    expect(Buffer.isBuffer(byHash!.hash)).toBe(true);
    expect(await store.findKeyById(record.id)).toEqual(byHash);
    expect(await store.findKeyById("key_nope")).toBeUndefined();
    expect(key.startsWith("rs_")).toBe(true);
    expect(await store.grantTotal(state.id, "route-information")).toBe(5);
    expect(await store.grantTotal(state.id, "route-optimizer")).toBe(2);
    expect(await store.accountState("acc_missing")).toBeUndefined();
  });

  test("charges are debited in order, each only while the pool covers it, with a ledger row each", async () => {
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 3 }, record);
    const ok = await store.charge(a.id, record.id, "req-1", [
      { pool: "route-information", endpoint: "distance", cost: 1 },
      { pool: "route-information", endpoint: "emissions", cost: 2 },
      { pool: "route-information", endpoint: "distance", cost: 1 },
      { pool: "route-information", endpoint: "terminals", cost: 0 },
      { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 2 },
      { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 1 },
    ]);
    expect(ok).toEqual([true, true, false, true, true, false]);
    const state = await store.accountState(a.id);
    expect([state!.credits, state!.optimizerCredits]).toEqual([0, 0]);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({ rows: 2, credits: 3 });
    expect(await store.ledgerTotal(a.id, "route-optimizer")).toEqual({ rows: 1, credits: 2 });
  });

  test("300 concurrent charges on 200 credits: exactly 200 debited, balance 0", async () => {
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 200 }, record);
    const results = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        store.charge(a.id, record.id, `load-${i}`, [
          { pool: "route-information", endpoint: "distance", cost: 1 },
        ])
      )
    );
    expect(results.filter(([ok]) => ok)).toHaveLength(200);
    expect((await store.accountState(a.id))!.credits).toBe(0);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({
      rows: 200,
      credits: 200,
    });
  });

  test("another connection's deactivation and credits are seen by the next request", async () => {
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 0 }, record);
    const other = await adapter.reopen(store);
    // The next request arrives on a later event-loop turn (SQLite revalidates its cache per turn).
    const nextRequest = () => new Promise((resolve) => setImmediate(resolve));
    await store.accountState(a.id);
    await other.setActive(a.id, false);
    await nextRequest();
    expect((await store.accountState(a.id))!.active).toBe(false);
    await other.setActive(a.id, true);
    await nextRequest();
    expect((await store.accountState(a.id))!.active).toBe(true);
    expect(await other.addCredits(a.id, "route-information", 7, "test")).toBe(7);
    expect(await other.addCredits(a.id, "route-optimizer", 3, "test")).toBe(5);
    await nextRequest();
    expect((await store.accountState(a.id))!.credits).toBe(7);
    expect(await store.grantTotal(a.id, "route-information")).toBe(7);
    expect(await store.grantTotal(a.id, "route-optimizer")).toBe(5);
  });

  test("usage: one row per key with calls, credits used and left per pool", async () => {
    const fresh = await adapter.fresh();
    const { record } = newKey();
    const a = await fresh.createAccount({ ...ACCOUNT, name: "usage", credits: 10 }, record);
    await fresh.charge(a.id, record.id, "u-1", [
      { pool: "route-information", endpoint: "distance", cost: 1 },
      { pool: "route-information", endpoint: "emissions", cost: 3 },
      { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 1 },
    ]);
    await fresh.setActive(a.id, false);
    expect(await fresh.usage()).toEqual([
      {
        keyId: record.id,
        keyPrefix: record.prefix,
        accountId: a.id,
        accountName: "usage",
        tier: "paid",
        active: false,
        calls: 2,
        creditsUsed: 4,
        optimizerCalls: 1,
        optimizerCreditsUsed: 1,
        creditsLeft: 6,
        optimizerCreditsLeft: 1,
      },
    ]);
  });

  test("idempotency keys: claimed once, answer replayed, released, expired and abandoned claims taken over", async () => {
    const times = { now: 1_000_000, ttlMs: 86_400_000, leaseMs: 60_000 };
    expect(await store.claimIdempotencyKey("key_a", "idem-1", "fp1", times)).toBeUndefined();
    expect(await store.claimIdempotencyKey("key_a", "idem-1", "fp1", times)).toEqual({
      fingerprint: "fp1",
      status: null,
      body: null,
    });
    // Another key's namespace is separate.
    expect(await store.claimIdempotencyKey("key_b", "idem-1", "fp9", times)).toBeUndefined();
    await store.completeIdempotencyKey("key_a", "idem-1", 200, '{"ok":true}');
    expect(
      await store.claimIdempotencyKey("key_a", "idem-1", "fp1", {
        ...times,
        now: times.now + 120_000,
      })
    ).toEqual({ fingerprint: "fp1", status: 200, body: '{"ok":true}' });
    // Expired after the TTL: a new claim owns it.
    expect(
      await store.claimIdempotencyKey("key_a", "idem-1", "fp2", {
        ...times,
        now: times.now + times.ttlMs,
      })
    ).toBeUndefined();
    // Released while unanswered: claimable again at once.
    expect(await store.claimIdempotencyKey("key_a", "idem-2", "fp", times)).toBeUndefined();
    await store.releaseIdempotencyKey("key_a", "idem-2");
    expect(await store.claimIdempotencyKey("key_a", "idem-2", "fp", times)).toBeUndefined();
    // An unanswered claim older than the lease is abandoned (its process died): taken over.
    expect(
      await store.claimIdempotencyKey("key_a", "idem-2", "fp", { ...times, now: times.now + 1000 })
    ).toEqual({ fingerprint: "fp", status: null, body: null });
    expect(
      await store.claimIdempotencyKey("key_a", "idem-2", "fp", {
        ...times,
        now: times.now + 60_000,
      })
    ).toBeUndefined();
  });

  test("property: random charges (and, on PostgreSQL, retries) sent at once through two instances stay exact", async () => {
    const one = await adapter.fresh();
    const two = await adapter.reopen(one);
    // A retry of a request id is recognised by the PostgreSQL store (instances behind a proxy).
    const maxAttempts = adapter.name === "PostgreSQL" ? 3 : 1;
    const charge = fc.record({
      pool: fc.constantFrom<Pool>("route-information", "route-optimizer"),
      endpoint: fc.constantFrom("distance", "emissions"),
      cost: fc.integer({ min: 0, max: 3 }),
    });
    const request = fc.record({
      account: fc.nat({ max: 2 }),
      charges: fc.array(charge, { minLength: 1, maxLength: 4 }),
      /** Sent again (a proxy's retry with the same request id), through either instance. */
      attempts: fc.integer({ min: 1, max: maxAttempts }),
      /** All or nothing (chargeAll: a /chain's legs). */
      all: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: 20 }), fc.nat({ max: 20 })), {
          minLength: 3,
          maxLength: 3,
        }),
        fc.array(request, { minLength: 1, maxLength: 40 }),
        async (balances, requests) => {
          const accounts: Array<{
            id: string;
            keyId: string;
            credits: number;
            optimizerCredits: number;
          }> = [];
          for (const [credits, optimizerCredits] of balances) {
            const { record } = newKey();
            const a = await one.createAccount({ ...ACCOUNT, credits, optimizerCredits }, record);
            accounts.push({ id: a.id, keyId: record.id, credits, optimizerCredits });
          }
          const sends = requests.flatMap((r, n) =>
            Array.from({ length: r.attempts }, (_, attempt) => ({ r, n, attempt }))
          );
          const answers = await Promise.all(
            sends.map(async ({ r, n, attempt }) => {
              const via = (n + attempt) % 2 ? two : one;
              const args = [
                accounts[r.account].id,
                accounts[r.account].keyId,
                `req-${n}`,
                r.charges,
              ] as const;
              if (!r.all) return via.charge(...args);
              const paid = await via.chargeAll(...args);
              return r.charges.map((c) => c.cost <= 0 || paid);
            })
          );
          {
            const ledger = await adapter.ledger(
              one,
              accounts.map((a) => a.id)
            );
            // Per request: the costs in the ledger are those of the charges answered as debited.
            const costsOf = new Map<string, number[]>();
            for (const l of ledger) {
              const k = `${l.account_id}/${l.request_id}`;
              costsOf.set(k, [...(costsOf.get(k) ?? []), Number(l.cost)].sort());
            }
            for (const [i, { r, n }] of sends.entries()) {
              r.charges.forEach((c, item) => {
                if (c.cost === 0) expect(answers[i][item]).toBe(true);
              });
              // Every attempt of a request gets the same answer: debited once, or not at all.
              const debited = r.charges
                .filter((c, item) => c.cost > 0 && answers[i][item])
                .map((c) => c.cost)
                .sort();
              expect({ n, debited }).toEqual({
                n,
                debited: costsOf.get(`${accounts[r.account].id}/req-${n}`) ?? [],
              });
            }
            for (const a of accounts) {
              const state = (await one.accountState(a.id))!;
              for (const [pool, initial, left] of [
                ["route-information", a.credits, state.credits],
                ["route-optimizer", a.optimizerCredits, state.optimizerCredits],
              ] as const) {
                const used = await one.ledgerTotal(a.id, pool);
                expect(left).toBe(initial - used.credits);
                expect(left).toBeGreaterThanOrEqual(0);
                // Refused only when the pool could not cover it (balances only go down here);
                // all or nothing: when some pool could not cover its sum.
                for (const [i, { r }] of sends.entries())
                  if (accounts[r.account] === a && !r.all)
                    r.charges.forEach((c, item) => {
                      if (c.pool === pool && !answers[i][item]) expect(left).toBeLessThan(c.cost);
                    });
              }
              for (const [i, { r }] of sends.entries()) {
                if (accounts[r.account] !== a || !r.all) continue;
                const paid = r.charges.filter((c) => c.cost > 0);
                // Every charge of an all-or-nothing request shares one answer.
                expect(
                  new Set(paid.map((c) => answers[i][r.charges.indexOf(c)])).size
                ).toBeLessThan(2);
                if (paid.length === 0 || answers[i][r.charges.indexOf(paid[0])]) continue;
                const sum = (p: Pool) =>
                  paid.filter((c) => c.pool === p).reduce((t, c) => t + c.cost, 0);
                expect(
                  sum("route-information") > state.credits ||
                    sum("route-optimizer") > state.optimizerCredits
                ).toBe(true);
              }
            }
          }
        }
      ),
      { numRuns: 25 }
    );
  }, 120_000);

  test("idempotency bytes per API key (unexpired answers, in UTF-8 bytes) and the purge of expired keys", async () => {
    const t0 = 50_000_000;
    const times = { now: t0, ttlMs: 1000, leaseMs: 60_000 };
    expect(await store.idempotencyBytes("key_bytes", t0)).toBe(0);
    await store.claimIdempotencyKey("key_bytes", "b-1", "fp", times);
    // An unanswered claim holds no bytes yet.
    expect(await store.idempotencyBytes("key_bytes", t0)).toBe(0);
    await store.completeIdempotencyKey("key_bytes", "b-1", 200, '{"a":"é"}');
    await store.claimIdempotencyKey("key_bytes", "b-2", "fp", { ...times, now: t0 + 500 });
    await store.completeIdempotencyKey("key_bytes", "b-2", 200, "x".repeat(100));
    await store.claimIdempotencyKey("other_key", "b-1", "fp", times);
    await store.completeIdempotencyKey("other_key", "b-1", 200, "y".repeat(7));
    // é is two bytes in UTF-8.
    expect(await store.idempotencyBytes("key_bytes", t0)).toBe(10 + 100);
    expect(await store.idempotencyBytes("other_key", t0)).toBe(7);
    // b-1 expires at t0 + 1000, b-2 at t0 + 1500.
    expect(await store.idempotencyBytes("key_bytes", t0 + 1000)).toBe(100);
    expect(await store.purgeIdempotencyKeys(t0 + 1000)).toBe(2);
    expect(await store.purgeIdempotencyKeys(t0 + 1000)).toBe(0);
    expect(await store.idempotencyBytes("key_bytes", t0)).toBe(100);
    expect(await store.purgeIdempotencyKeys(t0 + 1500)).toBe(1);
    expect(await store.idempotencyBytes("key_bytes", t0)).toBe(0);
  });

  test("idempotency bytes come from the key's running counter, not from its stored answers", async () => {
    const t0 = 60_000_000;
    const times = { now: t0, ttlMs: 1000, leaseMs: 60_000 };
    await store.claimIdempotencyKey("key_counter", "c-1", "fp", times);
    await store.completeIdempotencyKey("key_counter", "c-1", 200, "z".repeat(50));
    // An answer changed behind the store's back is not read again: the counter holds 50.
    await adapter.exec(
      store,
      "UPDATE idempotency_keys SET body = body || 'more' WHERE key_id = 'key_counter'"
    );
    expect(await store.idempotencyBytes("key_counter", t0)).toBe(50);
  });

  test("reservations at once through two instances never take a key's bytes over the cap", async () => {
    const other = await adapter.reopen(store);
    const times = { now: Date.now(), ttlMs: 60_000, leaseMs: 60_000 };
    const claims = Array.from({ length: 40 }, (_, i) => `r-${i}`);
    for (const c of claims) await store.claimIdempotencyKey("key_reserve", c, "fp", times);
    const ok = await Promise.all(
      claims.map((c, i) =>
        (i % 2 ? other : store).reserveIdempotencyBytes("key_reserve", c, 300, 2000)
      )
    );
    // 6 × 300 = 1,800 fit under 2,000; a seventh would not.
    expect(ok.filter(Boolean)).toHaveLength(6);
    expect(await store.idempotencyBytes("key_reserve", times.now)).toBe(1800);
    // The answers replace their reservations; the refused claims are released.
    for (const [i, c] of claims.entries())
      if (ok[i]) await store.completeIdempotencyKey("key_reserve", c, 200, "a".repeat(250));
      else await store.releaseIdempotencyKey("key_reserve", c);
    expect(await store.idempotencyBytes("key_reserve", times.now)).toBe(1500);
    expect(await store.reserveIdempotencyBytes("key_reserve", "gone", 10, 2000)).toBe(false);
    expect(await store.idempotencyBytes("key_reserve", times.now)).toBe(1500);
  });

  test("property: random claims, reservations, answers, releases, take-overs and purges keep the counter = the answers' bytes", async () => {
    const step = fc.record({
      op: fc.constantFrom("claim", "reserve", "complete", "release", "purge"),
      key: fc.constantFrom("pa", "pb"),
      record: fc.nat({ max: 4 }),
      bytes: fc.nat({ max: 300 }),
      advance: fc.nat({ max: 400 }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
        run++;
        let now = 70_000_000;
        const ttlMs = 1000;
        const leaseMs = 300;
        for (const st of steps) {
          now += st.advance;
          const keyId = `prop-${run}-${st.key}`;
          const rec = `k${st.record}`;
          if (st.op === "claim")
            await store.claimIdempotencyKey(keyId, rec, "fp", { now, ttlMs, leaseMs });
          else if (st.op === "reserve")
            await store.reserveIdempotencyBytes(keyId, rec, st.bytes, 1000);
          else if (st.op === "complete")
            await store.completeIdempotencyKey(keyId, rec, 200, "é".repeat(st.bytes));
          else if (st.op === "release") await store.releaseIdempotencyKey(keyId, rec);
          else await store.purgeIdempotencyKeys(now);
          for (const k of ["pa", "pb"]) {
            const id = `prop-${run}-${k}`;
            const counted = await store.idempotencyBytes(id, now);
            expect(counted).toBeGreaterThanOrEqual(await adapter.scannedBytes(store, id, now));
            // What the counter holds beyond the answers is reservations of unanswered claims.
            await store.purgeIdempotencyKeys(now);
            expect(await store.idempotencyBytes(id, now)).toBe(counted);
          }
        }
        // Every claim answered or released: the counter is exactly the answers' bytes.
        for (const k of ["pa", "pb"]) {
          const id = `prop-${run}-${k}`;
          for (let r = 0; r <= 4; r++) await store.releaseIdempotencyKey(id, `k${r}`);
          expect(await store.idempotencyBytes(id, now)).toBe(
            await adapter.scannedBytes(store, id, now)
          );
        }
      }),
      { numRuns: 30 }
    );
  }, 120_000);

  test("credits are safe integers beyond 32 bits", async () => {
    const { record } = newKey();
    const big = 2 ** 40;
    const a = await store.createAccount({ ...ACCOUNT, credits: big }, record);
    expect((await store.accountState(a.id))!.credits).toBe(big);
    expect(await store.addCredits(a.id, "route-information", big, "big")).toBe(2 * big);
  });
});

describe("PostgreSQL specifics", () => {
  test("a request id is charged once: a retried request after a lost answer is not debited again", async () => {
    const store = await pg.fresh();
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 5 }, record);
    const charge = [{ pool: "route-information" as const, endpoint: "distance", cost: 1 }];
    expect(await store.charge(a.id, record.id, "nginx-req-1", charge)).toEqual([true]);
    expect(await store.charge(a.id, record.id, "nginx-req-1", charge)).toEqual([true]);
    expect(await store.charge(a.id, record.id, "nginx-req-2", charge)).toEqual([true]);
    expect((await store.accountState(a.id))!.credits).toBe(3);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({ rows: 2, credits: 2 });
  });

  test("the ledger has the indexes the debit needs, and an account's ledger total is still read through one", async () => {
    const store = (await pg.fresh()) as PostgresStore;
    const indexes = await store.pool.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE tablename = 'ledger' ORDER BY indexname"
    );
    expect(indexes.rows.map((r) => r.indexdef.replace(/^.* USING /, ""))).toEqual([
      "btree (account_id, request_id, item)",
      "btree (id)",
    ]);
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 10 }, record);
    const charge = [{ pool: "route-information" as const, endpoint: "distance", cost: 1 }];
    for (let i = 0; i < 3; i++) await store.charge(a.id, record.id, `idx-${i}`, charge);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({ rows: 3, credits: 3 });
    // Without sequential scans (a small table is read whole otherwise), the plan of ledgerTotal's
    // statement finds the account's rows through the unique key, whose first column is the account.
    const c = await store.pool.connect();
    try {
      await c.query("SET enable_seqscan = off");
      const plan = await c.query<{ "QUERY PLAN": string }>(
        "EXPLAIN SELECT COUNT(*) AS rows, COALESCE(SUM(cost), 0) AS credits FROM ledger WHERE account_id = $1 AND pool = $2",
        [a.id, "route-information"]
      );
      const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(text).toMatch(
        /Index (Only )?Scan using ledger_account_id_request_id_item_key|Bitmap Index Scan on ledger_account_id_request_id_item_key/
      );
      expect(text).toMatch(/Index Cond: \(account_id = /);
    } finally {
      await c.query("RESET enable_seqscan");
      c.release();
    }
  });

  test("a connection without the session function (a pooler in transaction mode): the schema's charge_many, same answers", async () => {
    const url = await postgres.createDatabase("pooler");
    const store = track(await PostgresStore.connect(url, { poolSize: 1 }));
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 2 }, record);
    const c = await store.pool.connect();
    await c.query("DROP FUNCTION pg_temp.charge_group");
    c.release();
    const charge = [{ pool: "route-information" as const, endpoint: "distance", cost: 1 }];
    const [state, ...answers] = await Promise.all([
      store.accountState(a.id),
      store.charge(a.id, record.id, "p-1", charge),
      store.charge(a.id, record.id, "p-2", charge),
      store.charge(a.id, record.id, "p-3", charge),
      store.charge(a.id, record.id, "p-1", charge),
    ]);
    expect(state?.id).toBe(a.id);
    expect(answers.map(([ok]) => ok).sort()).toEqual([false, true, true, true]);
    expect((await store.accountState(a.id))!.credits).toBe(0);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({ rows: 2, credits: 2 });
  });

  /** Waits until `store` has received more than `seen` notifications (at most 10 s). */
  async function notified(store: PostgresStore, seen: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (store.stats.notifications <= seen) {
      if (Date.now() > deadline) throw new Error("no notification within 10 s");
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  test("the request path's account reads come from memory, kept current by the database's notifications and the debits' own results", async () => {
    const store = await pg.fresh();
    const other = await pg.reopen(store);
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 5 }, record);
    const s = store as PostgresStore;
    const cached = async () => (await store.accountState(a.id, { cached: true }))!;
    expect((await cached()).credits).toBe(5);
    const reads = s.stats.accountReads;
    // Kept: no statement for the next requests.
    for (let i = 0; i < 5; i++) expect((await cached()).credits).toBe(5);
    expect(s.stats.accountReads).toBe(reads);
    // This instance's debit leaves the balance it returned in memory, without a read.
    const charge = [{ pool: "route-information" as const, endpoint: "distance", cost: 2 }];
    expect(await store.charge(a.id, record.id, "mem-1", charge)).toEqual([true]);
    expect((await cached()).credits).toBe(3);
    expect(s.stats.accountReads).toBe(reads);
    // Another instance's debit: memory may be higher than the database (the debit settles it);
    // a read without `cached` is the database's.
    expect(await other.charge(a.id, record.id, "mem-2", charge)).toEqual([true]);
    expect((await cached()).credits).toBe(3);
    expect((await store.accountState(a.id))!.credits).toBe(1);
    // A grant elsewhere is notified: the next request reads it.
    let seen = s.stats.notifications;
    await other.addCredits(a.id, "route-information", 10, "grant");
    await notified(s, seen);
    expect((await cached()).credits).toBe(11);
    // So is a deactivation; an inactive account is never answered from memory.
    seen = s.stats.notifications;
    await other.setActive(a.id, false);
    await notified(s, seen);
    expect((await cached()).active).toBe(false);
    const before = s.stats.accountReads;
    expect((await cached()).active).toBe(false);
    expect(s.stats.accountReads).toBe(before + 1);
    seen = s.stats.notifications;
    await other.setActive(a.id, true);
    await notified(s, seen);
    expect((await cached()).active).toBe(true);
    // Debits lower balances only: they notify nobody.
    seen = s.stats.notifications;
    await other.charge(a.id, record.id, "mem-3", charge);
    await new Promise((r) => setTimeout(r, 200));
    expect(s.stats.notifications).toBe(seen);
  });

  test("an account deactivated after an instance kept it is charged nothing: the debit itself refuses it", async () => {
    const store = await pg.fresh();
    const other = await pg.reopen(store);
    const { record } = newKey();
    const a = await store.createAccount({ ...ACCOUNT, credits: 5 }, record);
    expect((await store.accountState(a.id, { cached: true }))!.active).toBe(true);
    // Deactivated by a statement that the instance has not heard of yet (or never will).
    await (other as PostgresStore).pool.query("UPDATE accounts SET active = FALSE WHERE id = $1", [
      a.id,
    ]);
    const charge = [
      { pool: "route-information" as const, endpoint: "distance", cost: 1 },
      { pool: "route-optimizer" as const, endpoint: "operators", cost: 1 },
      { pool: "route-information" as const, endpoint: "terminals", cost: 0 },
    ];
    expect(await store.charge(a.id, record.id, "inactive-1", charge)).toEqual([false, false, true]);
    expect(await store.ledgerTotal(a.id, "route-information")).toEqual({ rows: 0, credits: 0 });
    expect(await store.ledgerTotal(a.id, "route-optimizer")).toEqual({ rows: 0, credits: 0 });
    expect((await store.accountState(a.id))!).toMatchObject({ credits: 5, optimizerCredits: 2 });
  });

  test("while its LISTEN connection is down an instance keeps nothing in memory, and keeps again once it is back", async () => {
    const store = (await pg.fresh()) as PostgresStore;
    const { record } = newKey();
    const a = await store.createAccount(ACCOUNT, record);
    await store.accountState(a.id, { cached: true });
    const reads = store.stats.accountReads;
    await store.accountState(a.id, { cached: true });
    expect(store.stats.accountReads).toBe(reads);
    await store.pool.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'route-sheets-listener' AND datname = current_database()"
    );
    // Every read goes to the database until the listener is back (retried every second).
    const deadline = Date.now() + 15_000;
    let down = 0;
    for (;;) {
      const before = store.stats.accountReads;
      await store.accountState(a.id, { cached: true });
      await store.accountState(a.id, { cached: true });
      const used = store.stats.accountReads - before;
      if (used === 2) down++;
      else if (down > 0) break;
      if (Date.now() > deadline) throw new Error(`listener not back after 15 s (down ${down})`);
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(down).toBeGreaterThan(0);
  }, 30_000);

  test("instances starting at once on an empty database migrate it once", async () => {
    const url = await postgres.createDatabase("race");
    const stores = await Promise.all([1, 2, 3].map(() => PostgresStore.connect(url)));
    const pool = new PgPool({ connectionString: url });
    const r = await pool.query("SELECT version FROM schema_migrations ORDER BY version");
    await pool.end();
    await Promise.all(stores.map((s) => s.close()));
    expect(r.rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version })));
  });

  test("PostgreSQL going away mid-service: calls fail with 503 Service Unavailable, not a 500", async () => {
    const own = await startPostgres();
    const store = await PostgresStore.connect(await own.createDatabase("gone"));
    const { record } = newKey();
    const a = await store.createAccount(ACCOUNT, record);
    await own.stop();
    for (const call of [
      () => store.accountState(a.id),
      () =>
        store.charge(a.id, record.id, "r", [
          { pool: "route-information", endpoint: "distance", cost: 1 },
        ]),
      () => store.addCredits(a.id, "route-information", 1, "x"),
    ]) {
      await expect(call()).rejects.toMatchObject({ title: "Service Unavailable", status: 503 });
    }
    await store.close();
  }, 60_000);

  test("an unreachable server is a clear error naming it, without the password", async () => {
    await expect(PostgresStore.connect("postgres://u:secret@127.0.0.1:1/none")).rejects.toThrow(
      /PostgreSQL at postgres:\/\/u:\*\*\*@127\.0\.0\.1:1\/none: .*ECONNREFUSED/
    );
  });
});
