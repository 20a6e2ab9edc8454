/**
 * `route-sheets db migrate-sqlite` (the built CLI) from a SQLite data directory with real usage into
 * a real PostgreSQL database: same usage, balances, grants and keys; refuses a non-empty target.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { createAccountWithKey } from "../../src/service/accounts";
import { hashKey } from "../../src/service/store/keys";
import { PostgresStore } from "../../src/service/store/postgres";
import { SqliteStore } from "../../src/service/store/sqlite";
import { BIN, requireBuild, ROOT } from "../service/child";
import { tempDir } from "../service/support";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;
let dataDir: string;

beforeAll(async () => {
  requireBuild();
  postgres = await startPostgres();
  dataDir = tempDir("route-sheets-migrate-");
}, 60_000);

afterAll(async () => {
  await postgres?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function run(args: string[]): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { code: 0, stdout, stderr: "" };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, stdout: err.stdout, stderr: err.stderr };
  }
}

test("a used SQLite data directory moves to PostgreSQL with the same keys, balances, grants and usage", async () => {
  const sqlite = SqliteStore.open(dataDir);
  const a = await createAccountWithKey(sqlite, {
    name: "alpha",
    credits: 10,
    optimizerAccess: true,
    optimizerCredits: 5,
    ratePerSecond: 7,
    burst: 9,
  });
  const b = await createAccountWithKey(sqlite, { name: "beta", tier: "free", credits: 3 });
  await sqlite.charge(a.account.id, a.keyId, "r1", [
    { pool: "route-information", endpoint: "distance", cost: 1 },
    { pool: "route-information", endpoint: "emissions", cost: 1 },
  ]);
  await sqlite.charge(a.account.id, a.keyId, "r2", [
    { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 2 },
  ]);
  await sqlite.charge(b.account.id, b.keyId, "r3", [
    { pool: "route-information", endpoint: "distance", cost: 1 },
  ]);
  await sqlite.addCredits(b.account.id, "route-information", 4, "top-up");
  await sqlite.setActive(b.account.id, false);
  const now = Date.now();
  await sqlite.claimIdempotencyKey(a.keyId, "idem-1", "fp", {
    now,
    ttlMs: 86_400_000,
    leaseMs: 60_000,
  });
  await sqlite.completeIdempotencyKey(a.keyId, "idem-1", 200, '{"results":[]}');
  const usage = await sqlite.usage();
  await sqlite.close();

  const database = await postgres.createDatabase("migrate");
  const out = run(["db", "migrate-sqlite", "--data-dir", dataDir, "--database", database]);
  expect(out.stderr).toBe("");
  expect(out.stdout).toMatch(
    /^Migrated 2 accounts, 2 keys, 5 credit grants, 4 ledger rows and 1 idempotency keys from .* balances and ledgers verified\.\n$/
  );

  const pg = await PostgresStore.connect(database);
  try {
    expect(await pg.usage()).toEqual(usage);
    const key = await pg.findKeyByHash(hashKey(a.key));
    expect(key).toEqual(expect.objectContaining({ id: a.keyId, ratePerSecond: 7, burst: 9 }));
    expect(await pg.accountState(b.account.id)).toEqual(
      expect.objectContaining({ active: false, tier: "free", credits: 6 })
    );
    expect(await pg.grantTotal(b.account.id, "route-information")).toBe(7);
    expect(await pg.ledgerTotal(a.account.id, "route-optimizer")).toEqual({ rows: 1, credits: 2 });
    expect(
      await pg.claimIdempotencyKey(a.keyId, "idem-1", "fp", {
        now,
        ttlMs: 86_400_000,
        leaseMs: 60_000,
      })
    ).toEqual({ fingerprint: "fp", status: 200, body: '{"results":[]}' });
    // Debits go on from the migrated balance; the migrated batch's request id is not reusable.
    expect(
      await pg.charge(a.account.id, a.keyId, "r1", [
        { pool: "route-information", endpoint: "distance", cost: 1 },
        { pool: "route-information", endpoint: "emissions", cost: 1 },
        { pool: "route-information", endpoint: "distance", cost: 1 },
      ])
    ).toEqual([true, true, true]);
    expect((await pg.accountState(a.account.id))!.credits).toBe(7);
  } finally {
    await pg.close();
  }

  // Run again: the target has accounts now, nothing is copied twice.
  const again = run(["db", "migrate-sqlite", "--data-dir", dataDir, "--database", database]);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/already has 2 accounts: migrate into an empty database/);
}, 60_000);

test("a directory without service.db is refused naming --data-dir", async () => {
  const empty = tempDir("route-sheets-migrate-empty-");
  const database = await postgres.createDatabase("nothing");
  const out = run(["db", "migrate-sqlite", "--data-dir", empty, "--database", database]);
  fs.rmSync(empty, { recursive: true, force: true });
  expect(out.code).toBe(1);
  expect(out.stderr).toMatch(/--data-dir .* has no service\.db/);
});

test("--database is required", () => {
  const out = run(["db", "migrate-sqlite", "--data-dir", dataDir]);
  expect(out.code).not.toBe(0);
  expect(out.stderr).toMatch(/--database <url>/);
});
