/** Which operations each tier may call, which credit pool pays for them, and the debit itself. */
import fp from "fastify-plugin";
import { CostTable, Operation } from "../config";
import { fail } from "../problem";
import { Pool, Store } from "../store/store";
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

/** Tier and access rules (402 Free Tier Not Allowed, 403 Invalid Key for missing optimizer access). */
export function checkAccess(caller: Caller, op: Operation): void {
  const policy = POLICY[op];
  if (caller.account.tier === "free" && !policy.freeTier) {
    throw fail(
      "Free Tier Not Allowed",
      `${PATH_OF[op]} is not available to free accounts; free accounts may call /route-information/api/terminals and /route-information/api/distance only.`
    );
  }
  if (policy.optimizerAccess && !caller.account.optimizerAccess) {
    throw fail(
      "Invalid Key",
      `This x-api-key has no route-optimizer access (needed for ${PATH_OF[op]}); ask the service operator to grant it (route-sheets keys create --optimizer).`
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

export class Credits {
  constructor(
    private readonly store: Store,
    readonly costs: CostTable
  ) {}

  costOf(op: Operation): number {
    return this.costs[op];
  }

  /** Answers 402 before any computing when the pool cannot pay for the call. */
  precheck(caller: Caller, op: Operation): void {
    const cost = this.costs[op];
    const pool = POLICY[op].pool;
    if (cost > 0 && balanceOf(caller, pool) < cost)
      throw overLimit(pool, cost, balanceOf(caller, pool));
  }

  /** Debits one successful call; throws 402 Over Limit if the pool ran dry meanwhile. */
  async settle(caller: Caller, op: Operation, requestId: string): Promise<void> {
    const cost = this.costs[op];
    if (cost <= 0) return;
    const pool = POLICY[op].pool;
    const [ok] = await this.store.charge(caller.account.id, caller.key.id, requestId, [
      { pool, endpoint: op, cost },
    ]);
    if (!ok) throw overLimit(pool, cost, 0);
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

/** Debits batch items in order in one transaction; returns the indexes that could not be paid. */
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
  return pending.filter((_, i) => !ok[i]).map((p) => p.index);
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
