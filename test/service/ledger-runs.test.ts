/**
 * The SQLite group debit writes the ledger rows of runs that differ only in their request id
 * through one INSERT over a JSON array of the ids, the others in multi-row INSERTs. Whatever the
 * mix (accounts, keys, pools, endpoints, costs, request ids of any characters, pools running dry),
 * the ledger holds exactly one row per debited charge, in the order the charges came, with the
 * values as sent.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { newKey } from "../../src/service/store/keys";
import { SqliteStore } from "../../src/service/store/sqlite";
import { Charge, Pool } from "../../src/service/store/store";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface LedgerRow {
  account_id: string;
  key_id: string;
  pool: string;
  endpoint: string;
  cost: number;
  request_id: string;
  created_at: number;
}

/** Request ids: mostly UUID-like (long runs), some with quotes, backslashes, NUL, non-ASCII. */
const requestId = fc.oneof(
  { weight: 6, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constantFrom('a"b', "c\\d", "e\u0000f", "ü-ß", "😀", "", " ") },
  { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: "binary" }) }
);

const request = fc.record({
  who: fc.nat({ max: 2 }),
  id: requestId,
  /** Repeated this many times in a row (one key's calls in one event-loop turn). */
  times: fc.integer({ min: 1, max: 9 }),
  charges: fc.array(
    fc.record({
      pool: fc.constantFrom<Pool>("route-information", "route-optimizer"),
      endpoint: fc.constantFrom("distance", "emissions"),
      cost: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 3 }
  ),
});

test("property: one ledger row per debited charge, in order, with the values sent (runs and loose rows mixed in groups)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(request, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 3 }),
      fc.integer({ min: 0, max: 60 }),
      async (groups, optimizerCredits) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-ledger-runs-"));
        dirs.push(dir);
        const store = SqliteStore.open(dir);
        const owners: Array<{ accountId: string; keyId: string }> = [];
        for (let i = 0; i < 3; i++) {
          const { record } = newKey();
          const a = await store.createAccount(
            {
              name: `a${i}`,
              tier: "paid",
              credits: 1_000,
              optimizerAccess: true,
              optimizerCredits,
            },
            record
          );
          owners.push({ accountId: a.id, keyId: record.id });
        }
        const expected: Array<Omit<LedgerRow, "created_at">> = [];
        for (const group of groups) {
          // One group commit: every request of the group sent in the same turn.
          const sent: Array<{ owner: (typeof owners)[number]; id: string; charges: Charge[] }> = [];
          for (const r of group)
            for (let t = 0; t < r.times; t++)
              sent.push({ owner: owners[r.who], id: r.id, charges: r.charges });
          const answers = await Promise.all(
            sent.map(
              (s) =>
                new Promise<boolean[]>((resolve, reject) =>
                  store.chargeThen(s.owner.accountId, s.owner.keyId, s.id, s.charges, (e, ok) =>
                    ok ? resolve(ok) : reject(e)
                  )
                )
            )
          );
          sent.forEach((s, n) =>
            s.charges.forEach((c, i) => {
              if (c.cost > 0 && answers[n][i])
                expected.push({
                  account_id: s.owner.accountId,
                  key_id: s.owner.keyId,
                  pool: c.pool,
                  endpoint: c.endpoint,
                  cost: c.cost,
                  request_id: s.id,
                });
            })
          );
        }
        const rows = store.db
          .prepare(
            "SELECT account_id, key_id, pool, endpoint, cost, request_id, created_at FROM ledger ORDER BY id"
          )
          .all() as LedgerRow[];
        expect(rows.map(({ created_at: _, ...row }) => row)).toEqual(expected);
        expect(rows.every((r) => Number.isSafeInteger(r.created_at))).toBe(true);
        // Balances: grants minus the ledger, per account and pool.
        for (const { accountId } of owners) {
          const state = (await store.accountState(accountId))!;
          for (const [pool, left] of [
            ["route-information", state.credits],
            ["route-optimizer", state.optimizerCredits],
          ] as const) {
            const spent = await store.ledgerTotal(accountId, pool);
            expect(left).toBe((await store.grantTotal(accountId, pool)) - spent.credits);
          }
        }
        await store.close();
      }
    ),
    { numRuns: 60 }
  );
});
