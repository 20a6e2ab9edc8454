/**
 * SqliteStore.chargeThen (the /distance path's debit, no promise) answers as charge does: over
 * random groups of debits that run a pool dry, the callbacks get the same per-charge results, in
 * the same group commit, and the balance equals credits minus the ledger.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import fc from "fast-check";
import { newKey } from "../../src/service/store/keys";
import { SqliteStore } from "../../src/service/store/sqlite";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function storeWithAccount(credits: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rs-charge-"));
  dirs.push(dir);
  const store = SqliteStore.open(dir);
  const { record } = newKey();
  const account = await store.createAccount(
    { name: "a", tier: "paid", credits, optimizerAccess: false, optimizerCredits: 0 },
    record
  );
  return { store, accountId: account.id, keyId: record.id };
}

test("chargeThen and charge debit alike, one group at a time, the ledger matching the balance", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 20 }),
      fc.array(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 12 }), {
        minLength: 1,
        maxLength: 4,
      }),
      async (credits, groups) => {
        const viaPromise = await storeWithAccount(credits);
        const viaCallback = await storeWithAccount(credits);
        for (const [g, costs] of groups.entries()) {
          const charges = (cost: number) => [
            { pool: "route-information" as const, endpoint: "distance", cost },
          ];
          const promised = Promise.all(
            costs.map((cost, i) =>
              viaPromise.store.charge(
                viaPromise.accountId,
                viaPromise.keyId,
                `p${g}-${i}`,
                charges(cost)
              )
            )
          );
          const called = Promise.all(
            costs.map(
              (cost, i) =>
                new Promise<boolean[]>((resolve, reject) =>
                  viaCallback.store.chargeThen(
                    viaCallback.accountId,
                    viaCallback.keyId,
                    `c${g}-${i}`,
                    charges(cost),
                    (error, ok) => (ok ? resolve(ok) : reject(error))
                  )
                )
            )
          );
          expect(await called).toEqual(await promised);
        }
        for (const { store, accountId } of [viaPromise, viaCallback]) {
          const spent = await store.ledgerTotal(accountId, "route-information");
          expect((await store.accountState(accountId))!.credits).toBe(credits - spent.credits);
          await store.close();
        }
      }
    ),
    { numRuns: 25 }
  );
});
