/** Account administration shared by the CLI, `start` and tests. */
import { hashKey, looksLikeKey, newKey } from "./store/keys";
import { AccountState, KeyRecord, NewAccount, Store } from "./store/store";

export interface CreateAccountInput extends Partial<NewAccount> {
  /** Per-key rate limit (requests/s); burst defaults to twice that. */
  ratePerSecond?: number;
  burst?: number;
}

export interface CreatedAccount {
  /** The API key: shown once, never stored. */
  key: string;
  keyId: string;
  keyPrefix: string;
  account: AccountState;
}

export async function createAccountWithKey(
  store: Store,
  input: CreateAccountInput = {}
): Promise<CreatedAccount> {
  const rate = input.ratePerSecond
    ? { perSecond: input.ratePerSecond, burst: input.burst ?? input.ratePerSecond * 2 }
    : undefined;
  const { key, record } = newKey(rate);
  const account = await store.createAccount(
    {
      name: input.name ?? "default",
      tier: input.tier ?? "paid",
      credits: input.credits ?? 0,
      optimizerAccess: input.optimizerAccess ?? false,
      optimizerCredits: input.optimizerCredits ?? 0,
    },
    record
  );
  return { key, keyId: record.id, keyPrefix: record.prefix, account };
}

/** Finds a key by the key itself (rs_…) or by its key id (key_…). */
export async function findKey(store: Store, keyOrId: string): Promise<KeyRecord | undefined> {
  const v = keyOrId.trim();
  return looksLikeKey(v) ? store.findKeyByHash(hashKey(v)) : store.findKeyById(v);
}
