/** Which operations each tier may call, which credit pool pays for them, and the debit itself. */
import fp from "fastify-plugin";
import { CostTable, Operation } from "../config";
import { fail } from "../problem";
import { AccountState, Charge, Pool, Store } from "../store/store";
import { Caller } from "./auth";

export interface OperationPolicy {
  pool: Pool;
  freeTier: boolean;
  optimizerAccess: boolean;
}

export const POLICY: Record<Operation, OperationPolicy> = {
  terminals: { pool: "route-information", freeTier: true, optimizerAccess: false },
  distance: { pool: "route-information", freeTier: true, optimizerAccess: false },
  emissions: { pool: "route-information", freeTier: false, optimizerAccess: false },
  path: { pool: "route-information", freeTier: true, optimizerAccess: false },
  optimizerSearch: { pool: "route-optimizer", freeTier: false, optimizerAccess: true },
  operators: { pool: "route-optimizer", freeTier: false, optimizerAccess: true },
};

const PATH_OF: Record<Operation, string> = {
  terminals: "/route-information/api/terminals",
  distance: "/route-information/api/distance",
  emissions: "/route-information/api/emissions",
  path: "/route-information/api/path",
  optimizerSearch: "/route-optimizer/api/external",
  operators: "/route-optimizer/api/external/operators",
};

/**
 * Tier and access rules (402 Free Tier Not Allowed, 403 Invalid Key for missing optimizer access).
 * `path`: the endpoint the caller called, when it is not the operation's own (/chain is charged as
 * /emissions legs).
 */
export function checkAccess(caller: Caller, op: Operation, path: string = PATH_OF[op]): void {
  const policy = POLICY[op];
  if (caller.account.tier === "free" && !policy.freeTier) {
    throw fail(
      "Free Tier Not Allowed",
      `${path} is not available to free accounts; free accounts may call /route-information/api/terminals and /route-information/api/distance only.`
    );
  }
  if (policy.optimizerAccess && !caller.account.optimizerAccess) {
    throw fail(
      "Invalid Key",
      `This x-api-key has no route-optimizer access (needed for ${path}); ask the service operator to grant it (route-sheets keys create --optimizer).`
    );
  }
}

export function balanceOf(caller: Caller, pool: Pool): number {
  return pool === "route-optimizer" ? caller.account.optimizerCredits : caller.account.credits;
}

export function overLimit(pool: Pool, cost: number, balance: number): Error {
  return fail(
    "Over Limit",
    `The ${pool} credits of this key are exhausted (balance ${balance}, this call costs ${cost}); add credits (route-sheets credits add KEY N${pool === "route-optimizer" ? " --optimizer" : ""}).`
  );
}

/** 403 Inactive: the account was deactivated (the same answer as the key check's). */
export function inactive(): Error {
  return fail(
    "Inactive",
    "The account of this x-api-key is inactive; ask the service operator to reactivate it."
  );
}

/**
 * The account as the database has it now: the caller's copy may come from a store's memory, and
 * a refusal is answered only on the database's word (credits may have been added a moment ago,
 * the account deactivated). Throws 403 Inactive for an account no longer active.
 */
export async function confirmedAccount(store: Store, caller: Caller): Promise<AccountState> {
  const fresh = await store.accountState(caller.account.id);
  if (!fresh?.active) throw inactive();
  caller.account = fresh;
  return fresh;
}

export class Credits {
  /** Each operation's one charge, built once: the stores only read the charges they are given. */
  readonly #single = new Map<Operation, Charge[]>();

  constructor(
    private readonly store: Store,
    readonly costs: CostTable
  ) {}

  private singleCharge(op: Operation): Charge[] {
    let charges = this.#single.get(op);
    if (!charges || charges[0].cost !== this.costs[op]) {
      charges = [Object.freeze({ pool: POLICY[op].pool, endpoint: op, cost: this.costs[op] })];
      this.#single.set(op, Object.freeze(charges) as Charge[]);
    }
    return charges;
  }

  costOf(op: Operation): number {
    return this.costs[op];
  }

  /** Whether the caller's balance (as read) covers the call: then `precheck` has nothing to ask. */
  covers(caller: Caller, op: Operation): boolean {
    const cost = this.costs[op];
    return cost <= 0 || balanceOf(caller, POLICY[op].pool) >= cost;
  }

  /**
   * Answers 402 before any computing when the pool cannot pay for the call (confirmed by the
   * database when the caller's balance came from memory).
   */
  async precheck(caller: Caller, op: Operation): Promise<void> {
    if (this.covers(caller, op)) return;
    const cost = this.costs[op];
    const pool = POLICY[op].pool;
    await confirmedAccount(this.store, caller);
    if (balanceOf(caller, pool) < cost) throw overLimit(pool, cost, balanceOf(caller, pool));
  }

  /**
   * Debits one successful call; throws 402 Over Limit if the pool ran dry meanwhile, 403 Inactive
   * if the account was deactivated meanwhile.
   */
  async settle(caller: Caller, op: Operation, requestId: string): Promise<void> {
    const cost = this.costs[op];
    if (cost <= 0) return;
    const pool = POLICY[op].pool;
    const [ok] = await this.store.charge(caller.account.id, caller.key.id, requestId, [
      { pool, endpoint: op, cost },
    ]);
    if (!ok) {
      const now = await confirmedAccount(this.store, caller);
      throw overLimit(pool, cost, pool === "route-optimizer" ? now.optimizerCredits : now.credits);
    }
  }

  /**
   * `settle` calling back (`error` undefined: debited) instead of returning a promise, when the
   * store can (see Store.chargeThen); the same debit, refusals and errors.
   */
  settleThen(
    caller: Caller,
    op: Operation,
    requestId: string,
    done: (error?: unknown) => void
  ): void {
    const cost = this.costs[op];
    if (cost <= 0 || !this.store.chargeThen) {
      this.settle(caller, op, requestId).then(() => done(), done);
      return;
    }
    const pool = POLICY[op].pool;
    this.store.chargeThen(
      caller.account.id,
      caller.key.id,
      requestId,
      this.singleCharge(op),
      (error, ok) => {
        if (!ok) return done(error);
        if (ok[0]) return done();
        confirmedAccount(this.store, caller).then(
          (now) =>
            done(
              overLimit(pool, cost, pool === "route-optimizer" ? now.optimizerCredits : now.credits)
            ),
          done
        );
      }
    );
  }

  /** Debits a call that ended without an answer but used the service (a search stopped by its
   *  budget or its client); a pool that ran dry meanwhile is left at what it has. */
  async chargeIfPossible(caller: Caller, op: Operation, requestId: string): Promise<boolean> {
    const cost = this.costs[op];
    if (cost <= 0) return true;
    const [ok] = await this.store.charge(caller.account.id, caller.key.id, requestId, [
      { pool: POLICY[op].pool, endpoint: op, cost },
    ]);
    return ok;
  }
}

export interface PendingCharge {
  index: number;
  op: Operation;
}

/**
 * Debits batch items in order in one transaction; returns the indexes that could not be paid
 * (throws 403 Inactive when the account was deactivated meanwhile).
 */
export async function settleMany(
  store: Store,
  costs: CostTable,
  caller: Caller,
  requestId: string,
  pending: PendingCharge[]
): Promise<number[]> {
  const charges = pending.map((p) => ({
    pool: POLICY[p.op].pool,
    endpoint: p.op,
    cost: costs[p.op],
  }));
  if (charges.length === 0) return [];
  const ok = await store.charge(caller.account.id, caller.key.id, requestId, charges);
  const unpaid = pending.filter((_, i) => !ok[i]).map((p) => p.index);
  if (unpaid.length > 0) await confirmedAccount(store, caller);
  return unpaid;
}

/**
 * Debits `count` calls of `op` all or nothing (a /chain's legs, ledgered as `endpoint`); throws
 * 402 Over Limit with the balance the database has when the pool cannot pay them all, 403 Inactive
 * when the account was deactivated meanwhile.
 */
export async function settleAll(
  store: Store,
  costs: CostTable,
  caller: Caller,
  requestId: string,
  op: Operation,
  count: number,
  endpoint: string
): Promise<void> {
  const pool = POLICY[op].pool;
  const charge: Charge = { pool, endpoint, cost: costs[op] };
  if (charge.cost <= 0 || count === 0) return;
  const charges = Array.from({ length: count }, () => charge);
  if (await store.chargeAll(caller.account.id, caller.key.id, requestId, charges)) return;
  const now = await confirmedAccount(store, caller);
  throw overLimit(pool, charge.cost * count, balanceOf({ ...caller, account: now }, pool));
}

declare module "fastify" {
  interface FastifyInstance {
    credits: Credits;
  }
}

/** Decorates the root with the credit policy and debits of this service's cost table. */
export const creditsPlugin = fp(
  async (app, options: { store: Store; costs: CostTable }) => {
    app.decorate("credits", new Credits(options.store, options.costs));
  },
  { name: "route-sheets-credits", fastify: "5.x" }
);
