/**
 * `route-sheets db migrate-sqlite --data-dir DIR --database URL`: copies the accounts, keys, grants,
 * ledger and live idempotency keys of a SQLite data directory into PostgreSQL, in one transaction,
 * into a database that has no accounts yet; then checks that every balance and ledger matches.
 */
import { Command, Option } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { PoolClient } from "pg";
import { DEFAULT_DATA_DIR } from "../../service/server";
import { PostgresStore, redactUrl } from "../../service/store/postgres";
import { DB_FILE, SqliteStore } from "../../service/store/sqlite";
import { RECOUNT_IDEMPOTENCY_BYTES } from "../../service/store/postgres-migrations";

const CHUNK = 5000;

export interface MigrationSummary {
  accounts: number;
  keys: number;
  grants: number;
  ledgerRows: number;
  idempotencyKeys: number;
}

type Row = Record<string, unknown>;

/**
 * Table → columns copied (the same names in both schemas; `select` when computed); ids of serial
 * tables are renumbered in the same order.
 */
const TABLES: Array<{
  table: string;
  columns: string[];
  types: string[];
  order: string;
  select?: string;
}> = [
  {
    table: "accounts",
    columns: [
      "id",
      "name",
      "tier",
      "active",
      "optimizer_access",
      "credits",
      "optimizer_credits",
      "created_at",
    ],
    types: ["text", "text", "text", "boolean", "boolean", "bigint", "bigint", "bigint"],
    order: "created_at, id",
  },
  {
    table: "api_keys",
    columns: ["id", "account_id", "hash", "prefix", "rate_per_second", "burst", "created_at"],
    types: ["text", "text", "bytea", "text", "float8", "float8", "bigint"],
    order: "created_at, id",
  },
  {
    table: "credit_grants",
    columns: ["account_id", "pool", "amount", "note", "created_at"],
    types: ["text", "text", "bigint", "text", "bigint"],
    order: "id",
  },
  {
    table: "ledger",
    columns: [
      "account_id",
      "key_id",
      "pool",
      "endpoint",
      "cost",
      "request_id",
      "item",
      "created_at",
    ],
    types: ["text", "text", "text", "text", "bigint", "text", "int", "bigint"],
    order: "id",
    // The charges of one request (a batch) are its items, in order, as the service numbers them.
    select:
      "account_id, key_id, pool, endpoint, cost, request_id, ROW_NUMBER() OVER (PARTITION BY account_id, request_id ORDER BY id) - 1 AS item, created_at",
  },
];

export async function migrateSqliteToPostgres(
  dataDir: string,
  database: string
): Promise<MigrationSummary> {
  const file = path.join(path.resolve(dataDir), DB_FILE);
  if (!fs.existsSync(file))
    throw new Error(
      `--data-dir ${dataDir} has no ${DB_FILE}: give the data directory of "route-sheets serve".`
    );
  // Opening brings the SQLite schema up to date (the same migrations the service would apply).
  const sqlite = new SqliteStore(file);
  const pg = await PostgresStore.connect(database);
  const client = await pg.pool.connect();
  try {
    const existing = await client.query<{ n: number }>("SELECT COUNT(*) AS n FROM accounts");
    if (existing.rows[0].n > 0)
      throw new Error(
        `${redactUrl(database)} already has ${existing.rows[0].n} accounts: migrate into an empty database (nothing was copied).`
      );
    await client.query("BEGIN");
    const counts: Record<string, number> = {};
    for (const t of TABLES) {
      const rows = sqlite.db
        .prepare(`SELECT ${t.select ?? t.columns.join(", ")} FROM ${t.table} ORDER BY ${t.order}`)
        .all() as Row[];
      counts[t.table] = rows.length;
      for (let at = 0; at < rows.length; at += CHUNK) {
        const chunk = rows.slice(at, at + CHUNK);
        const arrays = t.columns.map((c, i) =>
          chunk.map((r) => (t.types[i] === "boolean" ? r[c] === 1 : r[c]))
        );
        const unnest = t.types.map((ty, i) => `$${i + 1}::${ty}[]`).join(", ");
        await client.query(
          `INSERT INTO ${t.table} (${t.columns.join(", ")}) SELECT * FROM unnest(${unnest})`,
          arrays
        );
      }
    }
    const idem = sqlite.db
      .prepare(
        "SELECT key_id, idempotency_key, fingerprint, status, body, created_at, expires_at FROM idempotency_keys WHERE expires_at > ?"
      )
      .all(Date.now()) as Row[];
    for (const r of idem) {
      await client.query(
        `INSERT INTO idempotency_keys (key_id, idempotency_key, fingerprint, status, body, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [r.key_id, r.idempotency_key, r.fingerprint, r.status, r.body, r.created_at, r.expires_at]
      );
    }
    // The records' bytes and each key's counter (the cap's running count) from the answers copied.
    await client.query(RECOUNT_IDEMPOTENCY_BYTES);
    await verify(sqlite, client);
    await client.query("COMMIT");
    return {
      accounts: counts.accounts,
      keys: counts.api_keys,
      grants: counts.credit_grants,
      ledgerRows: counts.ledger,
      idempotencyKeys: idem.length,
    };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  } finally {
    client.release();
    await pg.close();
    await sqlite.close();
  }
}

/** Per account: balances, grant sums and ledger sums equal in both databases, or no commit. */
async function verify(sqlite: SqliteStore, client: PoolClient): Promise<void> {
  const summary = `SELECT a.id, a.credits, a.optimizer_credits,
      (SELECT COALESCE(SUM(amount), 0) FROM credit_grants g WHERE g.account_id = a.id) AS granted,
      (SELECT COUNT(*) FROM ledger l WHERE l.account_id = a.id) AS rows,
      (SELECT COALESCE(SUM(cost), 0) FROM ledger l WHERE l.account_id = a.id) AS spent
    FROM accounts a`;
  // Sorted here: the two databases may collate ids differently.
  const canonical = (rows: Row[]) =>
    JSON.stringify(rows.sort((a, b) => (String(a.id) < String(b.id) ? -1 : 1)));
  const before = canonical(sqlite.db.prepare(summary).all() as Row[]);
  const after = canonical((await client.query(summary)).rows);
  if (before !== after)
    throw new Error(
      "the copy does not match the SQLite database (balances or ledgers differ); nothing was committed."
    );
}

export function register(program: Command): void {
  const db = program.command("db").description("Database administration");
  db.command("migrate-sqlite")
    .description(
      "Copy the accounts, keys, credit grants, usage ledger and live idempotency keys of a SQLite data directory into an empty PostgreSQL database (one transaction, verified)."
    )
    .addOption(
      new Option("--data-dir <dir>", "data directory holding service.db").default(DEFAULT_DATA_DIR)
    )
    .addOption(
      new Option("--database <url>", "PostgreSQL URL (postgres://user:password@host:5432/db)")
        .env("DATABASE_URL")
        .makeOptionMandatory()
    )
    .action(async (opts: { dataDir: string; database: string }) => {
      const started = Date.now();
      const s = await migrateSqliteToPostgres(opts.dataDir, opts.database);
      process.stdout.write(
        `Migrated ${s.accounts} accounts, ${s.keys} keys, ${s.grants} credit grants, ${s.ledgerRows} ledger rows and ` +
          `${s.idempotencyKeys} idempotency keys from ${path.join(opts.dataDir, DB_FILE)} to ${redactUrl(opts.database)} ` +
          `in ${Date.now() - started} ms; balances and ledgers verified.\n`
      );
    });
}
