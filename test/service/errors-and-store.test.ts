/** 500s (logged with a request id, no stack in the body), key redaction in logs, store migrations and debits. */
import { PassThrough } from "node:stream";
import Database from "better-sqlite3";
import * as path from "node:path";
import { buildApp } from "../../src/service/app";
import { createAccountWithKey } from "../../src/service/accounts";
import { makeConfig } from "../../src/service/config";
import { MIGRATIONS } from "../../src/service/store/migrations";
import { DB_FILE, SqliteStore } from "../../src/service/store/sqlite";
import { RouteEngine, DistanceQuery } from "../../src/engine/route-engine";
import { DistanceResult } from "../../src/engine/types";
import { problemOf, tempDir, testEngine } from "./support";

/** The real engine with one defect: the distance call fails like a programming error would. */
class BrokenEngine extends RouteEngine {
  distance(_query: DistanceQuery): DistanceResult {
    throw new TypeError('cannot read properties of undefined (reading "lat") at secretFunction');
  }
}

test("an unexpected failure → 500 System Error with request id, logged with that id, no stack trace, not charged", async () => {
  const logs = new PassThrough();
  let logText = "";
  logs.on("data", (c) => (logText += c.toString()));
  const store = SqliteStore.open(tempDir());
  const app = await buildApp({
    engine: new BrokenEngine(testEngine().parts),
    store,
    config: makeConfig({ logLevel: "info", logRequests: true }),
    logStream: logs,
  });
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  try {
    const { key, account } = await createAccountWithKey(store, { credits: 5 });
    const res = await fetch(
      `${url}/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK`,
      { headers: { "x-api-key": key } }
    );
    const p = await problemOf(res);
    expect([p.status, p.title]).toEqual([500, "System Error"]);
    expect(p.requestId).toEqual(expect.any(String));
    expect(p.instance).toBe(`urn:request:${p.requestId}`);
    expect(res.headers.get("request-id")).toBe(p.requestId);
    expect(JSON.stringify(p)).not.toMatch(/secretFunction|TypeError|at /);
    expect((await store.accountState(account.id))!.credits).toBe(5);
    await new Promise((r) => setTimeout(r, 50));
    const errorLine = logText
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.level === 50);
    expect(errorLine.reqId).toBe(p.requestId);
    expect(errorLine.err.message).toMatch(/secretFunction/);
    // The key never reaches the logs, though request logging is on.
    expect(logText).toContain("/route-information/api/distance");
    expect(logText).not.toContain(key);
  } finally {
    await app.close();
    await store.close();
  }
});

test("migrations run once and are recorded; reopening keeps data", async () => {
  const dir = tempDir();
  const store = SqliteStore.open(dir);
  const { account } = await createAccountWithKey(store, { credits: 7 });
  await store.close();
  const again = SqliteStore.open(dir);
  expect((await again.accountState(account.id))!.credits).toBe(7);
  const rows = again.db.prepare("SELECT version, name FROM schema_migrations").all();
  expect(rows).toEqual(MIGRATIONS.map((m) => ({ version: m.version, name: m.name })));
  expect(rows[0]).toEqual({ version: 1, name: "accounts, keys, grants, ledger" });
  expect(again.db.pragma("journal_mode", { simple: true })).toBe("wal");
  expect(again.db.pragma("synchronous", { simple: true })).toBe(1); // NORMAL
  await again.close();
});

test("debits are all-or-nothing per charge, in order, with a ledger row each", async () => {
  const dir = tempDir();
  const store = SqliteStore.open(dir);
  const { account, keyId } = await createAccountWithKey(store, {
    credits: 3,
    optimizerAccess: true,
    optimizerCredits: 1,
  });
  const info = { pool: "route-information" as const, endpoint: "distance", cost: 2 };
  expect(await store.charge(account.id, keyId, "r1", [info, info, { ...info, cost: 1 }])).toEqual([
    true,
    false,
    true,
  ]);
  expect(
    await store.charge(account.id, keyId, "r2", [
      { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 1 },
      { pool: "route-optimizer", endpoint: "optimizerSearch", cost: 1 },
    ])
  ).toEqual([true, false]);
  const st = (await store.accountState(account.id))!;
  expect([st.credits, st.optimizerCredits]).toEqual([0, 0]);
  expect(await store.ledgerTotal(account.id, "route-information")).toEqual({ rows: 2, credits: 3 });
  expect(await store.grantTotal(account.id, "route-information")).toBe(3);
  expect(await store.addCredits(account.id, "route-information", 5, "test")).toBe(5);
  // Direct SQL cannot drive a pool negative either.
  const db = new Database(path.join(dir, DB_FILE));
  expect(() => db.prepare("UPDATE accounts SET credits = -1 WHERE id = ?").run(account.id)).toThrow(
    /CHECK/
  );
  db.close();
  await store.close();
});
