/**
 * The embedded store: one SQLite file in the data directory. WAL with synchronous=NORMAL: a
 * committed debit survives the process being killed (SIGKILL); only a power loss may drop the
 * last commits. busy_timeout lets the CLI (another process) write while the server runs.
 */
import Database from "better-sqlite3";
import { randomUUID } from "node:crypto";
import * as path from "node:path";
import { makePrivateDir, securePrivateFiles } from "./files";
import { MIGRATIONS, Migration } from "./migrations";
import {
  AccountState,
  AddinIdentityClaim,
  AddinIdentityRecord,
  Charge,
  ChargeCallback,
  chargePromise,
  IdempotencyRecord,
  IdempotencyTimes,
  KeyRecord,
  NewAccount,
  NewKey,
  Pool,
  Store,
  Tier,
  UsageRow,
} from "./store";

export const DB_FILE = "service.db";
/** Ledger rows per INSERT statement at most, and the columns of one row. */
const LEDGER_CHUNK = 64;
const LEDGER_COLUMNS = 7;
/** The request id's place in a ledger row's values. */
const REQUEST_ID = 5;
/** Rows alike but for their request id worth one INSERT … SELECT over a JSON array (see insertRun). */
const LEDGER_RUN_MIN = 4;
/**
 * Request ids that come back from JSON exactly as they were bound: printable ASCII (JSON.stringify
 * escapes only `"` and `\` there, and json_each decodes them back). The service's request ids
 * (UUIDs, or the header's checked form) are; any other goes in a multi-row INSERT.
 */
const PLAIN_ID = /^[\x20-\x7e]*$/;

/**
 * Where the run of ledger rows starting at `from` ends: the rows after it with the same account,
 * key, pool, endpoint, cost and time, all with plain request ids (a row with another id: a run of
 * its own, of one row).
 */
function runEnd(values: unknown[], from: number): number {
  let end = from + LEDGER_COLUMNS;
  if (!isPlainId(values[from + REQUEST_ID])) return end;
  while (end < values.length && sameButId(values, from, end) && isPlainId(values[end + REQUEST_ID]))
    end += LEDGER_COLUMNS;
  return end;
}

function isPlainId(id: unknown): boolean {
  return typeof id === "string" && PLAIN_ID.test(id);
}

function sameButId(values: unknown[], a: number, b: number): boolean {
  for (let c = 0; c < LEDGER_COLUMNS; c++)
    if (c !== REQUEST_ID && values[a + c] !== values[b + c]) return false;
  return true;
}
/** Thrown inside debitAll's savepoint to undo it: a pool did not cover its charges. */
const NOT_COVERED = new Error("not covered");

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
/** The server's wait for a lock held by another process (its event loop waits meanwhile). */
export const SERVER_BUSY_TIMEOUT_MS = 100;

export interface SqliteOptions {
  busyTimeoutMs?: number;
}

interface AccountRow {
  id: string;
  name: string;
  tier: Tier;
  active: number;
  optimizer_access: number;
  credits: number;
  optimizer_credits: number;
}

interface KeyRow {
  id: string;
  account_id: string;
  hash: Buffer;
  prefix: string;
  rate_per_second: number | null;
  burst: number | null;
}

interface PendingCharge {
  accountId: string;
  keyId: string;
  requestId: string;
  charges: Charge[];
  /** All or nothing (chargeAll). */
  all?: boolean;
  done: ChargeCallback;
}

export class SqliteStore implements Store {
  readonly db: Database.Database;
  private readonly stmt;
  private readonly groupTx: (group: PendingCharge[]) => boolean[][];

  /**
   * `busyTimeoutMs`: how long a statement waits for another process's lock. The CLI can wait; the
   * server waits briefly (its event loop stops meanwhile) and answers 503 with Retry-After.
   */
  constructor(
    readonly file: string,
    options: SqliteOptions = {}
  ) {
    this.db = new Database(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
    this.db.pragma(
      `busy_timeout = ${Math.floor(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS)}`
    );
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.db.pragma("foreign_keys = ON");
    migrate(this.db, MIGRATIONS);
    const db = this.db;
    this.stmt = {
      insertAccount: db.prepare(
        `INSERT INTO accounts (id, name, tier, active, optimizer_access, credits, optimizer_credits, created_at)
         VALUES (@id, @name, @tier, 1, @optimizerAccess, @credits, @optimizerCredits, @now)`
      ),
      insertKey: db.prepare(
        `INSERT INTO api_keys (id, account_id, hash, prefix, rate_per_second, burst, created_at)
         VALUES (@id, @accountId, @hash, @prefix, @ratePerSecond, @burst, @now)`
      ),
      insertGrant: db.prepare(
        "INSERT INTO credit_grants (account_id, pool, amount, note, created_at) VALUES (?, ?, ?, ?, ?)"
      ),
      keyByHash: db.prepare(
        "SELECT id, account_id, hash, prefix, rate_per_second, burst FROM api_keys WHERE hash = ?"
      ),
      keyById: db.prepare(
        "SELECT id, account_id, hash, prefix, rate_per_second, burst FROM api_keys WHERE id = ?"
      ),
      account: db.prepare(
        "SELECT id, name, tier, active, optimizer_access, credits, optimizer_credits FROM accounts WHERE id = ?"
      ),
      debitInfo: db.prepare(
        "UPDATE accounts SET credits = credits - ? WHERE id = ? AND credits >= ?"
      ),
      debitOptimizer: db.prepare(
        "UPDATE accounts SET optimizer_credits = optimizer_credits - ? WHERE id = ? AND optimizer_credits >= ?"
      ),
      creditInfo: db.prepare("UPDATE accounts SET credits = credits + ? WHERE id = ?"),
      creditOptimizer: db.prepare(
        "UPDATE accounts SET optimizer_credits = optimizer_credits + ? WHERE id = ?"
      ),
      setActive: db.prepare("UPDATE accounts SET active = ? WHERE id = ?"),
      ledgerTotal: db.prepare(
        "SELECT COUNT(*) AS rows, COALESCE(SUM(cost), 0) AS credits FROM ledger WHERE account_id = ? AND pool = ?"
      ),
      grantTotal: db.prepare(
        "SELECT COALESCE(SUM(amount), 0) AS total FROM credit_grants WHERE account_id = ? AND pool = ?"
      ),
      // The join names the key's account so that ledger_account finds its rows (migration 3).
      usage: db.prepare(`
        SELECT k.id AS keyId, k.prefix AS keyPrefix, a.id AS accountId, a.name AS accountName, a.tier AS tier,
               a.active AS active, a.credits AS creditsLeft, a.optimizer_credits AS optimizerCreditsLeft,
               COALESCE(SUM(CASE WHEN l.pool = 'route-information' THEN 1 END), 0) AS calls,
               COALESCE(SUM(CASE WHEN l.pool = 'route-information' THEN l.cost END), 0) AS creditsUsed,
               COALESCE(SUM(CASE WHEN l.pool = 'route-optimizer' THEN 1 END), 0) AS optimizerCalls,
               COALESCE(SUM(CASE WHEN l.pool = 'route-optimizer' THEN l.cost END), 0) AS optimizerCreditsUsed
        FROM api_keys k JOIN accounts a ON a.id = k.account_id LEFT JOIN ledger l ON l.account_id = k.account_id AND l.key_id = k.id
        GROUP BY k.id ORDER BY k.created_at, k.id`),
      dataVersion: db.prepare("PRAGMA data_version").pluck(),
      pruneIdempotency: db.prepare("DELETE FROM idempotency_keys WHERE expires_at <= ?"),
      anyExpired: db
        .prepare("SELECT 1 FROM idempotency_keys WHERE expires_at <= ? LIMIT 1")
        .pluck(),
      idempotency: db.prepare(
        `SELECT fingerprint, status, body, created_at FROM idempotency_keys
         WHERE key_id = ? AND idempotency_key = ?`
      ),
      putIdempotency: db.prepare(
        `INSERT OR REPLACE INTO idempotency_keys
           (key_id, idempotency_key, fingerprint, status, body, created_at, expires_at)
         VALUES (?, ?, ?, NULL, NULL, ?, ?)`
      ),
      // The JSON array's elements in order: json_each walks it from the start.
      insertLedgerRun: db.prepare(
        `INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, created_at)
         SELECT ?, ?, ?, ?, ?, value, ? FROM json_each(?) ORDER BY key`
      ),
      releaseIdempotency: db.prepare(
        "DELETE FROM idempotency_keys WHERE key_id = ? AND idempotency_key = ? AND status IS NULL"
      ),
      // The running counters (migration 5): each change of the records moves its key's counter.
      idempotencyRecordBytes: db
        .prepare("SELECT bytes FROM idempotency_keys WHERE key_id = ? AND idempotency_key = ?")
        .pluck(),
      addIdempotencyBytes: db.prepare(
        `INSERT INTO idempotency_bytes (key_id, bytes) VALUES (?, ?)
         ON CONFLICT (key_id) DO UPDATE SET bytes = bytes + excluded.bytes`
      ),
      reserveIdempotencyBytes: db.prepare(
        `UPDATE idempotency_bytes SET bytes = bytes + ? WHERE key_id = ? AND bytes + ? <= ?`
      ),
      reserveOnRecord: db.prepare(
        `UPDATE idempotency_keys SET bytes = bytes + ? WHERE key_id = ? AND idempotency_key = ? AND status IS NULL`
      ),
      completeIdempotencyBytes: db.prepare(
        "UPDATE idempotency_keys SET status = ?, body = ?, bytes = ? WHERE key_id = ? AND idempotency_key = ?"
      ),
      // Expired records' bytes off their keys' counters (through the (key_id, expires_at) index).
      uncountExpired: db.prepare(
        `UPDATE idempotency_bytes SET bytes = bytes - (
           SELECT COALESCE(SUM(k.bytes), 0) FROM idempotency_keys k
            WHERE k.key_id = idempotency_bytes.key_id AND k.expires_at <= ?)
         WHERE key_id IN (SELECT key_id FROM idempotency_keys WHERE expires_at <= ?)`
      ),
      idempotencyBytes: db
        .prepare(
          `SELECT COALESCE((SELECT bytes FROM idempotency_bytes WHERE key_id = ?), 0)
                - (SELECT COALESCE(SUM(bytes), 0) FROM idempotency_keys WHERE key_id = ? AND expires_at <= ?)`
        )
        .pluck(),
    };
    this.groupTx = db.transaction((group: PendingCharge[]) => this.debitGroup(group));
  }

  /**
   * The debits of a group, in order. The charges of one account's pool are tried together first:
   * one UPDATE for their total while the pool covers it (then each would have been covered in
   * turn); only when it does not (the pool running dry) are they taken one by one, in order. The
   * ledger rows go in multi-row INSERTs.
   */
  private debitGroup(group: PendingCharge[]): boolean[][] {
    const now = Date.now();
    const results = group.map((p) => p.charges.map((c) => c.cost <= 0));
    // Charges by account, then pool (no key strings to build and hash per charge); each
    // account's pool is independent of the others, so the order they are debited in is free.
    const byAccount = new Map<string, Map<Pool, Array<[number, number]>>>();
    for (let g = 0; g < group.length; g++) {
      const { accountId, charges } = group[g];
      if (group[g].all) {
        if (this.debitAll(group[g])) results[g].fill(true);
        continue;
      }
      for (let i = 0; i < charges.length; i++) {
        if (charges[i].cost <= 0) continue;
        let pools = byAccount.get(accountId);
        if (!pools) byAccount.set(accountId, (pools = new Map()));
        let list = pools.get(charges[i].pool);
        if (!list) pools.set(charges[i].pool, (list = []));
        list.push([g, i]);
      }
    }
    for (const list of [...byAccount.values()].flatMap((pools) => [...pools.values()])) {
      const { accountId } = group[list[0][0]];
      const pool = group[list[0][0]].charges[list[0][1]].pool;
      const debit = pool === "route-optimizer" ? this.stmt.debitOptimizer : this.stmt.debitInfo;
      const total = list.reduce((sum, [g, i]) => sum + group[g].charges[i].cost, 0);
      let debited = 0;
      if (list.length > 1 && debit.run(total, accountId, total).changes === 1) {
        for (const [g, i] of list) results[g][i] = true;
        debited = total;
      } else {
        // Atomic per charge: the UPDATE only applies while the pool covers the cost.
        for (const [g, i] of list) {
          const cost = group[g].charges[i].cost;
          if (debit.run(cost, accountId, cost).changes === 1) {
            results[g][i] = true;
            debited += cost;
          } else this.accounts.delete(accountId);
        }
      }
      const cached = this.accounts.get(accountId);
      if (cached) {
        if (pool === "route-optimizer") cached.optimizerCredits -= debited;
        else cached.credits -= debited;
      }
    }
    const rows: unknown[] = [];
    for (let g = 0; g < group.length; g++) {
      const p = group[g];
      for (let i = 0; i < p.charges.length; i++) {
        const c = p.charges[i];
        if (c.cost > 0 && results[g][i])
          rows.push(p.accountId, p.keyId, c.pool, c.endpoint, c.cost, p.requestId, now);
      }
    }
    this.insertLedgerRows(rows);
    return results;
  }

  /**
   * The charges of one all-or-nothing request: each pool's sum debited while the account is
   * active and covers it, in a savepoint undone when some pool does not. Whether they were.
   */
  private debitAll(p: PendingCharge): boolean {
    const totals = new Map<Pool, number>();
    for (const c of p.charges)
      if (c.cost > 0) totals.set(c.pool, (totals.get(c.pool) ?? 0) + c.cost);
    try {
      this.savepoint(p.accountId, totals);
    } catch (e) {
      if (e !== NOT_COVERED) throw e;
      this.accounts.delete(p.accountId);
      return false;
    }
    const cached = this.accounts.get(p.accountId);
    if (cached) {
      cached.credits -= totals.get("route-information") ?? 0;
      cached.optimizerCredits -= totals.get("route-optimizer") ?? 0;
    }
    return true;
  }

  /** Nested in the group's transaction: a savepoint, rolled back by the throw of NOT_COVERED. */
  private readonly savepoint = (accountId: string, totals: Map<Pool, number>): void =>
    this.db.transaction(() => {
      const account = this.stmt.account.get(accountId) as AccountRow | undefined;
      if (account?.active !== 1) throw NOT_COVERED;
      for (const [pool, total] of totals) {
        const debit = pool === "route-optimizer" ? this.stmt.debitOptimizer : this.stmt.debitInfo;
        if (debit.run(total, accountId, total).changes !== 1) throw NOT_COVERED;
      }
    })();

  /** Prepared multi-row INSERTs of the ledger, by number of rows (up to LEDGER_CHUNK). */
  private readonly ledgerInserts = new Map<number, Database.Statement>();

  /**
   * The ledger rows (LEDGER_COLUMNS values each), in order. A run of rows that differ only in their
   * request id (one key's /distance calls in a group commit, a batch's items of one kind) is one
   * INSERT … SELECT over a JSON array of the ids: binding seven values per row costs more than
   * SQLite's insert of the row. The other rows go in multi-row INSERTs.
   */
  private insertLedgerRows(values: unknown[]): void {
    let loose = 0;
    let at = 0;
    while (at < values.length) {
      const end = runEnd(values, at);
      if (end - at >= LEDGER_RUN_MIN * LEDGER_COLUMNS) {
        this.insertLooseRows(values, loose, at);
        this.insertRun(values, at, end);
        loose = end;
      }
      at = end;
    }
    this.insertLooseRows(values, loose, values.length);
  }

  /** One run of rows (see runEnd): its shared values bound once, its request ids as JSON. */
  private insertRun(values: unknown[], from: number, to: number): void {
    const ids: unknown[] = [];
    for (let at = from + REQUEST_ID; at < to; at += LEDGER_COLUMNS) ids.push(values[at]);
    this.stmt.insertLedgerRun.run(
      values[from],
      values[from + 1],
      values[from + 2],
      values[from + 3],
      values[from + 4],
      values[from + 6],
      JSON.stringify(ids)
    );
  }

  private insertLooseRows(values: unknown[], from: number, to: number): void {
    for (let at = from; at < to; at += LEDGER_CHUNK * LEDGER_COLUMNS) {
      const chunk = values.slice(at, Math.min(to, at + LEDGER_CHUNK * LEDGER_COLUMNS));
      const n = chunk.length / LEDGER_COLUMNS;
      let insert = this.ledgerInserts.get(n);
      if (!insert) {
        insert = this.db.prepare(
          "INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, created_at) VALUES " +
            Array(n).fill("(?, ?, ?, ?, ?, ?, ?)").join(", ")
        );
        this.ledgerInserts.set(n, insert);
      }
      insert.run(chunk);
    }
  }

  /** Opens (creating if needed) the store of a data directory. */
  static open(dataDir: string, options: SqliteOptions = {}): SqliteStore {
    makePrivateDir(dataDir);
    const store = new SqliteStore(path.join(dataDir, DB_FILE), options);
    securePrivateFiles(dataDir);
    return store;
  }

  async createAccount(account: NewAccount, key: NewKey): Promise<AccountState> {
    for (const [name, v] of [
      ["credits", account.credits],
      ["optimizer credits", account.optimizerCredits],
    ] as const)
      if (!Number.isSafeInteger(v) || v < 0)
        throw new RangeError(
          `${name} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}.`
        );
    const id = `acc_${randomUUID()}`;
    const now = Date.now();
    this.db.transaction(() => {
      this.stmt.insertAccount.run({
        id,
        name: account.name,
        tier: account.tier,
        optimizerAccess: account.optimizerAccess ? 1 : 0,
        credits: account.credits,
        optimizerCredits: account.optimizerCredits,
        now,
      });
      this.stmt.insertKey.run({ ...key, accountId: id, now });
      this.stmt.insertGrant.run(id, "route-information", account.credits, "initial", now);
      this.stmt.insertGrant.run(id, "route-optimizer", account.optimizerCredits, "initial", now);
    })();
    return (await this.accountState(id))!;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | undefined> {
    return toKey(this.stmt.keyByHash.get(hash) as KeyRow | undefined);
  }

  async findKeyById(keyId: string): Promise<KeyRecord | undefined> {
    return toKey(this.stmt.keyById.get(keyId) as KeyRow | undefined);
  }

  /** Always current (see below): the request path's `cached` read is the same. */
  async accountState(accountId: string): Promise<AccountState | undefined> {
    return this.accountStateSync(accountId);
  }

  /**
   * Account states cached between writes: read on every request, they cost a SQLite read each
   * (the largest item of a /distance call's profile). Another process (the CLI) changing the
   * database bumps `PRAGMA data_version`, which is checked once per event-loop turn and clears
   * the cache; this process's own writes update or drop their entries.
   */
  private readonly accounts = new Map<string, AccountState>();
  private dataVersion = -1;
  private versionChecked = false;

  private freshAccounts(): Map<string, AccountState> {
    if (!this.versionChecked) {
      this.versionChecked = true;
      setImmediate(() => (this.versionChecked = false));
      const v = this.stmt.dataVersion.get() as number;
      if (v !== this.dataVersion) {
        this.dataVersion = v;
        this.accounts.clear();
      }
    }
    return this.accounts;
  }

  accountStateSync(accountId: string): AccountState | undefined {
    const cache = this.freshAccounts();
    const cached = cache.get(accountId);
    if (cached) return { ...cached };
    const r = this.stmt.account.get(accountId) as AccountRow | undefined;
    if (!r) return undefined;
    if (cache.size >= 100_000) cache.clear();
    const state: AccountState = {
      id: r.id,
      name: r.name,
      tier: r.tier,
      active: r.active === 1,
      optimizerAccess: r.optimizer_access === 1,
      credits: r.credits,
      optimizerCredits: r.optimizer_credits,
    };
    cache.set(accountId, state);
    return { ...state };
  }

  /**
   * Group commit: the debits of all requests arriving in the same event-loop turn share one
   * transaction (a COMMIT costs far more than an UPDATE). Each request is still answered only
   * after the transaction holding its debit has committed; if it fails, none of them is debited.
   */
  charge(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[]
  ): Promise<boolean[]> {
    return chargePromise((done) => this.chargeThen(accountId, keyId, requestId, charges, done));
  }

  /** `charge` with a callback, called once the group holding the debit has committed (or failed). */
  chargeThen(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[],
    done: ChargeCallback
  ): void {
    this.pending.push({ accountId, keyId, requestId, charges, done });
    if (this.pending.length === 1) setImmediate(this.flush);
  }

  private readonly pending: PendingCharge[] = [];

  private readonly flush = (): void => {
    const group = this.pending.splice(0, this.pending.length);
    let results: boolean[][];
    try {
      results = this.groupTx(group);
    } catch (e) {
      for (const p of group) answer(p, e, undefined);
      // A rolled-back transaction: balances in the cache may be off.
      this.accounts.clear();
      return;
    }
    group.forEach((p, i) => answer(p, null, results[i]));
  };

  /** All or nothing, in the group commit of its turn like any debit (see debitAll). */
  chargeAll(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[]
  ): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.pending.push({
        accountId,
        keyId,
        requestId,
        charges,
        all: true,
        done: (e, ok) => (ok ? resolve(ok.every(Boolean)) : reject(e)),
      });
      if (this.pending.length === 1) setImmediate(this.flush);
    });
  }

  async setActive(accountId: string, active: boolean): Promise<void> {
    this.stmt.setActive.run(active ? 1 : 0, accountId);
    this.accounts.delete(accountId);
  }

  async addCredits(accountId: string, pool: Pool, amount: number, note: string): Promise<number> {
    if (!Number.isSafeInteger(amount) || amount <= 0)
      throw new RangeError(
        `credits to add must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}.`
      );
    this.db.transaction(() => {
      const before = this.stmt.account.get(accountId) as AccountRow | undefined;
      const balance = before
        ? pool === "route-optimizer"
          ? before.optimizer_credits
          : before.credits
        : 0;
      if (!Number.isSafeInteger(balance + amount))
        throw new RangeError(
          `the balance would exceed ${Number.MAX_SAFE_INTEGER} credits (now ${balance}); add less.`
        );
      (pool === "route-optimizer" ? this.stmt.creditOptimizer : this.stmt.creditInfo).run(
        amount,
        accountId
      );
      this.stmt.insertGrant.run(accountId, pool, amount, note, Date.now());
    })();
    this.accounts.delete(accountId);
    const state = this.accountStateSync(accountId)!;
    return pool === "route-optimizer" ? state.optimizerCredits : state.credits;
  }

  async ledgerTotal(accountId: string, pool: Pool): Promise<{ rows: number; credits: number }> {
    return this.stmt.ledgerTotal.get(accountId, pool) as { rows: number; credits: number };
  }

  async grantTotal(accountId: string, pool: Pool): Promise<number> {
    return (this.stmt.grantTotal.get(accountId, pool) as { total: number }).total;
  }

  async usage(): Promise<UsageRow[]> {
    return (this.stmt.usage.all() as Array<Omit<UsageRow, "active"> & { active: number }>).map(
      (r) => ({
        ...r,
        active: r.active === 1,
      })
    );
  }

  async claimIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    fingerprint: string,
    times: IdempotencyTimes
  ): Promise<IdempotencyRecord | undefined> {
    return this.db
      .transaction((): IdempotencyRecord | undefined => {
        this.purgeExpired(times.now);
        const row = this.stmt.idempotency.get(keyId, idempotencyKey) as
          (IdempotencyRecord & { created_at: number }) | undefined;
        const abandoned = row && row.status === null && row.created_at <= times.now - times.leaseMs;
        if (row && !abandoned)
          return { fingerprint: row.fingerprint, status: row.status, body: row.body };
        // An abandoned claim's reservation goes with it.
        const old = row
          ? (this.stmt.idempotencyRecordBytes.get(keyId, idempotencyKey) as number)
          : 0;
        this.stmt.addIdempotencyBytes.run(keyId, -old);
        this.stmt.putIdempotency.run(
          keyId,
          idempotencyKey,
          fingerprint,
          times.now,
          times.now + times.ttlMs
        );
        return undefined;
      })
      .immediate();
  }

  async reserveIdempotencyBytes(
    keyId: string,
    idempotencyKey: string,
    bytes: number,
    maxBytes: number
  ): Promise<boolean> {
    return this.db
      .transaction((): boolean => {
        if (this.stmt.reserveIdempotencyBytes.run(bytes, keyId, bytes, maxBytes).changes !== 1)
          return false;
        if (this.stmt.reserveOnRecord.run(bytes, keyId, idempotencyKey).changes === 1) return true;
        // The claim is gone (released, or taken over): nothing to reserve for.
        this.stmt.addIdempotencyBytes.run(keyId, -bytes);
        return false;
      })
      .immediate();
  }

  async completeIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    status: number,
    body: string
  ): Promise<void> {
    const bytes = Buffer.byteLength(body);
    this.db.transaction(() => {
      const old = this.stmt.idempotencyRecordBytes.get(keyId, idempotencyKey) as number | undefined;
      if (old === undefined) return;
      this.stmt.completeIdempotencyBytes.run(status, body, bytes, keyId, idempotencyKey);
      this.stmt.addIdempotencyBytes.run(keyId, bytes - old);
    })();
  }

  async releaseIdempotencyKey(keyId: string, idempotencyKey: string): Promise<void> {
    this.db.transaction(() => {
      const old = this.stmt.idempotencyRecordBytes.get(keyId, idempotencyKey) as number | undefined;
      if (this.stmt.releaseIdempotency.run(keyId, idempotencyKey).changes === 1 && old)
        this.stmt.addIdempotencyBytes.run(keyId, -old);
    })();
  }

  async idempotencyBytes(keyId: string, now: number): Promise<number> {
    return this.stmt.idempotencyBytes.get(keyId, keyId, now) as number;
  }

  async purgeIdempotencyKeys(now: number): Promise<number> {
    return this.db.transaction(() => this.purgeExpired(now))();
  }

  /** Deletes the records expired at `now`, their bytes off their keys' counters; how many. */
  private purgeExpired(now: number): number {
    if (!this.stmt.anyExpired.get(now)) return 0;
    this.stmt.uncountExpired.run(now, now);
    return this.stmt.pruneIdempotency.run(now).changes;
  }

  async addinIdentity(claim: AddinIdentityClaim): Promise<AddinIdentityRecord> {
    const db = this.db;
    return db
      .transaction((): AddinIdentityRecord => {
        const now = Date.now();
        db.prepare(
          `INSERT INTO addin_identity (singleton, addin_id, name, updated_at) VALUES (1, ?, ?, ?)
           ON CONFLICT (singleton) DO NOTHING`
        ).run(claim.id ?? claim.firstId, claim.name ?? null, now);
        if (claim.id !== undefined)
          db.prepare(
            "UPDATE addin_identity SET addin_id = ?, updated_at = ? WHERE addin_id <> ?"
          ).run(claim.id, now, claim.id);
        if (claim.name !== undefined)
          db.prepare("UPDATE addin_identity SET name = ?, updated_at = ? WHERE name IS NOT ?").run(
            claim.name,
            now,
            claim.name
          );
        let build = db
          .prepare("SELECT build FROM addin_builds WHERE fingerprint = ?")
          .pluck()
          .get(claim.fingerprint) as number | undefined;
        if (build === undefined) {
          const last = db
            .prepare("SELECT COALESCE(MAX(build), 0) FROM addin_builds")
            .pluck()
            .get() as number;
          build = Math.max(last + 1, claim.minBuild ?? 1);
          db.prepare(
            "INSERT INTO addin_builds (fingerprint, build, created_at) VALUES (?, ?, ?)"
          ).run(claim.fingerprint, build, now);
        }
        const row = db.prepare("SELECT addin_id, name FROM addin_identity").get() as {
          addin_id: string;
          name: string | null;
        };
        return { id: row.addin_id, name: row.name, build };
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.pending.length) this.flush();
    if (this.db.open) this.db.close();
  }
}

/** Calls a debit back; a callback that throws cannot keep the rest of its group from their answers. */
function answer(p: PendingCharge, e: unknown, ok: boolean[] | undefined): void {
  try {
    p.done(e, ok);
  } catch (thrown) {
    queueMicrotask(() => {
      throw thrown;
    });
  }
}

function toKey(r: KeyRow | undefined): KeyRecord | undefined {
  if (!r) return undefined;
  return {
    id: r.id,
    accountId: r.account_id,
    hash: r.hash,
    prefix: r.prefix,
    ratePerSecond: r.rate_per_second,
    burst: r.burst,
  };
}

/** Applies the migrations not yet recorded, each in its own transaction, in version order. */
export function migrate(db: Database.Database, migrations: readonly Migration[]): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
  const done = new Set(
    (db.prepare("SELECT version FROM schema_migrations").all() as { version: number }[]).map(
      (r) => r.version
    )
  );
  const applied: number[] = [];
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(m.version)) continue;
    // IMMEDIATE: two processes opening a fresh directory at once must not both migrate.
    db.transaction(() => {
      const again = db.prepare("SELECT 1 FROM schema_migrations WHERE version = ?").get(m.version);
      if (again) return;
      db.exec(m.sql);
      db.prepare("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)").run(
        m.version,
        m.name,
        Date.now()
      );
      applied.push(m.version);
    }).immediate();
  }
  return applied;
}
