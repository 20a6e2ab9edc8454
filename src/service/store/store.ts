/**
 * Storage of accounts, API keys, credit pools and the usage ledger. Asynchronous so that a
 * PostgreSQL adapter (several service instances on one database) can implement it; the SQLite
 * adapter answers synchronously underneath.
 */

export type Tier = "free" | "paid";
export const TIERS: readonly Tier[] = ["free", "paid"];

/** The two credit pools of an account. */
export type Pool = "route-information" | "route-optimizer";

export interface NewAccount {
  name: string;
  tier: Tier;
  /** Initial route-information credits. */
  credits: number;
  optimizerAccess: boolean;
  /** Initial route-optimizer credits. */
  optimizerCredits: number;
}

/** What the store keeps of a key: never the key itself. */
export interface NewKey {
  id: string;
  /** SHA-256 of the key. */
  hash: Buffer;
  /** The first characters of the key, safe to show (e.g. `rs_AbCd`). */
  prefix: string;
  /** Per-key token bucket; null = the service default. */
  ratePerSecond: number | null;
  burst: number | null;
}

export interface KeyRecord extends NewKey {
  accountId: string;
}

export interface AccountState {
  id: string;
  name: string;
  tier: Tier;
  active: boolean;
  optimizerAccess: boolean;
  /** Route-information credits left. */
  credits: number;
  /** Route-optimizer credits left. */
  optimizerCredits: number;
}

export interface Charge {
  pool: Pool;
  /** Operation charged, e.g. `distance`. */
  endpoint: string;
  cost: number;
}

export interface UsageRow {
  keyId: string;
  keyPrefix: string;
  accountId: string;
  accountName: string;
  tier: Tier;
  active: boolean;
  /** Charged calls and credits spent from the route-information pool. */
  calls: number;
  creditsUsed: number;
  /** Charged calls and credits spent from the route-optimizer pool. */
  optimizerCalls: number;
  optimizerCreditsUsed: number;
  creditsLeft: number;
  optimizerCreditsLeft: number;
}

/** What an Idempotency-Key holds: the request's fingerprint and, once answered, the answer. */
export interface IdempotencyRecord {
  /** Hash of the request (method, path, body) the key was first used with. */
  fingerprint: string;
  /** null while the first request is still being answered. */
  status: number | null;
  /** The answer's body as sent (JSON text); null while in progress. */
  body: string | null;
}

/** Times of an idempotency claim, in milliseconds since the epoch / milliseconds. */
export interface IdempotencyTimes {
  now: number;
  /** How long an answered key is kept (24 h). */
  ttlMs: number;
  /** An unanswered claim older than this is abandoned (its process died) and may be taken over. */
  leaseMs: number;
}

/** How a debit is answered by `chargeThen`: `ok` per charge (`error` null), or `ok` undefined and the failure. */
export type ChargeCallback = (error: unknown, ok: boolean[] | undefined) => void;

/** `charge`'s promise for a store that debits by callback: `start` hands the callback to `chargeThen`. */
export function chargePromise(start: (done: ChargeCallback) => void): Promise<boolean[]> {
  return new Promise((resolve, reject) => start((e, ok) => (ok ? resolve(ok) : reject(e))));
}

/** The add-in as every instance of a deployment hands it out (see service/addin-manifest.ts). */
export interface AddinIdentityRecord {
  id: string;
  /** null: the manifest's own display name. */
  name: string | null;
  /** This build's number: the manifest version's fourth part. */
  build: number;
}

export interface AddinIdentityClaim {
  /** The add-in build's fingerprint; one not seen before gets the next build number. */
  fingerprint: string;
  /** The Id kept when the deployment has none yet (a data directory's earlier one, or a new one). */
  firstId: string;
  /** Lowest number a build new to the deployment may get (a data directory's earlier builds). */
  minBuild?: number;
  /** --addin-id / --addin-name: replace what is stored (given once, at start). */
  id?: string;
  name?: string;
}

export interface Store {
  createAccount(account: NewAccount, key: NewKey): Promise<AccountState>;
  findKeyByHash(hash: Buffer): Promise<KeyRecord | undefined>;
  findKeyById(keyId: string): Promise<KeyRecord | undefined>;
  /**
   * The account as the database has it. `cached`: the request path's read, which a store may
   * answer from memory, for an active account only and kept current by change notifications (its
   * balances may then be higher than the database's, never lower but for the moment a grant takes
   * to be notified): the debit settles what memory cannot, and a caller about to refuse (inactive,
   * not enough credits) asks again without `cached`.
   */
  accountState(
    accountId: string,
    options?: { cached?: boolean }
  ): Promise<AccountState | undefined>;
  /**
   * Optional: the request path's read (as `accountState(id, { cached: true })`) answered at once,
   * for stores that read synchronously (SQLite): the hot path then needs no promise.
   */
  accountStateSync?(accountId: string): AccountState | undefined;
  /**
   * Debits the charges in order, each atomically (`credits >= cost` or not at all) with its ledger
   * row, all in one transaction. Returns, per charge, whether it was debited. Charges of an
   * inactive account may be refused.
   */
  charge(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[]
  ): Promise<boolean[]>;
  /**
   * Debits all the charges or none (a /chain's legs): in one transaction, each pool of the account
   * must cover the sum of its charges, else nothing is debited and nothing ledgered. Returns whether
   * they were debited (or were already, by an earlier attempt of the same request id, where the
   * store recognises one). An inactive account is charged nothing.
   */
  chargeAll(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[]
  ): Promise<boolean>;
  /**
   * Optional: `charge` calling back instead of returning a promise (`error` null, then `ok`), for
   * stores that commit debits in groups: the request path then needs no promise per debit.
   */
  chargeThen?(
    accountId: string,
    keyId: string,
    requestId: string,
    charges: Charge[],
    done: ChargeCallback
  ): void;
  setActive(accountId: string, active: boolean): Promise<void>;
  /** Adds credits to a pool and records the grant; returns the new balance. */
  addCredits(accountId: string, pool: Pool, amount: number, note: string): Promise<number>;
  /** Sum of ledger costs of an account's pool (for audits and tests). */
  ledgerTotal(accountId: string, pool: Pool): Promise<{ rows: number; credits: number }>;
  /** Sum of grants (initial credits included) of an account's pool. */
  grantTotal(accountId: string, pool: Pool): Promise<number>;
  usage(): Promise<UsageRow[]>;
  /**
   * Claims `(keyId, idempotencyKey)` for a new request, atomically across processes. Returns
   * undefined when this request now owns the key (no record, an expired one, or an abandoned
   * claim, which are replaced); otherwise the existing record (answered, or in progress).
   */
  claimIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    fingerprint: string,
    times: IdempotencyTimes
  ): Promise<IdempotencyRecord | undefined>;
  /**
   * Adds `bytes` to what the API key holds under Idempotency-Keys, for the claim of
   * `idempotencyKey` (still being answered), only if the key's total stays within `maxBytes`: one
   * conditional update of the key's running counter, so requests at once cannot overshoot it.
   * Whether it did.
   */
  reserveIdempotencyBytes(
    keyId: string,
    idempotencyKey: string,
    bytes: number,
    maxBytes: number
  ): Promise<boolean>;
  /**
   * Stores the answer of a claimed key; it is replayed until the key expires. The key's counter
   * then holds the answer's UTF-8 bytes instead of the claim's reservation.
   */
  completeIdempotencyKey(
    keyId: string,
    idempotencyKey: string,
    status: number,
    body: string
  ): Promise<void>;
  /** Drops a claim whose request failed without an answer worth replaying (a retry runs again). */
  releaseIdempotencyKey(keyId: string, idempotencyKey: string): Promise<void>;
  /**
   * Bytes one API key holds under Idempotency-Keys not yet expired at `now` (answers stored, and
   * reservations of claims being answered): its running counter, less the records expired since
   * the last purge. Reads no answer.
   */
  idempotencyBytes(keyId: string, now: number): Promise<number>;
  /** Deletes the Idempotency-Key records expired at `now`; returns how many. */
  purgeIdempotencyKeys(now: number): Promise<number>;
  /**
   * The deployment's add-in Id, name and the number of the build `claim.fingerprint`, created or
   * updated atomically (several instances may start at once).
   */
  addinIdentity(claim: AddinIdentityClaim): Promise<AddinIdentityRecord>;
  close(): Promise<void>;
}
