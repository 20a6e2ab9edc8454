/**
 * The set-based group debit (`pg_temp.charge_group`: one INSERT for the group's ledger rows)
 * against the charge-by-charge one it replaced (`pg_temp.charge_group_rows`, each charge claiming
 * its row in turn), on a real PostgreSQL: random groups over random ledgers — retries of requests
 * already charged, the same request twice in one group, pools running short, inactive and unknown
 * accounts — give the same answers, the same ledger rows and the same balances. And the plain
 * statement tried first (`DEBIT_IF_COVERED`) either does exactly what charge_group does, or
 * nothing at all.
 */
import fc from "fast-check";
import { PoolClient } from "pg";
import { newKey } from "../../src/service/store/keys";
import { DEBIT_IF_COVERED, PostgresStore } from "../../src/service/store/postgres";
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

interface AccountsAfter {
  account_ids: string[] | null;
  actives: boolean[] | null;
  infos: string[] | null;
  opts: string[] | null;
}

function accountsOf(r: AccountsAfter): Array<[string, boolean, number, number]> {
  return (r.account_ids ?? [])
    .map((id, i): [string, boolean, number, number] => [
      id,
      r.actives![i],
      Number(r.infos![i]),
      Number(r.opts![i]),
    ])
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The ledger's rows and the accounts' balances, as they stand in the transaction. */
async function contents(c: PoolClient): Promise<Pick<Outcome, "ledger" | "balances">> {
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
  return { ledger, balances };
}

/** Runs one function on the group inside a transaction that is rolled back; what it did. */
async function run(c: PoolClient, fn: string, values: unknown[]): Promise<Outcome> {
  await c.query("BEGIN");
  try {
    const r = (
      await c.query<AccountsAfter & { ok: boolean[] }>(
        `SELECT * FROM pg_temp.${fn}(${ARGS})`,
        values
      )
    ).rows[0];
    return { result: { ok: r.ok, accounts: accountsOf(r) }, ...(await contents(c)) };
  } finally {
    await c.query("ROLLBACK");
  }
}

/**
 * Runs DEBIT_IF_COVERED as the store does (on its own: a failed statement is undone whole) inside
 * a transaction that is rolled back: "covered" and what it did, "not covered" or "unique key".
 */
async function runCovered(
  c: PoolClient,
  values: unknown[]
): Promise<{ verdict: "covered" | "not covered" | "unique key"; outcome: Outcome }> {
  await c.query("BEGIN");
  try {
    await c.query("SAVEPOINT covered");
    let verdict: "covered" | "not covered" | "unique key";
    let accounts: Outcome["result"]["accounts"] = [];
    try {
      const r = (await c.query<AccountsAfter & { covered: boolean }>(DEBIT_IF_COVERED, values))
        .rows[0];
      verdict = r.covered ? "covered" : "not covered";
      accounts = accountsOf(r);
    } catch (e) {
      if ((e as { code?: string }).code !== "23505") throw e;
      await c.query("ROLLBACK TO SAVEPOINT covered");
      verdict = "unique key";
    }
    const charges = (values[0] as string[]).length;
    const ok = new Array<boolean>(verdict === "covered" ? charges : 0).fill(true);
    return { verdict, outcome: { result: { ok, accounts }, ...(await contents(c)) } };
  } finally {
    await c.query("ROLLBACK");
  }
}

/** A charge; account 3 does not exist (left out when `unknown` is false). */
const chargeOf = (unknown: boolean) =>
  fc.record({
    account: fc.nat({ max: unknown ? 3 : 2 }),
    request: fc.constantFrom("r1", "r2", "r3", "r4"),
    item: fc.nat({ max: 1 }),
    pool: fc.constantFrom<Pool>("route-information", "route-optimizer"),
    cost: fc.integer({ min: 0, max: 3 }),
  });
type Charge = ReturnType<typeof chargeOf> extends fc.Arbitrary<infer T> ? T : never;

/**
 * Three accounts' balances (up to `maxCredits` per pool) and flags, requests charged before, and
 * the group to debit. With `unknown` false, every account is active and every charge names one
 * that exists.
 */
const situationWith = (maxCredits: number, unknown: boolean) =>
  fc.record({
    accounts: fc.array(
      fc.record({
        credits: fc.nat({ max: maxCredits }),
        optimizerCredits: fc.nat({ max: maxCredits }),
        active: unknown ? fc.boolean() : fc.constant(true),
      }),
      { minLength: 3, maxLength: 3 }
    ),
    earlier: fc.array(chargeOf(unknown), { maxLength: 6 }),
    group: fc.array(chargeOf(unknown), { minLength: 1, maxLength: 12 }),
  });
const situation = situationWith(6, true);
type Situation = typeof situation extends fc.Arbitrary<infer T> ? T : never;

/**
 * Sets the accounts and the ledger as the situation says; returns the group's statement values
 * (sorted by account, as the store sends its groups) and the group so sorted.
 */
async function prepare(
  c: PoolClient,
  { accounts, earlier, group }: Situation
): Promise<{ values: unknown[]; sorted: Charge[] }> {
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
  // Stable: each account's order kept.
  const sorted = group
    .map((g, i) => ({ g, i }))
    .sort((a, b) => a.g.account - b.g.account || a.i - b.i)
    .map((x) => x.g);
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
  return { values, sorted };
}

test("property: the set-based group debit answers, writes and debits exactly as the charge-by-charge one", async () => {
  const c = await store.pool.connect();
  let fallbacks = 0;
  try {
    await fc.assert(
      fc.asyncProperty(situation, async (s) => {
        const { values, sorted } = await prepare(c, s);
        const set = await run(c, "charge_group", values);
        const rows = await run(c, "charge_group_rows", values);
        expect(set).toEqual(rows);
        const keys = sorted
          .filter((g) => g.cost > 0)
          .map((g) => `${g.account}/${g.request}/${g.item}`);
        if (new Set(keys).size < keys.length) fallbacks++;
      }),
      { numRuns: 300 }
    );
  } finally {
    c.release();
  }
  // The runs did exercise groups holding one request twice (the fallback's case).
  expect(fallbacks).toBeGreaterThan(10);
}, 120_000);

test("property: the plain statement tried first does exactly what charge_group does, or nothing", async () => {
  const c = await store.pool.connect();
  const seen = { covered: 0, "not covered": 0, "unique key": 0 };
  try {
    await fc.assert(
      // Balances from short to plenty, and unknown or inactive accounts or none: groups covered
      // whole, and groups that are not.
      fc.asyncProperty(fc.oneof(situation, situationWith(40, false)), async (s) => {
        const { values } = await prepare(c, s);
        const untouched = await contents(c);
        const { verdict, outcome } = await runCovered(c, values);
        const group = await run(c, "charge_group", values);
        seen[verdict]++;
        if (verdict === "covered") {
          // Every charge paid, the same rows written and the same balances left.
          expect(group.result.ok.every(Boolean)).toBe(true);
          expect(outcome.result.ok).toEqual(group.result.ok);
          expect(outcome.ledger).toEqual(group.ledger);
          expect(outcome.balances).toEqual(group.balances);
          // The accounts it reports are those it debited, as charge_group reports them.
          for (const a of outcome.result.accounts) expect(group.result.accounts).toContainEqual(a);
        } else {
          expect(outcome.ledger).toEqual(untouched.ledger);
          expect(outcome.balances).toEqual(untouched.balances);
        }
        if (verdict === "unique key") {
          // Only a charge already in the ledger, or twice in the group, makes the INSERT fail.
          const paid = s.group.filter((g) => g.cost > 0 && g.account < 3);
          const keys = paid.map((g) => `${g.account}/${g.request}/${g.item}`);
          const before = new Set(
            s.earlier
              .filter((e) => e.cost > 0 && e.account < 3)
              .map((e) => `${e.account}/${e.request}/${e.item}`)
          );
          expect(new Set(keys).size < keys.length || keys.some((k) => before.has(k))).toBe(true);
        }
      }),
      { numRuns: 300 }
    );
  } finally {
    c.release();
  }
  // Each way out was taken often enough to mean something.
  expect(seen.covered).toBeGreaterThan(20);
  expect(seen["not covered"]).toBeGreaterThan(20);
  expect(seen["unique key"]).toBeGreaterThan(10);
}, 120_000);
