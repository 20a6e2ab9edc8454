/**
 * PostgreSQL schema migrations: the same tables as the SQLite schema (migrations.ts) in PostgreSQL
 * types, each applied once and recorded in `schema_migrations`. Append, never edit.
 */
import { Migration } from "./migrations";

/**
 * Each idempotency record's bytes from its answer and every key's counter from its records: for
 * records written without them (migration 6, db migrate-sqlite's copy).
 */
export const RECOUNT_IDEMPOTENCY_BYTES = `
  UPDATE idempotency_keys SET bytes = COALESCE(octet_length(body), 0);
  INSERT INTO idempotency_bytes (key_id, bytes)
    SELECT key_id, SUM(bytes) FROM idempotency_keys GROUP BY key_id
    ON CONFLICT (key_id) DO UPDATE SET bytes = EXCLUDED.bytes;
`;

export const PG_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "accounts, keys, grants, ledger",
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        tier TEXT NOT NULL CHECK (tier IN ('free', 'paid')),
        active BOOLEAN NOT NULL DEFAULT TRUE,
        optimizer_access BOOLEAN NOT NULL DEFAULT FALSE,
        credits BIGINT NOT NULL DEFAULT 0 CHECK (credits >= 0),
        optimizer_credits BIGINT NOT NULL DEFAULT 0 CHECK (optimizer_credits >= 0),
        created_at BIGINT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        hash BYTEA NOT NULL UNIQUE,
        prefix TEXT NOT NULL,
        rate_per_second DOUBLE PRECISION,
        burst DOUBLE PRECISION,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX api_keys_account ON api_keys(account_id);
      CREATE TABLE credit_grants (
        id BIGSERIAL PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        pool TEXT NOT NULL,
        amount BIGINT NOT NULL,
        note TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX credit_grants_account ON credit_grants(account_id, pool);
      CREATE TABLE ledger (
        id BIGSERIAL PRIMARY KEY,
        account_id TEXT NOT NULL,
        key_id TEXT NOT NULL,
        pool TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        cost BIGINT NOT NULL,
        request_id TEXT NOT NULL,
        -- Position of the charge in its request (batch items share one request id).
        item INTEGER NOT NULL DEFAULT 0,
        created_at BIGINT NOT NULL,
        -- A request id is charged once: a proxy retrying a request whose answer was lost (the
        -- instance died after committing) finds the row and is not charged again.
        UNIQUE (account_id, request_id, item)
      );
      CREATE INDEX ledger_key ON ledger(key_id);
      CREATE INDEX ledger_account ON ledger(account_id, pool);

      -- The debits of a group of requests in one statement (one round trip, one commit). Each
      -- charge is claimed in the ledger, then debited only while the pool covers it; a charge
      -- that cannot be paid leaves no row. Returns, per charge, whether it is debited.
      CREATE FUNCTION charge_many(
        p_account TEXT[], p_key TEXT[], p_request TEXT[], p_item INTEGER[],
        p_pool TEXT[], p_endpoint TEXT[], p_cost BIGINT[], p_now BIGINT
      ) RETURNS BOOLEAN[] LANGUAGE plpgsql AS $fn$
      DECLARE
        result BOOLEAN[] := '{}';
        row_id BIGINT;
      BEGIN
        FOR i IN 1 .. COALESCE(array_length(p_account, 1), 0) LOOP
          IF p_cost[i] <= 0 THEN
            result := result || TRUE;
            CONTINUE;
          END IF;
          INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
            VALUES (p_account[i], p_key[i], p_pool[i], p_endpoint[i], p_cost[i], p_request[i], p_item[i], p_now)
            ON CONFLICT (account_id, request_id, item) DO NOTHING
            RETURNING id INTO row_id;
          IF NOT FOUND THEN
            -- Already charged by an earlier attempt of the same request.
            result := result || TRUE;
            CONTINUE;
          END IF;
          IF p_pool[i] = 'route-optimizer' THEN
            UPDATE accounts SET optimizer_credits = optimizer_credits - p_cost[i]
              WHERE id = p_account[i] AND optimizer_credits >= p_cost[i];
          ELSE
            UPDATE accounts SET credits = credits - p_cost[i]
              WHERE id = p_account[i] AND credits >= p_cost[i];
          END IF;
          IF FOUND THEN
            result := result || TRUE;
          ELSE
            DELETE FROM ledger WHERE id = row_id;
            result := result || FALSE;
          END IF;
        END LOOP;
        RETURN result;
      END
      $fn$;
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
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL,
        PRIMARY KEY (key_id, idempotency_key)
      );
      CREATE INDEX idempotency_keys_expiry ON idempotency_keys(expires_at);
    `,
  },
  {
    version: 3,
    name: "notify instances of account changes their caches must not miss",
    sql: `
      -- Instances keep account rows in memory and LISTEN on this channel: any change that could
      -- make a cached row say "yes" or "no" wrongly (activation, tier, access, credits added, a
      -- deleted account) names the account, whoever makes it (the CLI, another instance, psql).
      -- Debits only lower balances and are checked at the debit itself: they notify nobody.
      CREATE FUNCTION notify_account_change() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM pg_notify('route_sheets_account', OLD.id);
        RETURN NULL;
      END
      $fn$;
      CREATE TRIGGER accounts_changed AFTER UPDATE ON accounts FOR EACH ROW
        WHEN (NEW.active IS DISTINCT FROM OLD.active
              OR NEW.tier IS DISTINCT FROM OLD.tier
              OR NEW.name IS DISTINCT FROM OLD.name
              OR NEW.optimizer_access IS DISTINCT FROM OLD.optimizer_access
              OR NEW.credits > OLD.credits
              OR NEW.optimizer_credits > OLD.optimizer_credits
              OR NEW.id IS DISTINCT FROM OLD.id)
        EXECUTE FUNCTION notify_account_change();
      CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts FOR EACH ROW
        EXECUTE FUNCTION notify_account_change();
    `,
  },
  {
    version: 4,
    name: "ledger: no index the debit path pays for and no query needs",
    sql: `
      -- Every charged request writes a ledger row, and every index on the table is one more entry
      -- written (and WAL-logged) with it, inside the group commit the answer waits for. These two
      -- serve no query:
      -- - a ledger's total per account and pool (audits, tests, db migrate-sqlite's check) reads
      --   the account's rows through the unique key (account_id, request_id, item), whose first
      --   column is the account;
      -- - usage per key (keys list) sums the whole ledger in one pass, which an index does not
      --   make shorter.
      DROP INDEX IF EXISTS ledger_key;
      DROP INDEX IF EXISTS ledger_account;
    `,
  },
  {
    version: 5,
    name: "the add-in's identity, shared by every instance of a deployment",
    sql: `
      -- One row: the manifest's Id and display name. One row per add-in build served: its number
      -- (the manifest version's fourth part), so every instance serving a build names it alike.
      CREATE TABLE addin_identity (
        singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
        addin_id TEXT NOT NULL,
        name TEXT,
        updated_at BIGINT NOT NULL
      );
      CREATE TABLE addin_builds (
        fingerprint TEXT PRIMARY KEY,
        build INTEGER NOT NULL UNIQUE,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: "idempotency: a running byte counter per API key",
    sql: `
      -- The cap check summed octet_length(body) over every stored answer of the key on each
      -- idempotent batch. Each record now carries its bytes (the answer's, or the bytes reserved
      -- while it is answered) and idempotency_bytes their sum per key, kept in the same
      -- transaction as every change of the records.
      ALTER TABLE idempotency_keys ADD COLUMN bytes BIGINT NOT NULL DEFAULT 0;
      CREATE TABLE idempotency_bytes (
        key_id TEXT PRIMARY KEY,
        bytes BIGINT NOT NULL DEFAULT 0
      );
      CREATE INDEX idempotency_keys_key_expiry ON idempotency_keys(key_id, expires_at);
      ${RECOUNT_IDEMPOTENCY_BYTES}
    `,
  },
];
