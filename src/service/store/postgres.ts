/**
 * The shared store: PostgreSQL through a node-postgres pool, for several service instances on one
 * database. Same semantics as the SQLite store: a debit only while the pool covers it, with its
 * ledger row in the same transaction, charges of a request applied in order, grants recorded, usage
 * per key.
 *
 * What makes it lean:
 * - Account rows are kept in memory, like the SQLite store does, and kept current by PostgreSQL
 *   itself: a trigger (migration 3) notifies every change that could make a kept row answer wrongly
 *   (activation, tier, access, credits added), whoever makes it, and each instance LISTENs on one
 *   connection of its own and drops the rows named. While that connection is down nothing is kept.
 *   Debits, which only lower balances, refresh the kept rows from their own result. A kept row is
 *   re-read after `accountCacheMs` at the latest, and only active accounts are answered from memory,
 *   only to the request path (`accountState(id, { cached: true })`).
 * - What memory cannot settle is settled by the database: the debit itself refuses an inactive
 *   account and a pool that does not cover the charge, and callers confirm a refusal with a read
 *   of the database (`accountState(id)`) before answering it.
 * - Debits are grouped: the charges arriving while earlier groups are being committed go in one
 *   statement and one commit, with one UPDATE per account, not per charge.
 */
import { randomUUID } from "node:crypto";
import {
  Client as PgClient,
  Notification,
  Pool as PgPool,
  PoolClient,
  QueryConfig,
  QueryResultRow,
  types as pgTypes,
} from "pg";
import { ServiceProblem } from "../problem";
import { Migration } from "./migrations";
import { PG_MIGRATIONS } from "./postgres-migrations";
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

export interface PostgresStoreOptions {
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /**
   * Group debits running at once (default 1): while one runs, the next group fills. One makes the
   * groups as large as the load allows, i.e. the fewest commits per request (each costs the
   * database far more CPU than one more row in it); measured on 2 cores, 2 in flight cost about a
   * third more database and instance CPU per request for no more requests/s.
   */
  maxInFlight?: number;
  /**
   * Grouped account reads running at once (default 2). Reads have round trips of their own: a
   * read waiting behind a commit would wait for its disk flush.
   */
  maxReadsInFlight?: number;
  /**
   * How long the next group may wait for the requests the last commit answered (default 1 ms;
   * 0: never wait), and up to 5 times that while commits take longer. See flushIfIdle.
   */
  commitWindowMs?: number;
  /** Charges in one group at most (default 1000). */
  maxGroup?: number;
  /**
   * How long an account row is kept in memory before it is read again, notifications or not
   * (default 2000 ms; 0: read on every request).
   */
  accountCacheMs?: number;
  /** Called with pool errors (an idle connection that dropped); default: ignored. */
  onError?: (err: Error) => void;
}

const INT8_OID = 20;
const INSUFFICIENT_PRIVILEGE = "42501";
const UNIQUE_VIOLATION = "23505";
const UNDEFINED_FUNCTION = "42883";
const NUMERIC_OID = 1700;

/** BIGINT and COUNT/SUM results as numbers: credits are safe integers by contract. */
const numberTypes = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (v: string) => Number(v);
    return pgTypes.getTypeParser(oid, format as "text");
  },
};

interface PendingCharge {
  accountId: string;
  keyId: string;
  requestId: string;
  charges: Charge[];
  done: ChargeCallback;
}

interface PendingRead {
  accountId: string;
  resolve(state: AccountState | undefined): void;
  reject(e: unknown): void;
}

interface AccountRow {
  id: string;
  name: string;
  tier: Tier;
  active: boolean;
  optimizer_access: boolean;
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

/** Moves an API key's idempotency byte counter by $2 (creating it at 0 first). */
const ADD_IDEMPOTENCY_BYTES = `
  INSERT INTO idempotency_bytes (key_id, bytes) VALUES ($1, $2)
  ON CONFLICT (key_id) DO UPDATE SET bytes = idempotency_bytes.bytes + EXCLUDED.bytes`;

/** Thrown inside chargeAll's transaction to undo it: the account did not cover the charges. */
const NOT_COVERED = new Error("not covered");

const KEY_COLUMNS = "id, account_id, hash, prefix, rate_per_second, burst";

/** The channel of migration 3's trigger: its payload is the id of an account that changed. */
const ACCOUNT_CHANNEL = "route_sheets_account";
const MAX_CACHED_ACCOUNTS = 100_000;

interface CachedAccount {
  state: AccountState;
  /** When it was last read (performance.now()); debits update balances, not this. */
  readAt: number;
}

/** The accounts a debit statement returns, with their flags and balances after it. */
interface DebitRow {
  account_ids: string[] | null;
  actives: boolean[] | null;
  infos: number[] | null;
  opts: number[] | null;
}

function accountsAfter(r: DebitRow): DebitResult["accounts"] {
  return (r.account_ids ?? []).map((id, i) => ({
    id,
    active: r.actives![i],
    credits: Number(r.infos![i]),
    optimizerCredits: Number(r.opts![i]),
  }));
}

/** One group's debits, and the state of each account they touched, after the commit. */
interface DebitResult {
  ok: boolean[];
  accounts: Array<{ id: string; active: boolean; credits: number; optimizerCredits: number }>;
}

export class PostgresStore implements Store {
  private readonly pending: PendingCharge[] = [];
  private readonly pendingReads: PendingRead[] = [];
  private readsInFlight = 0;
  private readonly maxReadsInFlight: number;
  private inFlight = 0;
  private lastCharge = 0;
  /** Requests the next group waits for, at most `commitWindowMs` (see flushIfIdle). */
  private expected = 0;
  private windowTimer: NodeJS.Timeout | undefined;
  private readonly commitWindowMs: number;
  /** How long the last group debit took, from its start to its commit (ms). */
  private lastCommitMs = 0;
  private closed = false;
  private closing: Promise<void> | undefined;
  private readonly maxInFlight: number;
  private readonly maxGroup: number;
  private readonly accountCacheMs: number;
  /** Account rows kept in memory; used only while `listening`. */
  private readonly accounts = new Map<string, CachedAccount>();
  /** The LISTEN connection is up: notifications reach `accounts`. */
  private listening = false;
  private listener: PgClient | undefined;
  private relisten: NodeJS.Timeout | undefined;
  /**
   * Bumped by every notification and every change of the listener: a read or debit result that
   * saw a bump while under way may predate the change notified, and is not kept.
   */
  private generation = 0;
  /** Statements sent to PostgreSQL by request handling (tests, metrics). */
  readonly stats = { accountReads: 0, debits: 0, cacheHits: 0, notifications: 0 };

  private constructor(
    readonly pool: PgPool,
    private readonly url: string,
    options: PostgresStoreOptions,
    private readonly features: { chargeGroup: boolean }
  ) {
    this.maxInFlight = options.maxInFlight ?? 1;
    this.commitWindowMs = Math.max(0, options.commitWindowMs ?? 1);
    this.maxReadsInFlight = options.maxReadsInFlight ?? 2;
    this.maxGroup = options.maxGroup ?? 1000;
    this.accountCacheMs = Math.max(0, options.accountCacheMs ?? 2000);
  }

  /** Connects, applies the migrations not yet recorded, and returns the store. */
  static async connect(url: string, options: PostgresStoreOptions = {}): Promise<PostgresStore> {
    const features = { chargeGroup: true };
    const pool = new PgPool({
      connectionString: url,
      max: options.poolSize ?? 10,
      types: numberTypes,
      connectionTimeoutMillis: 10_000,
      application_name: "route-sheets",
      // Each connection gets its own copy of the group debit (a session function: no schema
      // change). Where temporary objects are not allowed, the debits use charge_many instead.
      onConnect: (client) =>
        client.query(CHARGE_GROUP_FUNCTION).then(
          () => undefined,
          (e: { code?: string }) => {
            if (e?.code !== INSUFFICIENT_PRIVILEGE) throw e;
            features.chargeGroup = false;
          }
        ),
    });
    // An idle connection that dies (server restart) must not crash the process.
    pool.on("error", (err) => options.onError?.(err));
    try {
      await migratePostgres(pool, PG_MIGRATIONS);
    } catch (e) {
      await pool.end();
      throw new Error(`PostgreSQL at ${redactUrl(url)}: ${(e as Error).message}`);
    }
    const store = new PostgresStore(pool, url, options, features);
    if (store.accountCacheMs > 0) await store.listen().catch(() => store.listenLater());
    return store;
  }

  /**
   * LISTENs for account changes on a connection of its own. Rows are kept in memory only from
   * the moment the LISTEN is in place; when the connection ends, the kept rows are dropped and
   * nothing is kept until it is back (retried every second).
   */
  private async listen(): Promise<void> {
    if (this.closed || !this.features.chargeGroup) return;
    const client = new PgClient({
      connectionString: this.url,
      connectionTimeoutMillis: 10_000,
      application_name: "route-sheets-listener",
    });
    const lost = () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      this.stopKeeping();
      client.end().catch(() => undefined);
      this.listenLater();
    };
    client.on("error", lost);
    client.on("end", lost);
    client.on("notification", (n: Notification) => {
      this.stats.notifications++;
      this.generation++;
      if (n.payload) this.accounts.delete(n.payload);
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${ACCOUNT_CHANNEL}`);
    } catch (e) {
      lost();
      throw e;
    }
    if (this.listener !== client) return;
    this.generation++;
    this.accounts.clear();
    this.listening = !this.closed && this.features.chargeGroup;
  }

  private listenLater(): void {
    if (this.closed || this.relisten) return;
    this.relisten = setTimeout(() => {
      this.relisten = undefined;
      this.listen().catch(() => undefined);
    }, 1000);
    this.relisten.unref();
  }

  /** Nothing is kept in memory from now on (until a new LISTEN is in place). */
  private stopKeeping(): void {
    this.listening = false;
    this.generation++;
    this.accounts.clear();
  }

  async createAccount(account: NewAccount, key: NewKey): Promise<AccountState> {
    const id = `acc_${randomUUID()}`;
    const now = Date.now();
    await this.transaction(async (c) => {
      await c.query(
        `INSERT INTO accounts (id, name, tier, active, optimizer_access, credits, optimizer_credits, created_at)
         VALUES ($1, $2, $3, TRUE, $4, $5, $6, $7)`,
        [
          id,
          account.name,
          account.tier,
          account.optimizerAccess,
          account.credits,
          account.optimizerCredits,
          now,
        ]
      );
      await c.query(
        `INSERT INTO api_keys (id, account_id, hash, prefix, rate_per_second, burst, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [key.id, id, key.hash, key.prefix, key.ratePerSecond, key.burst, now]
      );
      await c.query(
        `INSERT INTO credit_grants (account_id, pool, amount, note, created_at)
         VALUES ($1, 'route-information', $2, 'initial', $4), ($1, 'route-optimizer', $3, 'initial', $4)`,
        [id, account.credits, account.optimizerCredits, now]
      );
    });
    return (await this.accountState(id))!;
  }

  async findKeyByHash(hash: Buffer): Promise<KeyRecord | undefined> {
    const r = await this.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`, [
      hash,
    ]);
    return toKey(r.rows[0]);
  }

  async findKeyById(keyId: string): Promise<KeyRecord | undefined> {
    const r = await this.query<KeyRow>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [
      keyId,
    ]);
    return toKey(r.rows[0]);
  }

  /**
   * A grouped read: the requests asking while `maxReadsInFlight` reads are under way wait for the
   * next one, which fetches all their accounts in one statement. A read starts after its request
   * asked, so it sees every change committed before. `cached` (the request path): an active
   * account kept in memory is answered from there (see the class comment).
   */
  accountState(
    accountId: string,
    options: { cached?: boolean } = {}
  ): Promise<AccountState | undefined> {
    if (this.closed) return Promise.reject(new Error("the store is closed"));
    if (options.cached) {
      const kept = this.keptState(accountId);
      if (kept) return Promise.resolve(kept);
    }
    return new Promise((resolve, reject) => {
      this.pendingReads.push({ accountId, resolve, reject });
      this.readIfIdle();
    });
  }

  /**
   * The request path's read answered at once from the kept row, exactly when `accountState(id,
   * { cached: true })` would answer from it; undefined whenever that would ask the database (no
   * kept row, an inactive or stale one, no LISTEN in place, a closed store).
   */
  accountStateSync(accountId: string): AccountState | undefined {
    return this.closed ? undefined : this.keptState(accountId);
  }

  /** The kept row of an active account, while notifications keep it current and it is fresh. */
  private keptState(accountId: string): AccountState | undefined {
    if (!this.listening) return undefined;
    const kept = this.accounts.get(accountId);
    if (kept && kept.state.active && performance.now() - kept.readAt < this.accountCacheMs) {
      this.stats.cacheHits++;
      return kept.state;
    }
    return undefined;
  }

  private readIfIdle(): void {
    while (this.pendingReads.length > 0 && this.readsInFlight < this.maxReadsInFlight) {
      const group = this.pendingReads.splice(0, this.maxGroup);
      this.readsInFlight++;
      this.readGroup(group).finally(() => {
        this.readsInFlight--;
        this.readIfIdle();
      });
    }
  }

  private async readGroup(group: PendingRead[]): Promise<void> {
    const ids = [...new Set(group.map((p) => p.accountId))];
    const generation = this.generation;
    const readAt = performance.now();
    let rows: AccountRow[];
    this.stats.accountReads++;
    try {
      rows = (
        await this.query<AccountRow>({
          name: "account-states",
          text: "SELECT id, name, tier, active, optimizer_access, credits, optimizer_credits FROM accounts WHERE id = ANY ($1::text[])",
          values: [ids],
        })
      ).rows;
    } catch (e) {
      for (const p of group) p.reject(e);
      return;
    }
    const states = new Map(rows.map((r) => [r.id, toAccountState(r)]));
    const keep = this.listening && this.generation === generation;
    for (const id of ids) {
      const state = states.get(id);
      if (keep && state?.active) {
        if (this.accounts.size >= MAX_CACHED_ACCOUNTS) this.accounts.clear();
        this.accounts.set(id, { state, readAt });
      } else this.accounts.delete(id);
    }
    for (const p of group) p.resolve(states.get(p.accountId));
  }

  /**
   * Group commit: charges arriving while earlier groups are being committed wait and then go
   * together in one statement (one round trip and one commit for the group). A request is answered
   * only after the commit holding its debit; if the statement fails, none of the group is debited.
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
    if (this.closed) {
      done(new Error("the store is closed"), undefined);
      return;
    }
    this.lastCharge = Date.now();
    this.pending.push({ accountId, keyId, requestId, charges, done });
    this.flushIfIdle();
  }

  /**
   * Starts the next group when a debit slot is free. Right after a commit, the next group waits a
   * moment (at most `commitWindowMs`) for as many requests as were in the last group and waiting
   * then: the clients just answered send their next request at once, and without the wait they
   * would always miss the group that just started and wait for the one after, splitting the load
   * into two half-size groups per commit time. Waiting ends as soon as that many have come.
   *
   * While commits are slow (a disk that takes milliseconds to flush, a busy machine), a request
   * that misses the group waits for the whole next commit; so the wait may then last as long as
   * the last commit took, up to 5 × `commitWindowMs` (see commitWindow). Measured on the shared
   * 2-core VM, 40 connections: groups of 25–29 charges on average with a fixed 1 ms, 36–38 with
   * this, for 1.3× the requests/s and less CPU per request in the instance and in PostgreSQL.
   */
  private flushIfIdle(): void {
    while (this.pending.length > 0 && this.inFlight < this.maxInFlight) {
      if (this.pending.length < this.expected && this.commitWindowMs > 0) {
        this.windowTimer ??= setTimeout(
          () => {
            this.windowTimer = undefined;
            this.expected = 0;
            this.flushIfIdle();
          },
          commitWindow(this.commitWindowMs, this.lastCommitMs)
        );
        return;
      }
      if (this.windowTimer) {
        clearTimeout(this.windowTimer);
        this.windowTimer = undefined;
      }
      let items = 0;
      let n = 0;
      while (n < this.pending.length && (n === 0 || items < this.maxGroup)) {
        items += this.pending[n].charges.length;
        n++;
      }
      const group = this.pending.splice(0, n);
      const started = performance.now();
      this.inFlight++;
      this.commitGroup(group).finally(() => {
        this.lastCommitMs = performance.now() - started;
        this.inFlight--;
        this.expected = Math.min(this.maxGroup, group.length + this.pending.length);
        this.flushIfIdle();
      });
    }
  }

  private async commitGroup(group: PendingCharge[]): Promise<void> {
    // Accounts in a fixed order: two instances committing groups at once never deadlock. A group
    // of one account's charges (one busy key) is in order already: no sort.
    const order = group.map((_, i) => i);
    if (group.some((p) => p.accountId !== group[0].accountId))
      order.sort((a, b) => compare(group[a].accountId, group[b].accountId));
    const account: string[] = [];
    const key: string[] = [];
    const request: string[] = [];
    const item: number[] = [];
    const pool: string[] = [];
    const endpoint: string[] = [];
    const cost: number[] = [];
    for (let g = 0; g < order.length; g++) {
      const p = group[order[g]];
      for (let i = 0; i < p.charges.length; i++) {
        const c = p.charges[i];
        account.push(p.accountId);
        key.push(p.keyId);
        request.push(p.requestId);
        item.push(i);
        pool.push(c.pool);
        endpoint.push(c.endpoint);
        cost.push(c.cost);
      }
    }
    // Array literals built here: node-postgres would quote and escape every element with two
    // regular expressions, per charge and column.
    const values = [
      textArray(account),
      textArray(key),
      textArray(request),
      textArray(item),
      textArray(pool),
      textArray(endpoint),
      textArray(cost),
      Date.now(),
    ];
    let results: boolean[];
    const generation = this.generation;
    this.stats.debits++;
    try {
      const debited = await this.debit(values, cost.length);
      results = debited.ok;
      this.keepBalances(debited, generation, group);
    } catch (e) {
      for (const p of group) answer(p, e, undefined);
      return;
    }
    let at = 0;
    for (let g = 0; g < order.length; g++) {
      const p = group[order[g]];
      const n = p.charges.length;
      answer(p, null, n === 1 ? [results[at]] : results.slice(at, at + n));
      at += n;
    }
  }

  /**
   * The balances a debit left, kept for the accounts in memory; unless a notification came while
   * it ran (the row may have changed after the debit's commit), then they are dropped.
   */
  private keepBalances(debited: DebitResult, generation: number, group: PendingCharge[]): void {
    if (!this.listening) return;
    if (this.generation !== generation) {
      for (const p of group) this.accounts.delete(p.accountId);
      return;
    }
    for (const a of debited.accounts) {
      const kept = this.accounts.get(a.id);
      if (!kept) continue;
      if (!a.active) {
        this.accounts.delete(a.id);
        continue;
      }
      this.accounts.set(a.id, {
        state: { ...kept.state, credits: a.credits, optimizerCredits: a.optimizerCredits },
        readAt: kept.readAt,
      });
    }
  }

  /**
   * The whole group debited in one plain statement when every account it names is active and
   * covers all of its charges; undefined (nothing done) otherwise, or when a request id of the
   * group is in the ledger already (the statement fails on the unique key and is undone).
   */
  private async debitIfCovered(
    values: unknown[],
    charges: number
  ): Promise<DebitResult | undefined> {
    let r: DebitRow & { covered: boolean };
    try {
      r = (
        await this.query<DebitRow & { covered: boolean }>({
          name: "debit-if-covered",
          text: DEBIT_IF_COVERED,
          values,
        })
      ).rows[0];
    } catch (e) {
      if ((e as { code?: string })?.code === UNIQUE_VIOLATION) return undefined;
      throw e;
    }
    if (!r.covered) return undefined;
    return { ok: new Array<boolean>(charges).fill(true), accounts: accountsAfter(r) };
  }

  /**
   * One group's debits: at once when every account covers its charges (DEBIT_IF_COVERED), which
   * is the rule; otherwise the session's charge_group, or the schema's charge_many without it.
   */
  private async debit(values: unknown[], charges: number): Promise<DebitResult> {
    const covered = await this.debitIfCovered(values, charges);
    if (covered) return covered;
    if (this.features.chargeGroup) {
      try {
        const r = (
          await this.query<DebitRow & { ok: boolean[] }>({
            name: "charge-group",
            text: "SELECT * FROM pg_temp.charge_group($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[], $8)",
            values,
          })
        ).rows[0];
        return { ok: r.ok, accounts: accountsAfter(r) };
      } catch (e) {
        // A pooler in transaction mode sent the statement to a server connection that never ran
        // this connection's setup: nothing was done; from now on, the schema's function. Such a
        // pooler does not pass notifications on either: nothing is kept in memory any more.
        if ((e as { code?: string })?.code !== UNDEFINED_FUNCTION) throw e;
        this.features.chargeGroup = false;
        this.stopKeeping();
        this.listener?.end().catch(() => undefined);
      }
    }
    const ok = (
      await this.query<{ ok: boolean[] }>({
        name: "charge-many",
        text: "SELECT charge_many($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[], $8) AS ok",
        values,
      })
    ).rows[0].ok;
    return { ok, accounts: [] };
  }

  /**
   * All or nothing, in one transaction: the ledger rows are claimed first (a request id already
   * ledgered, by an earlier attempt through any instance, is not charged again), then one UPDATE
   * debits every pool's sum only while the account is active and covers them all; otherwise the
   * transaction is undone.
   */
  async chargeAll(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[]
  ): Promise<boolean> {
    const items = charges.map((c, item) => ({ ...c, item })).filter((c) => c.cost > 0);
    if (items.length === 0) return true;
    let info = 0;
    let opt = 0;
    for (const c of items) {
      if (c.pool === "route-optimizer") opt += c.cost;
      else info += c.cost;
    }
    const generation = this.generation;
    this.stats.debits++;
    let after: AccountRow | undefined;
    try {
      after = await this.transaction(async (c) => {
        const claimed = await c.query(
          `INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
           SELECT $1, $2, pool, endpoint, cost, $3, item, $4
             FROM unnest($5::text[], $6::text[], $7::bigint[], $8::int[]) AS t(pool, endpoint, cost, item)
           ON CONFLICT (account_id, request_id, item) DO NOTHING`,
          [
            accountId,
            keyId,
            requestId,
            Date.now(),
            items.map((i) => i.pool),
            items.map((i) => i.endpoint),
            items.map((i) => i.cost),
            items.map((i) => i.item),
          ]
        );
        // Ledgered before: an earlier attempt of this request paid.
        if (claimed.rowCount === 0) return undefined;
        if (claimed.rowCount !== items.length) throw NOT_COVERED;
        const debited = await c.query<AccountRow>(
          `UPDATE accounts SET credits = credits - $2, optimizer_credits = optimizer_credits - $3
            WHERE id = $1 AND active AND credits >= $2 AND optimizer_credits >= $3
            RETURNING id, name, tier, active, optimizer_access, credits, optimizer_credits`,
          [accountId, info, opt]
        );
        if (debited.rowCount !== 1) throw NOT_COVERED;
        return debited.rows[0];
      });
    } catch (e) {
      if (e !== NOT_COVERED) throw unavailableIfDisconnected(e);
      this.accounts.delete(accountId);
      return false;
    }
    const kept = this.accounts.get(accountId);
    if (after && kept) {
      if (this.listening && this.generation === generation)
        this.accounts.set(accountId, { state: toAccountState(after), readAt: kept.readAt });
      else this.accounts.delete(accountId);
    }
    return true;
  }

  async setActive(accountId: string, active: boolean): Promise<void> {
    await this.query("UPDATE accounts SET active = $1 WHERE id = $2", [active, accountId]);
  }

  async addCredits(accountId: string, pool: Pool, amount: number, note: string): Promise<number> {
    const column = pool === "route-optimizer" ? "optimizer_credits" : "credits";
    return this.transaction(async (c) => {
      const r = await c.query<{ balance: number }>(
        `UPDATE accounts SET ${column} = ${column} + $1 WHERE id = $2 RETURNING ${column} AS balance`,
        [amount, accountId]
      );
      await c.query(
        "INSERT INTO credit_grants (account_id, pool, amount, note, created_at) VALUES ($1, $2, $3, $4, $5)",
        [accountId, pool, amount, note, Date.now()]
      );
      return r.rows[0]?.balance ?? 0;
    });
  }

  async ledgerTotal(accountId: string, pool: Pool): Promise<{ rows: number; credits: number }> {
    const r = await this.query<{ rows: number; credits: number }>(
      "SELECT COUNT(*) AS rows, COALESCE(SUM(cost), 0) AS credits FROM ledger WHERE account_id = $1 AND pool = $2",
      [accountId, pool]
    );
    return { rows: r.rows[0].rows, credits: r.rows[0].credits };
  }

  async grantTotal(accountId: string, pool: Pool): Promise<number> {
    const r = await this.query<{ total: number }>(
      "SELECT COALESCE(SUM(amount), 0) AS total FROM credit_grants WHERE account_id = $1 AND pool = $2",
      [accountId, pool]
    );
    return r.rows[0].total;
  }

  async usage(): Promise<UsageRow[]> {
    const r = await this.query<UsageRow>(`
      SELECT k.id AS "keyId", k.prefix AS "keyPrefix", a.id AS "accountId", a.name AS "accountName",
             a.tier AS tier, a.active AS active,
             COALESCE(SUM(CASE WHEN l.pool = 'route-information' THEN 1 END), 0) AS calls,
             COALESCE(SUM(CASE WHEN l.pool = 'route-information' THEN l.cost END), 0) AS "creditsUsed",
             COALESCE(SUM(CASE WHEN l.pool = 'route-optimizer' THEN 1 END), 0) AS "optimizerCalls",
             COALESCE(SUM(CASE WHEN l.pool = 'route-optimizer' THEN l.cost END), 0) AS "optimizerCreditsUsed",
             a.credits AS "creditsLeft", a.optimizer_credits AS "optimizerCreditsLeft"
      FROM api_keys k JOIN accounts a ON a.id = k.account_id LEFT JOIN ledger l ON l.key_id = k.id
      GROUP BY k.id, a.id ORDER BY k.created_at, k.id`);
    return r.rows;
  }

  /**
   * One statement claims the key: a new row, or the takeover of an expired or abandoned one; a
   * conflict that is neither leaves the row as it is and we read it. Atomic across instances.
   */
  /**
   * In one transaction: the expired records purged (their bytes off the counters), then the
   * record locked and answered, or claimed (an abandoned claim's reservation off the counter). A
   * claim racing with another instance's insert of the same key tries again.
   */
  async claimIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    fingerprint: string,
    times: IdempotencyTimes
  ): Promise<IdempotencyRecord | undefined> {
    await this.purgeIdempotencyKeys(times.now);
    for (let attempt = 0; attempt < 3; attempt++) {
      const outcome = await this.transaction(async (c) => {
        const found = await c.query<
          IdempotencyRecord & { created_at: number; expires_at: number; bytes: number }
        >(
          `SELECT fingerprint, status, body, created_at, expires_at, bytes FROM idempotency_keys
            WHERE key_id = $1 AND idempotency_key = $2 FOR UPDATE`,
          [keyId, idempotencyKey]
        );
        const row = found.rows[0];
        const taken =
          row &&
          Number(row.expires_at) > times.now &&
          !(row.status === null && Number(row.created_at) <= times.now - times.leaseMs);
        if (taken)
          return { record: { fingerprint: row.fingerprint, status: row.status, body: row.body } };
        if (row) {
          await c.query(
            `UPDATE idempotency_keys SET fingerprint = $3, status = NULL, body = NULL, bytes = 0,
                    created_at = $4, expires_at = $5
              WHERE key_id = $1 AND idempotency_key = $2`,
            [keyId, idempotencyKey, fingerprint, times.now, times.now + times.ttlMs]
          );
          await c.query(ADD_IDEMPOTENCY_BYTES, [keyId, -Number(row.bytes)]);
          return { record: undefined };
        }
        const inserted = await c.query(
          `INSERT INTO idempotency_keys (key_id, idempotency_key, fingerprint, status, body, created_at, expires_at, bytes)
           VALUES ($1, $2, $3, NULL, NULL, $4, $5, 0)
           ON CONFLICT (key_id, idempotency_key) DO NOTHING`,
          [keyId, idempotencyKey, fingerprint, times.now, times.now + times.ttlMs]
        );
        if (inserted.rowCount !== 1) return undefined;
        await c.query(ADD_IDEMPOTENCY_BYTES, [keyId, 0]);
        return { record: undefined };
      });
      if (outcome) return outcome.record;
    }
    throw new Error("idempotency key claim kept racing with another instance's");
  }

  async reserveIdempotencyBytes(
    keyId: string,
    idempotencyKey: string,
    bytes: number,
    maxBytes: number
  ): Promise<boolean> {
    return this.transaction(async (c) => {
      // The counter's row lock orders reservations at once: each sees the ones before it.
      const reserved = await c.query(
        "UPDATE idempotency_bytes SET bytes = bytes + $2 WHERE key_id = $1 AND bytes + $2 <= $3",
        [keyId, bytes, maxBytes]
      );
      if (reserved.rowCount !== 1) return false;
      const onRecord = await c.query(
        `UPDATE idempotency_keys SET bytes = bytes + $3
          WHERE key_id = $1 AND idempotency_key = $2 AND status IS NULL`,
        [keyId, idempotencyKey, bytes]
      );
      if (onRecord.rowCount === 1) return true;
      // The claim is gone (released, or taken over): nothing to reserve for.
      await c.query(ADD_IDEMPOTENCY_BYTES, [keyId, -bytes]);
      return false;
    });
  }

  async completeIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    status: number,
    body: string
  ): Promise<void> {
    const bytes = Buffer.byteLength(body);
    await this.transaction(async (c) => {
      const old = await c.query<{ bytes: number }>(
        "SELECT bytes FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 FOR UPDATE",
        [keyId, idempotencyKey]
      );
      if (!old.rows[0]) return;
      await c.query(
        "UPDATE idempotency_keys SET status = $1, body = $2, bytes = $3 WHERE key_id = $4 AND idempotency_key = $5",
        [status, body, bytes, keyId, idempotencyKey]
      );
      await c.query(ADD_IDEMPOTENCY_BYTES, [keyId, bytes - Number(old.rows[0].bytes)]);
    });
  }

  async releaseIdempotencyKey(keyId: string, idempotencyKey: string): Promise<void> {
    await this.query(
      `WITH gone AS (
         DELETE FROM idempotency_keys WHERE key_id = $1 AND idempotency_key = $2 AND status IS NULL
         RETURNING bytes)
       UPDATE idempotency_bytes SET bytes = idempotency_bytes.bytes - gone.bytes
         FROM gone WHERE key_id = $1 AND gone.bytes <> 0`,
      [keyId, idempotencyKey]
    );
  }

  async idempotencyBytes(keyId: string, now: number): Promise<number> {
    const r = await this.query<{ bytes: string }>(
      `SELECT COALESCE((SELECT bytes FROM idempotency_bytes WHERE key_id = $1), 0)
            - (SELECT COALESCE(SUM(bytes), 0) FROM idempotency_keys WHERE key_id = $1 AND expires_at <= $2) AS bytes`,
      [keyId, now]
    );
    return Number(r.rows[0].bytes);
  }

  /** The expired records deleted and their bytes taken off their keys' counters, in one statement. */
  async purgeIdempotencyKeys(now: number): Promise<number> {
    const r = await this.query<{ purged: number }>(
      `WITH gone AS (
         DELETE FROM idempotency_keys WHERE expires_at <= $1 RETURNING key_id, bytes
       ), sums AS (
         SELECT key_id, SUM(bytes) AS bytes FROM gone GROUP BY key_id
       ), uncounted AS (
         UPDATE idempotency_bytes SET bytes = idempotency_bytes.bytes - sums.bytes
           FROM sums WHERE idempotency_bytes.key_id = sums.key_id AND sums.bytes <> 0
       )
       SELECT COUNT(*)::int AS purged FROM gone`,
      [now]
    );
    return Number(r.rows[0].purged);
  }

  /**
   * Waits for the debits of requests still being answered (a shutting-down server may finish a
   * few after it stopped listening: up to 5 s), then ends the pool.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const deadline = Date.now() + 5000;
      while (
        (this.pending.length > 0 ||
          this.inFlight > 0 ||
          this.pendingReads.length > 0 ||
          this.readsInFlight > 0 ||
          Date.now() - this.lastCharge < 50) &&
        Date.now() < deadline
      )
        await new Promise((resolve) => setTimeout(resolve, 10));
      this.closed = true;
      if (this.windowTimer) clearTimeout(this.windowTimer);
      this.stopKeeping();
      if (this.relisten) clearTimeout(this.relisten);
      const listener = this.listener;
      this.listener = undefined;
      await listener?.end().catch(() => undefined);
      await this.pool.end();
    })();
    return this.closing;
  }

  async addinIdentity(claim: AddinIdentityClaim): Promise<AddinIdentityRecord> {
    return this.transaction(async (c) => {
      // Instances starting together: one at a time, so a new build gets one number.
      await c.query("SELECT pg_advisory_xact_lock($1)", [ADDIN_IDENTITY_LOCK]);
      const now = Date.now();
      await c.query(
        `INSERT INTO addin_identity (singleton, addin_id, name, updated_at) VALUES (1, $1, $2, $3)
         ON CONFLICT (singleton) DO NOTHING`,
        [claim.id ?? claim.firstId, claim.name ?? null, now]
      );
      if (claim.id !== undefined)
        await c.query(
          "UPDATE addin_identity SET addin_id = $1, updated_at = $2 WHERE addin_id <> $1",
          [claim.id, now]
        );
      if (claim.name !== undefined)
        await c.query(
          "UPDATE addin_identity SET name = $1, updated_at = $2 WHERE name IS DISTINCT FROM $1",
          [claim.name, now]
        );
      const found = await c.query<{ build: number }>(
        "SELECT build FROM addin_builds WHERE fingerprint = $1",
        [claim.fingerprint]
      );
      let build = found.rows[0]?.build;
      if (build === undefined) {
        const last = await c.query<{ max: number }>(
          "SELECT COALESCE(MAX(build), 0)::int AS max FROM addin_builds"
        );
        build = Math.max(last.rows[0].max + 1, claim.minBuild ?? 1);
        await c.query(
          "INSERT INTO addin_builds (fingerprint, build, created_at) VALUES ($1, $2, $3)",
          [claim.fingerprint, build, now]
        );
      }
      const row = await c.query<{ addin_id: string; name: string | null }>(
        "SELECT addin_id, name FROM addin_identity"
      );
      return { id: row.rows[0].addin_id, name: row.rows[0].name, build };
    });
  }

  /** A query whose connection failures become 503 Service Unavailable (retryable), not 500. */
  private async query<R extends QueryResultRow>(
    config: string | QueryConfig,
    values?: unknown[]
  ): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await this.pool.query<R>(config as QueryConfig, values);
    } catch (e) {
      throw unavailableIfDisconnected(e);
    }
  }

  private async transaction<T>(fn: (c: PoolClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect().catch((e) => {
      throw unavailableIfDisconnected(e);
    });
    try {
      await c.query("BEGIN");
      const result = await fn(c);
      await c.query("COMMIT");
      return result;
    } catch (e) {
      await c.query("ROLLBACK").catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }
}

/**
 * PostgreSQL unreachable, restarting or out of connections: the request may be retried later
 * (503 with Retry-After). Any other error (a bug, a constraint) stays what it is.
 */
export function unavailableIfDisconnected(e: unknown): unknown {
  const err = e as { code?: string; message?: string };
  const code = err?.code ?? "";
  const message = err?.message ?? "";
  const disconnected =
    /^(08|57P0|53300)/.test(code) ||
    ["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EPIPE"].includes(
      code
    ) ||
    /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
      message
    );
  return disconnected
    ? new ServiceProblem(
        "Service Unavailable",
        "The accounts database is not reachable right now; retry after Retry-After seconds."
      )
    : e;
}

/**
 * Calls a debit's callback; what it throws must not stop the group's other answers (a promise's
 * resolve never threw), so it is rethrown on its own turn, as an uncaught error would be.
 */
function answer(p: PendingCharge, error: unknown, ok: boolean[] | undefined): void {
  try {
    p.done(error, ok);
  } catch (e) {
    queueMicrotask(() => {
      throw e;
    });
  }
}

function toAccountState(row: AccountRow): AccountState {
  return {
    id: row.id,
    name: row.name,
    tier: row.tier,
    active: row.active,
    optimizerAccess: row.optimizer_access,
    credits: row.credits,
    optimizerCredits: row.optimizer_credits,
  };
}

/**
 * The group debit's usual case in one plain statement: every account the group names is active
 * and covers the sum of its charges per pool, so every charge is paid and nothing needs deciding
 * charge by charge. The accounts are locked (FOR UPDATE, in byte order as charge_group does)
 * before the verdict reads their balances; when it is yes, one INSERT writes the ledger rows of
 * the charges that cost something and one UPDATE takes the sums; when it is no, neither writes
 * anything and the group goes to charge_group, whose answer may then differ charge by charge. A
 * request id already in the ledger (a retry) makes the INSERT fail on the unique key: the
 * statement is undone as a whole and charge_group decides too.
 *
 * Why not charge_group for all: it is PL/pgSQL with a loop per charge, 0.2–0.5 ms more per group
 * than this statement on the shared 2-core VM (1 to 40 charges, measured), and every group's
 * answer waits for its commit. Plain SQL needs no session function: it works behind transaction poolers.
 */
export const DEBIT_IF_COVERED = `
WITH charge AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[])
    AS u(account, key, request, item, pool, endpoint, cost)
), need AS (
  SELECT account,
         COALESCE(sum(cost) FILTER (WHERE cost > 0 AND pool <> 'route-optimizer'), 0) AS info,
         COALESCE(sum(cost) FILTER (WHERE cost > 0 AND pool = 'route-optimizer'), 0) AS opt
    FROM charge GROUP BY account
), locked AS (
  SELECT id, active, credits, optimizer_credits FROM accounts
    WHERE id IN (SELECT account FROM need) ORDER BY id COLLATE "C" FOR UPDATE
), verdict AS (
  SELECT COALESCE(bool_and(locked.active IS TRUE AND locked.credits >= need.info
                           AND locked.optimizer_credits >= need.opt), FALSE) AS covered
    FROM need LEFT JOIN locked ON locked.id = need.account
), written AS (
  INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
    SELECT account, key, pool, endpoint, cost, request, item, $8 FROM charge
      WHERE cost > 0 AND (SELECT covered FROM verdict)
), debited AS (
  UPDATE accounts SET credits = accounts.credits - need.info,
                      optimizer_credits = accounts.optimizer_credits - need.opt
    FROM need
    WHERE accounts.id = need.account AND (need.info > 0 OR need.opt > 0)
      AND (SELECT covered FROM verdict)
    RETURNING accounts.id, accounts.active, accounts.credits, accounts.optimizer_credits
)
SELECT (SELECT covered FROM verdict) AS covered, array_agg(id) AS account_ids, array_agg(active) AS actives,
       array_agg(credits) AS infos, array_agg(optimizer_credits) AS opts
  FROM debited`;

/**
 * The debits of a group of requests in one statement and one transaction, set-based. They work
 * like `charge_many` (migration 1): a charge is debited only while its pool covers it, with its
 * ledger row; a request id already in the ledger (an earlier attempt paid it) is not charged again;
 * an inactive account is charged nothing (the instance's copy of the row may not know yet).
 *
 * The group's account rows are locked in one statement, in id order (byte order, the order in
 * which the client sorts them too: instances lock alike and never deadlock). Which charges are
 * paid is decided over the arrays in memory, each account's balances kept in variables in the
 * charges' order; then ONE multi-row INSERT writes the ledger rows of the charges paid and ONE
 * UPDATE the balances of the accounts debited. No statement per charge: the ledger row is what is
 * left of a charge's cost in PostgreSQL.
 *
 * The decision assumes no charge's request id is in the ledger already, which is the rule (a
 * proxy's retry of a request whose answer was lost is the exception). When one is, the INSERT
 * fails on the unique key and nothing of it is kept (the block's subtransaction); the group then
 * goes through `charge_group_rows`, which claims each charge's row in turn as before.
 *
 * Returns, per charge, whether it is debited (or was already), and per account found, its active
 * flag and balances after the group: the instance refreshes its copy of the row from them.
 *
 * Session functions (pg_temp) created on each connection: the schema and its migrations stay as
 * they are.
 */
const CHARGE_GROUP_FUNCTION = `
CREATE OR REPLACE FUNCTION pg_temp.charge_group(
  p_account TEXT[], p_key TEXT[], p_request TEXT[], p_item INTEGER[],
  p_pool TEXT[], p_endpoint TEXT[], p_cost BIGINT[], p_now BIGINT,
  OUT ok BOOLEAN[], OUT account_ids TEXT[], OUT actives BOOLEAN[], OUT infos BIGINT[], OUT opts BIGINT[]
) LANGUAGE plpgsql AS $fn$
DECLARE
  n INTEGER := COALESCE(array_length(p_account, 1), 0);
  paid BOOLEAN[];
  infos0 BIGINT[];
  opts0 BIGINT[];
  cur TEXT := NULL;
  j INTEGER;
  refused BOOLEAN := FALSE;
BEGIN
  SELECT array_agg(a.id), array_agg(a.active), array_agg(a.credits), array_agg(a.optimizer_credits)
    INTO account_ids, actives, infos, opts
    FROM (SELECT id, active, credits, optimizer_credits FROM accounts
          WHERE id = ANY (p_account) ORDER BY id COLLATE "C" FOR UPDATE) a;
  infos0 := infos;
  opts0 := opts;
  ok := array_fill(FALSE, ARRAY[n]);
  paid := array_fill(FALSE, ARRAY[n]);
  FOR i IN 1 .. n LOOP
    IF cur IS DISTINCT FROM p_account[i] THEN
      cur := p_account[i];
      -- NULL: no such account; nothing is taken from it.
      j := array_position(account_ids, cur);
    END IF;
    IF p_cost[i] <= 0 THEN
      ok[i] := TRUE;
    ELSIF j IS NULL OR NOT actives[j] THEN
      CONTINUE;
    ELSIF p_pool[i] = 'route-optimizer' THEN
      IF opts[j] >= p_cost[i] THEN
        opts[j] := opts[j] - p_cost[i];
        ok[i] := TRUE;
        paid[i] := TRUE;
      ELSE
        refused := TRUE;
      END IF;
    ELSIF infos[j] >= p_cost[i] THEN
      infos[j] := infos[j] - p_cost[i];
      ok[i] := TRUE;
      paid[i] := TRUE;
    ELSE
      refused := TRUE;
    END IF;
  END LOOP;
  -- A charge the pool cannot pay now may have been paid by an earlier attempt (in the ledger, or
  -- in this group): then it is answered as debited. Looked up only when a pool ran short; the
  -- INSERT below finds the others.
  IF refused AND (
    EXISTS (
      SELECT 1 FROM unnest(p_account, p_request, p_item, p_cost, paid) AS u(a, r, it, c, take)
        JOIN ledger l ON l.account_id = u.a AND l.request_id = u.r AND l.item = u.it
        WHERE u.c > 0 AND NOT u.take)
    OR EXISTS (
      SELECT 1 FROM unnest(p_account, p_request, p_item, p_cost) AS u(a, r, it, c)
        WHERE u.c > 0 GROUP BY u.a, u.r, u.it HAVING count(*) > 1)
  ) THEN
    SELECT g.ok, g.account_ids, g.actives, g.infos, g.opts
      INTO ok, account_ids, actives, infos, opts
      FROM pg_temp.charge_group_rows(p_account, p_key, p_request, p_item, p_pool, p_endpoint, p_cost, p_now) g;
    RETURN;
  END IF;
  BEGIN
    INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
      SELECT u.a, u.k, u.p, u.e, u.c, u.r, u.it, p_now
        FROM unnest(p_account, p_key, p_pool, p_endpoint, p_cost, p_request, p_item, paid)
          AS u(a, k, p, e, c, r, it, take)
        WHERE u.take;
  EXCEPTION WHEN unique_violation THEN
    -- A request id charged before: charge by charge, each claiming its row.
    SELECT g.ok, g.account_ids, g.actives, g.infos, g.opts
      INTO ok, account_ids, actives, infos, opts
      FROM pg_temp.charge_group_rows(p_account, p_key, p_request, p_item, p_pool, p_endpoint, p_cost, p_now) g;
    RETURN;
  END;
  UPDATE accounts SET credits = accounts.credits - (u.info0 - u.info),
                      optimizer_credits = accounts.optimizer_credits - (u.opt0 - u.opt)
    FROM unnest(account_ids, infos0, infos, opts0, opts) AS u(id, info0, info, opt0, opt)
    WHERE accounts.id = u.id AND (u.info0 <> u.info OR u.opt0 <> u.opt);
END
$fn$;

-- The same debits charge by charge (the group of a retried request): each charge claims its
-- ledger row (ON CONFLICT: a request id already charged is not charged again) before its balance
-- is checked, and gives it back if the pool cannot pay. The caller holds the accounts' locks.
CREATE OR REPLACE FUNCTION pg_temp.charge_group_rows(
  p_account TEXT[], p_key TEXT[], p_request TEXT[], p_item INTEGER[],
  p_pool TEXT[], p_endpoint TEXT[], p_cost BIGINT[], p_now BIGINT,
  OUT ok BOOLEAN[], OUT account_ids TEXT[], OUT actives BOOLEAN[], OUT infos BIGINT[], OUT opts BIGINT[]
) LANGUAGE plpgsql AS $fn$
DECLARE
  n INTEGER := COALESCE(array_length(p_account, 1), 0);
  cur TEXT := NULL;
  row_id BIGINT;
  act BOOLEAN;
  info BIGINT;
  opt BIGINT;
  info0 BIGINT;
  opt0 BIGINT;
BEGIN
  ok := array_fill(FALSE, ARRAY[n]);
  FOR i IN 1 .. n + 1 LOOP
    IF i > n OR cur IS DISTINCT FROM p_account[i] THEN
      IF info IS NOT NULL THEN
        IF info <> info0 OR opt <> opt0 THEN
          UPDATE accounts SET credits = credits - (info0 - info),
                              optimizer_credits = optimizer_credits - (opt0 - opt)
            WHERE id = cur;
        END IF;
        account_ids := account_ids || cur;
        actives := actives || act;
        infos := infos || info;
        opts := opts || opt;
      END IF;
      EXIT WHEN i > n;
      cur := p_account[i];
      -- No row (an unknown account): act and info stay NULL and nothing is taken.
      act := NULL;
      info := NULL;
      SELECT active, credits, optimizer_credits INTO act, info, opt FROM accounts WHERE id = cur FOR UPDATE;
      info0 := info;
      opt0 := opt;
    END IF;
    IF p_cost[i] <= 0 THEN
      ok[i] := TRUE;
      CONTINUE;
    END IF;
    CONTINUE WHEN act IS NOT TRUE;
    INSERT INTO ledger (account_id, key_id, pool, endpoint, cost, request_id, item, created_at)
      VALUES (p_account[i], p_key[i], p_pool[i], p_endpoint[i], p_cost[i], p_request[i], p_item[i], p_now)
      ON CONFLICT (account_id, request_id, item) DO NOTHING
      RETURNING id INTO row_id;
    IF NOT FOUND THEN
      -- Already charged by an earlier attempt of the same request.
      ok[i] := TRUE;
    ELSIF p_pool[i] = 'route-optimizer' AND opt >= p_cost[i] THEN
      opt := opt - p_cost[i];
      ok[i] := TRUE;
    ELSIF p_pool[i] <> 'route-optimizer' AND info >= p_cost[i] THEN
      info := info - p_cost[i];
      ok[i] := TRUE;
    ELSE
      DELETE FROM ledger WHERE id = row_id;
    END IF;
  END LOOP;
END
$fn$`;

/**
 * How long a group waits at most for the requests the last commit answered: `baseMs`, or as long
 * as the last commit took when that was longer, but never over 5 × `baseMs` (0: never waits).
 */
export function commitWindow(baseMs: number, lastCommitMs: number): number {
  return Math.min(5 * baseMs, Math.max(baseMs, lastCommitMs));
}

/** Characters that make a PostgreSQL array element need quotes (see array input syntax). */
const NEEDS_QUOTES = /[{}",\\\s]|^$|^null$/i;

/**
 * The PostgreSQL literal of a one-dimensional array of strings or integers (`{a,"b c",3}`), as
 * the server reads it for a `text[]`, `int[]` or `bigint[]` parameter: elements quoted only when
 * they need it (empty, NULL, blanks, braces, commas, quotes, backslashes), backslash-escaped then.
 */
export function textArray(values: ReadonlyArray<string | number>): string {
  let out = "{";
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ",";
    const v = values[i];
    // A number's digits never need quotes.
    if (typeof v === "number") out += String(v);
    else out += NEEDS_QUOTES.test(v) ? `"${v.replace(/[\\"]/g, "\\$&")}"` : v;
  }
  return out + "}";
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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

/** A connection URL without its password, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Advisory lock taken while the add-in's identity is read or updated. */
const ADDIN_IDENTITY_LOCK = 7_402_912;
const MIGRATION_LOCK = 0x7273_6d67; // any constant: one migrator at a time across instances

/**
 * Applies the migrations not yet recorded, each in its own transaction, under an advisory lock so
 * that instances starting at once do not migrate twice. Returns the versions applied.
 */
export async function migratePostgres(
  pool: PgPool,
  migrations: readonly Migration[]
): Promise<number[]> {
  const c = await pool.connect();
  const applied: number[] = [];
  try {
    await c.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const done = new Set(
      (await c.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map(
        (r) => r.version
      )
    );
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await c.query("BEGIN");
      try {
        await c.query(m.sql);
        await c.query(
          "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
          [m.version, m.name, Date.now()]
        );
        await c.query("COMMIT");
      } catch (e) {
        await c.query("ROLLBACK");
        throw new Error(`migration ${m.version} (${m.name}) failed: ${(e as Error).message}`);
      }
      applied.push(m.version);
    }
  } finally {
    await c.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
    c.release();
  }
  return applied;
}
