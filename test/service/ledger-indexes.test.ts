/**
 * The SQLite ledger keeps one index (migration 3 dropped ledger_key, which every debit paid for):
 * the queries that read the ledger still find their rows through an index, never by scanning the
 * whole ledger, and the per-key usage equals the ledger's rows key by key.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { SqliteStore } from "../../src/service/store/sqlite";
import { newKey } from "../../src/service/store/keys";
import { Pool } from "../../src/service/store/store";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function freshStore(): SqliteStore {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-ledger-"));
  dirs.push(dir);
  return SqliteStore.open(dir);
}

/** EXPLAIN QUERY PLAN's lines for the ledger (alias l or the table itself). */
function ledgerPlan(store: SqliteStore, sql: string, params: unknown[]): string[] {
  return (store.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[])
    .map((r) => r.detail)
    .filter((d) => /\b(ledger|l)\b/.test(d));
}

function account(store: SqliteStore) {
  return store.createAccount(
    { name: "a", tier: "paid", credits: 1_000_000, optimizerAccess: true, optimizerCredits: 12 },
    newKey().record
  );
}

describe("SQLite ledger indexes", () => {
  test("migration 3 leaves one ledger index; usage and account totals are served by it", () => {
    const store = freshStore();
    const indexes = store.db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'ledger'")
      .pluck()
      .all();
    expect(indexes).toEqual(["ledger_account"]);
    const usageSql = (store as unknown as { stmt: { usage: { source: string } } }).stmt.usage
      .source;
    const usage = ledgerPlan(store, usageSql, []);
    expect(usage).toEqual([expect.stringMatching(/^SEARCH l USING INDEX ledger_account/)]);
    const totals = ledgerPlan(
      store,
      "SELECT COUNT(*) AS rows, COALESCE(SUM(cost), 0) AS credits FROM ledger WHERE account_id = ? AND pool = ?",
      ["a", "route-information"]
    );
    expect(totals).toEqual([expect.stringMatching(/^SEARCH ledger USING INDEX ledger_account/)]);
    return store.close();
  });

  test("usage and balances per key equal the ledger's rows and costs (random charges over several accounts and pools in one group)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            who: fc.nat({ max: 3 }),
            pool: fc.constantFrom<Pool>("route-information", "route-optimizer"),
            cost: fc.integer({ min: 1, max: 5 }),
          }),
          { maxLength: 40 }
        ),
        async (charges) => {
          const store = freshStore();
          const accounts = await Promise.all([0, 1, 2, 3].map(() => account(store)));
          const keys = store.db.prepare("SELECT id, account_id FROM api_keys").all() as {
            id: string;
            account_id: string;
          }[];
          const keyOf = new Map(keys.map((k) => [k.account_id, k.id]));
          await Promise.all(
            charges.map((c, i) =>
              store.charge(accounts[c.who].id, keyOf.get(accounts[c.who].id)!, `req-${i}`, [
                { pool: c.pool, endpoint: "distance", cost: c.cost },
              ])
            )
          );
          const rows = await store.usage();
          for (const a of accounts) {
            const key = keyOf.get(a.id)!;
            const row = rows.find((r) => r.keyId === key)!;
            const mine = (pool: Pool) =>
              store.db
                .prepare(
                  "SELECT COUNT(*) AS n, COALESCE(SUM(cost), 0) AS c FROM ledger WHERE key_id = ? AND pool = ?"
                )
                .get(key, pool) as { n: number; c: number };
            const info = mine("route-information");
            const opt = mine("route-optimizer");
            expect([row.calls, row.creditsUsed]).toEqual([info.n, info.c]);
            expect([row.optimizerCalls, row.optimizerCreditsUsed]).toEqual([opt.n, opt.c]);
            // Balances are what the ledger says (the small optimizer pools run dry in some runs,
            // so charges of one group are refused while others of the same group are debited).
            expect([row.creditsLeft, row.optimizerCreditsLeft]).toEqual([
              1_000_000 - info.c,
              12 - opt.c,
            ]);
            expect(await store.ledgerTotal(a.id, "route-information")).toEqual({
              rows: info.n,
              credits: info.c,
            });
          }
          await store.close();
        }
      ),
      { numRuns: 15 }
    );
  });
});
