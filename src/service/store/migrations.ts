/** Ordered schema migrations; each runs once, recorded in `schema_migrations`. Append, never edit. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "accounts, keys, grants, ledger",
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'paid')),
        active INTEGER NOT NULL DEFAULT 1,
        optimizer_access INTEGER NOT NULL DEFAULT 0,
        credits INTEGER NOT NULL DEFAULT 0 CHECK (credits >= 0),
        optimizer_credits INTEGER NOT NULL DEFAULT 0 CHECK (optimizer_credits >= 0),
        created_at INTEGER NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        hash BLOB NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        rate_per_second REAL,
        burst REAL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE TABLE credit_grants (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        amount INTEGER NOT NULL,
        note TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        pool TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        cost INTEGER NOT NULL,
        request_id TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX ledger_key ON ledger(key_id);
      CREATE INDEX ledger_account ON ledger(account_id, pool);
    `,
  },
  {
    version: 2,
    name: "idempotency keys of POST /route-information/api/batch",
    sql: `
      CREATE TABLE idempotency_keys (
        key_id TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        status INTEGER,
        body TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (key_id, idempotency_key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 3,
    name: "ledger: one index fewer on the debit path (usage reads a key's rows through its account's)",
    // Every debit inserts into each ledger index. ledger_account serves the account totals and,
    // with the key's account in the join, the per-key usage (bounded by the account's rows).
    sql: `DROP INDEX IF EXISTS ledger_key;`,
  },
  {
    version: 4,
    name: "the add-in's identity, shared by every instance of a deployment",
    // One row: the manifest's Id and display name. One row per add-in build served: its number
    // (the manifest version's fourth part), so every instance serving a build names it alike.
    sql: `
      CREATE TABLE addin_identity (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        addin_id TEXT NOT NULL,
        name TEXT,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE addin_builds (
        fingerprint TEXT PRIMARY KEY,
        build INTEGER NOT NULL UNIQUE,
        created_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 5,
    name: "idempotency: a running byte counter per API key",
    // The cap check read SUM(length(body)) over every stored answer of the key on each idempotent
    // batch (~1 µs a row, on the event loop). Each record now carries its bytes (the answer's, or
    // the bytes reserved while it is answered) and idempotency_bytes their sum per key, kept in the
    // same transaction as every change of the records.
    sql: `
      ALTER TABLE idempotency_keys ADD COLUMN bytes INTEGER NOT NULL DEFAULT 0;
      UPDATE idempotency_keys SET bytes = COALESCE(length(CAST(body AS BLOB)), 0);
      CREATE TABLE idempotency_bytes (
        key_id TEXT PRIMARY KEY,
        bytes INTEGER NOT NULL DEFAULT 0
      );
      INSERT INTO idempotency_bytes (key_id, bytes)
        SELECT key_id, SUM(bytes) FROM idempotency_keys GROUP BY key_id;
      CREATE INDEX idempotency_keys_key_expiry ON idempotency_keys(key_id, expires_at);
    `,
  },
];
