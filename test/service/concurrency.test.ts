/**
 * Credits under load, against the real server process: 50 clients × 200 calls on 5,000 credits →
 * exactly 5,000 answered 200 and debited; then a SIGKILL mid-load loses no committed debit.
 */
import Database from "better-sqlite3";
import * as path from "node:path";
import { DB_FILE } from "../../src/service/store/sqlite";
import { createKey, kill, requireBuild, serve } from "./child";
import { tempDir } from "./support";

const LANE = "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK";

function audit(dataDir: string) {
  const db = new Database(path.join(dataDir, DB_FILE), { readonly: true });
  const row = db
    .prepare(
      `SELECT a.credits AS balance,
              (SELECT COALESCE(SUM(amount), 0) FROM credit_grants g WHERE g.account_id = a.id AND g.pool = 'route-information') AS granted,
              (SELECT COUNT(*) FROM ledger l WHERE l.account_id = a.id) AS rows,
              (SELECT COALESCE(SUM(cost), 0) FROM ledger l WHERE l.account_id = a.id) AS debited
       FROM accounts a`
    )
    .get() as { balance: number; granted: number; rows: number; debited: number };
  db.close();
  return row;
}

async function load(
  url: string,
  key: string,
  clients: number,
  perClient: number,
  counts: Map<string, number>,
  stop = { now: false }
): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < perClient && !stop.now; i++) {
        let status: string;
        try {
          const res = await fetch(url + LANE, { headers: { "x-api-key": key } });
          await res.arrayBuffer();
          status = String(res.status);
        } catch {
          status = "network error";
          await new Promise((r) => setTimeout(r, 5));
        }
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
    })
  );
}

beforeAll(() => requireBuild());

test("50 clients × 200 calls on 5,000 credits: exactly 5,000 × 200 and 5,000 debits, the rest 402", async () => {
  const dataDir = tempDir();
  const key = createKey(dataDir, [
    "--name",
    "load",
    "--credits",
    "5000",
    "--rate-limit",
    "1000000",
  ]);
  const server = await serve(dataDir);
  try {
    const counts = new Map<string, number>();
    await load(server.url, key, 50, 200, counts);
    expect(Object.fromEntries(counts)).toEqual({ "200": 5000, "402": 5000 });
  } finally {
    await kill(server.child, "SIGTERM");
  }
  expect(audit(dataDir)).toEqual({ balance: 0, granted: 5000, rows: 5000, debited: 5000 });
}, 120_000);

test("SIGKILL mid-load and restart: granted − ledger == balance, and 200s seen ≤ ledger rows", async () => {
  const dataDir = tempDir();
  const key = createKey(dataDir, [
    "--name",
    "crash",
    "--credits",
    "1000000",
    "--rate-limit",
    "1000000",
  ]);
  const first = await serve(dataDir);
  const counts = new Map<string, number>();
  const stop = { now: false };
  const running = load(first.url, key, 50, 400, counts, stop);
  // Kill once the load is well under way; the clients stop after their in-flight call fails.
  while ((counts.get("200") ?? 0) < 2000) await new Promise((r) => setTimeout(r, 20));
  await kill(first.child, "SIGKILL");
  stop.now = true;
  await running;
  expect(counts.get("network error") ?? 0).toBeGreaterThan(0);

  const after = audit(dataDir);
  expect(after.granted - after.debited).toBe(after.balance);
  expect(after.rows).toBe(after.debited);
  expect(counts.get("200")!).toBeLessThanOrEqual(after.rows);

  const second = await serve(dataDir);
  try {
    const res = await fetch(second.url + LANE, { headers: { "x-api-key": key } });
    expect(res.status).toBe(200);
  } finally {
    await kill(second.child, "SIGTERM");
  }
  const final = audit(dataDir);
  expect(final.rows).toBe(after.rows + 1);
  expect(final.granted - final.debited).toBe(final.balance);
}, 120_000);
