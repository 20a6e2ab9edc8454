/**
 * The PostgreSQL store's request-path shortcuts answer like the promise paths they stand for, on a
 * real PostgreSQL:
 * - `accountStateSync` answers exactly when `accountState(id, { cached: true })` answers from the
 *   kept row (the same state, no statement), and undefined exactly when that read goes to the
 *   database; over random sequences of reads, debits, grants, (de)activations and notifications;
 * - `chargeThen` debits like `charge`: two databases with the same accounts get the same random
 *   waves of debits (pools running dry, retried request ids, zero costs, an inactive account), one
 *   through callbacks and one through promises, and answer each charge alike and end with the same
 *   balances and ledgers.
 */
import fc from "fast-check";
import { newKey } from "../../src/service/store/keys";
import { PostgresStore } from "../../src/service/store/postgres";
import { AccountState, Charge, Pool } from "../../src/service/store/store";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;
let a: PostgresStore;
let b: PostgresStore;

beforeAll(async () => {
  postgres = await startPostgres();
  a = await PostgresStore.connect(await postgres.createDatabase("syncpaths"), {
    accountCacheMs: 60_000,
  });
  b = await PostgresStore.connect(await postgres.createDatabase("promisepaths"), {
    accountCacheMs: 60_000,
  });
}, 60_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  await postgres?.stop();
});

const POOLS: Pool[] = ["route-information", "route-optimizer"];

async function account(
  store: PostgresStore,
  credits: number,
  optimizerCredits: number
): Promise<{ id: string; keyId: string }> {
  const { record } = newKey();
  const made = await store.createAccount(
    { name: "sync", tier: "paid", credits, optimizerAccess: true, optimizerCredits },
    record
  );
  return { id: made.id, keyId: record.id };
}

const notified = () => new Promise((resolve) => setTimeout(resolve, 30));

type Step =
  | { kind: "check" | "read" | "activate" | "deactivate" | "settle"; who: number }
  | { kind: "charge"; who: number; pool: Pool; cost: number }
  | { kind: "grant"; who: number; pool: Pool; amount: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constantFrom(
      "check",
      "check",
      "read",
      "activate",
      "deactivate",
      "settle"
    ) as fc.Arbitrary<"check" | "read" | "activate" | "deactivate" | "settle">,
    who: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({
    kind: fc.constant("charge" as const),
    who: fc.integer({ min: 0, max: 2 }),
    pool: fc.constantFrom(...POOLS),
    cost: fc.integer({ min: 0, max: 3 }),
  }),
  fc.record({
    kind: fc.constant("grant" as const),
    who: fc.integer({ min: 0, max: 2 }),
    pool: fc.constantFrom(...POOLS),
    amount: fc.integer({ min: 1, max: 3 }),
  })
);

test("property: accountStateSync answers exactly when the cached read answers from memory, with the same state", async () => {
  let checks = 0;
  let fromMemory = 0;
  let request = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 25 }), async (steps) => {
      const accounts = [
        await account(a, 3, 2),
        await account(a, 1, 0),
        // Index 2: an id with no account behind it.
        { id: "acc_missing", keyId: "key_missing" },
      ];
      for (const s of [...steps, { kind: "check" as const, who: 0 }]) {
        const { id, keyId } = accounts[s.who];
        if (s.kind === "check") {
          const now = a.accountStateSync(id);
          const reads = a.stats.accountReads;
          const cached = await a.accountState(id, { cached: true });
          checks++;
          if (now) {
            fromMemory++;
            expect(cached).toBe(now);
            expect(a.stats.accountReads).toBe(reads);
            expect(now.active).toBe(true);
          } else expect(a.stats.accountReads).toBe(reads + 1);
        } else if (s.kind === "read") await a.accountState(id);
        else if (s.kind === "settle") await notified();
        else if (s.who === 2) continue;
        else if (s.kind === "activate" || s.kind === "deactivate")
          await a.setActive(id, s.kind === "activate");
        else if (s.kind === "grant") await a.addCredits(id, s.pool, s.amount, "test");
        else if (s.kind === "charge")
          await a.charge(id, keyId, `req-${request++}`, [
            { pool: s.pool, endpoint: "distance", cost: s.cost },
          ]);
      }
    }),
    { numRuns: 25 }
  );
  // Both answers were seen many times.
  expect(fromMemory).toBeGreaterThan(10);
  expect(checks - fromMemory).toBeGreaterThan(10);
}, 120_000);

interface Debit {
  who: number;
  /** A small set of request ids: some debits retry an earlier request's id. */
  request: number;
  charges: Charge[];
}

const debit: fc.Arbitrary<Debit> = fc.record({
  who: fc.integer({ min: 0, max: 2 }),
  request: fc.integer({ min: 0, max: 12 }),
  charges: fc.array(
    fc.record({
      pool: fc.constantFrom(...POOLS),
      endpoint: fc.constantFrom("distance", "optimize"),
      cost: fc.integer({ min: 0, max: 3 }),
    }),
    { minLength: 1, maxLength: 3 }
  ),
});

test("property: chargeThen answers and debits like charge (waves of concurrent debits)", async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 4 })), {
        minLength: 3,
        maxLength: 3,
      }),
      fc.boolean(),
      fc.array(fc.array(debit, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
      async (balances, lastInactive, waves) => {
        run++;
        const sides = await Promise.all(
          [a, b].map(async (store) => {
            const made = [];
            for (const [credits, optimizer] of balances)
              made.push(await account(store, credits, optimizer));
            if (lastInactive) await store.setActive(made[2].id, false);
            return made;
          })
        );
        for (const wave of waves) {
          const viaCallback = Promise.all(
            wave.map(
              (d) =>
                new Promise<boolean[] | string>((resolve) => {
                  const { id, keyId } = sides[0][d.who];
                  a.chargeThen(id, keyId, `r${run}-${d.request}`, d.charges, (e, ok) =>
                    resolve(ok ?? String(e))
                  );
                })
            )
          );
          const viaPromise = Promise.all(
            wave.map((d) => {
              const { id, keyId } = sides[1][d.who];
              return b.charge(id, keyId, `r${run}-${d.request}`, d.charges).catch(String);
            })
          );
          expect(await viaCallback).toEqual(await viaPromise);
        }
        const after = await Promise.all(
          sides.map((made, i) =>
            Promise.all(
              made.map(async ({ id }) => {
                const store = i === 0 ? a : b;
                const state = (await store.accountState(id)) as AccountState;
                return [
                  state.credits,
                  state.optimizerCredits,
                  ...(await Promise.all(POOLS.map((p) => store.ledgerTotal(id, p)))),
                ];
              })
            )
          )
        );
        expect(after[0]).toEqual(after[1]);
      }
    ),
    { numRuns: 30 }
  );
}, 180_000);

test("a closed store: chargeThen calls back with the error charge rejects with; nothing is kept", async () => {
  const store = await PostgresStore.connect(await postgres.createDatabase("closed"));
  const { id, keyId } = await account(store, 5, 0);
  await store.accountState(id);
  expect(store.accountStateSync(id)?.credits).toBe(5);
  await store.close();
  expect(store.accountStateSync(id)).toBeUndefined();
  const charges: Charge[] = [{ pool: "route-information", endpoint: "distance", cost: 1 }];
  const called = await new Promise<[unknown, unknown]>((resolve) =>
    store.chargeThen(id, keyId, "late", charges, (e, ok) => resolve([e, ok]))
  );
  expect(called[1]).toBeUndefined();
  await expect(store.charge(id, keyId, "late", charges)).rejects.toEqual(called[0]);
  await expect(store.accountState(id, { cached: true })).rejects.toThrow("the store is closed");
}, 60_000);
