/**
 * The set-based group debit (`pg_temp.charge_group`: one INSERT for the group's ledger rows)
 * against the charge-by-charge one it replaced (`pg_temp.charge_group_rows`, each charge claiming
 * its row in turn), on a real PostgreSQL: random groups over random ledgers — retries of requests
 * already charged, the same request twice in one group, pools running short, inactive and unknown
 * accounts — give the same answers, the same ledger rows and the same balances.
 */
import fc from "fast-check";
import { PoolClient } from "pg";
import { newKey } from "../../src/service/store/keys";
import { PostgresStore } from "../../src/service/store/postgres";
import { Pool } from "../../src/service/store/store";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;
let store: PostgresStore;
let accountIds: string[];
let keyIds: string[];

beforeAll(async () => {
  postgres = await startPostgres();
  store = await PostgresStore.connect(await postgres.createDatabase("chargegroup"), {
    poolSize: 1,
    accountCacheMs: 0,
  });
  accountIds = [];
  keyIds = [];
  for (let i = 0; i < 3; i++) {
    const { record } = newKey();
    const a = await store.createAccount(
      { name: `a${i}`, tier: "paid", credits: 0, optimizerAccess: true, optimizerCredits: 0 },
      record
    );
    accountIds.push(a.id);
    keyIds.push(record.id);
  }
}, 60_000);

afterAll(async () => {
  await store?.close();
  await postgres?.stop();
});

interface Outcome {
  result: {
    ok: boolean[];
    accounts: Array<[string, boolean, number, number]>;
  };
  ledger: string[];
  balances: Array<[string, number, number]>;
}

const ARGS =
  "$1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[], $8";

/** Runs one function on the group inside a transaction that is rolled back; what it did. */
async function run(c: PoolClient, fn: string, values: unknown[]): Promise<Outcome> {
  await c.query("BEGIN");
  try {
    const r = (
      await c.query<{
        ok: boolean[];
        account_ids: string[] | null;
        actives: boolean[] | null;
        infos: string[] | null;
        opts: string[] | null;
      }>(`SELECT * FROM pg_temp.${fn}(${ARGS})`, values)
    ).rows[0];
    const accounts = (r.account_ids ?? [])
      .map((id, i): [string, boolean, number, number] => [
        id,
        r.actives![i],
        Number(r.infos![i]),
        Number(r.opts![i]),
      ])
      .sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const ledger = (
      await c.query<{ row: string }>(
        "SELECT concat_ws('/', account_id, key_id, request_id, item, pool, endpoint, cost) AS row FROM ledger ORDER BY 1"
      )
    ).rows.map((x) => x.row);
    const balances = (
      await c.query<{ id: string; credits: number; optimizer_credits: number }>(
        "SELECT id, credits, optimizer_credits FROM accounts ORDER BY id"
      )
    ).rows.map((x): [string, number, number] => [x.id, x.credits, x.optimizer_credits]);
    return { result: { ok: r.ok, accounts }, ledger, balances };
  } finally {
    await c.query("ROLLBACK");
  }
}

const charge = fc.record({
  /** 3: an account that does not exist. */
  account: fc.nat({ max: 3 }),
  request: fc.constantFrom("r1", "r2", "r3", "r4"),
  item: fc.nat({ max: 1 }),
  pool: fc.constantFrom<Pool>("route-information", "route-optimizer"),
  cost: fc.integer({ min: 0, max: 3 }),
});

test("property: the set-based group debit answers, writes and debits exactly as the charge-by-charge one", async () => {
  const c = await store.pool.connect();
  let fallbacks = 0;
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            credits: fc.nat({ max: 6 }),
            optimizerCredits: fc.nat({ max: 6 }),
            active: fc.boolean(),
          }),
          { minLength: 3, maxLength: 3 }
        ),
        fc.array(charge, { maxLength: 6 }),
        fc.array(charge, { minLength: 1, maxLength: 12 }),
        async (accounts, earlier, group) => {
          await c.query("DELETE FROM ledger");
          for (const [i, a] of accounts.entries())
            await c.query(
              "UPDATE accounts SET credits = $1, optimizer_credits = $2, active = $3 WHERE id = $4",
              [a.credits, a.optimizerCredits, a.active, accountIds[i]]
            );
          // Requests already charged by an earlier attempt (their costs were debited then).
          for (const e of earlier)
            if (e.account < 3 && e.cost > 0)
              await c.query(
                `INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
                 VALUES ($1, $2, $3, 'distance', $4, $5, $6, 1) ON CONFLICT DO NOTHING`,
                [accountIds[e.account], keyIds[e.account], e.pool, e.cost, e.request, e.item]
              );
          // Sorted by account, as the store sends its groups (stable: each account's order kept).
          const sorted = group
            .map((g, i) => ({ ...g, i }))
            .sort((a, b) => a.account - b.account || a.i - b.i);
          const id = (n: number) => accountIds[n] ?? "acc_unknown";
          const values = [
            sorted.map((g) => id(g.account)),
            sorted.map((g) => keyIds[g.account] ?? "key_unknown"),
            sorted.map((g) => g.request),
            sorted.map((g) => g.item),
            sorted.map((g) => g.pool),
            sorted.map(() => "distance"),
            sorted.map((g) => g.cost),
            2,
          ];
          const set = await run(c, "charge_group", values);
          const rows = await run(c, "charge_group_rows", values);
          expect(set).toEqual(rows);
          const keys = sorted
            .filter((g) => g.cost > 0)
            .map((g) => `${g.account}/${g.request}/${g.item}`);
          if (new Set(keys).size < keys.length) fallbacks++;
        }
      ),
      { numRuns: 300 }
    );
  } finally {
    c.release();
  }
  // The runs did exercise groups holding one request twice (the fallback's case).
  expect(fallbacks).toBeGreaterThan(10);
}, 120_000);
