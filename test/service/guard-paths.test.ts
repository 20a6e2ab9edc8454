/**
 * The checks before a keyed call and its debit run synchronously when the store can answer at once
 * (SQLite: accountStateSync, chargeThen) and through promises otherwise (any other store). Both
 * paths must give the same answers: two servers, one over a SQLite store and one over the same
 * kind of store with those two methods hidden, get the same random sequences of calls from keys in
 * every state (none, unknown, inactive, free tier, few credits, rate-limited) and must answer each
 * with the same status, problem title and detail, and debit the same credits.
 */
import fc from "fast-check";
import { createAccountWithKey, CreateAccountInput } from "../../src/service/accounts";
import { RunningService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import { startQuietService, tempDir } from "./support";

/** The store with its synchronous members hidden: the service then takes the promise path. */
function withoutSyncPaths(store: SqliteStore): SqliteStore {
  const hidden = new Set<PropertyKey>(["accountStateSync", "chargeThen"]);
  return new Proxy(store, {
    get(target, prop) {
      if (hidden.has(prop)) return undefined;
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

const KINDS: Record<string, CreateAccountInput | "none" | "unknown" | "inactive"> = {
  none: "none",
  unknown: "unknown",
  inactive: "inactive",
  free: { tier: "free", credits: 100 },
  few: { credits: 2 },
  limited: { credits: 100, ratePerSecond: 0.001, burst: 2 },
  paid: { credits: 100 },
};

const CALLS = [
  "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=truck",
  "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK&include=passages",
  "/route-information/api/distance?origin=NLRTM&destination=XXXXX&modality=TRUCK",
  "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=PLANE",
  "/route-information/api/emissions?origin=NLRTM&destination=DEHAM&modality=TRUCK",
  "/route-information/api/terminals?terminalLocode=NLRTM",
];

interface Side {
  running: RunningService;
  store: SqliteStore;
}

/** Per kind: the key to send and, for keys of real accounts, the key's id. */
async function keysFor(side: Side): Promise<Record<string, { key?: string; id?: string }>> {
  const keys: Record<string, { key?: string; id?: string }> = {};
  for (const [kind, input] of Object.entries(KINDS)) {
    if (input === "none") keys[kind] = {};
    else if (input === "unknown") keys[kind] = { key: "rs_" + "x".repeat(40) };
    else {
      const made = await createAccountWithKey(
        side.store,
        input === "inactive" ? { credits: 100 } : input
      );
      if (input === "inactive") await side.store.setActive(made.account.id, false);
      keys[kind] = { key: made.key, id: made.keyId };
    }
  }
  return keys;
}

async function call(side: Side, path: string, key: string | undefined) {
  const res = await fetch(side.running.url + path, { headers: key ? { "x-api-key": key } : {} });
  const text = await res.text();
  const body = res.headers.get("content-type")?.includes("problem")
    ? (({ title, detail }) => ({ title, detail }))(JSON.parse(text) as Record<string, unknown>)
    : text;
  return { status: res.status, body, retryAfter: res.headers.get("retry-after") };
}

describe("guard and debit: synchronous and promise paths answer alike", () => {
  let sync: Side;
  let promised: Side;
  beforeAll(async () => {
    const a = await startQuietService({ optimizer: null });
    sync = { running: a.running, store: a.store };
    const store = SqliteStore.open(tempDir());
    const b = await startQuietService({ optimizer: null, store: withoutSyncPaths(store) });
    promised = { running: b.running, store };
  });
  afterAll(async () => {
    for (const side of [sync, promised]) {
      await side.running.close();
      await side.store.close();
    }
  });

  test("same statuses, problems and debits over random call sequences", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(fc.constantFrom(...Object.keys(KINDS)), fc.nat({ max: CALLS.length - 1 })),
          { minLength: 1, maxLength: 14 }
        ),
        async (calls) => {
          const keys = [await keysFor(sync), await keysFor(promised)];
          for (const [kind, c] of calls) {
            const a = await call(sync, CALLS[c], keys[0][kind].key);
            const b = await call(promised, CALLS[c], keys[1][kind].key);
            expect(a).toEqual(b);
          }
          const left = async (side: Side, id: string | undefined) =>
            (await side.store.usage()).find((r) => r.keyId === id)?.creditsLeft;
          for (const kind of Object.keys(KINDS))
            expect(await left(sync, keys[0][kind].id)).toEqual(
              await left(promised, keys[1][kind].id)
            );
        }
      ),
      { numRuns: 12 }
    );
  }, 120_000);
});
