/**
 * Route searches cannot be taken away by one key (issue 21, H1): a real bound on queued searches
 * (503 + Retry-After), a per-key cap on concurrent searches (429), searches stopped when their
 * client disconnects, and budget-stopped or abandoned searches charged. The searches run in a
 * stand-in worker the test releases (fixtures/gated-search-worker.js), so nothing here depends on
 * how fast this machine searches. Real server on loopback.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { createAccountWithKey } from "../../src/service/accounts";
import { ConfigOverrides } from "../../src/service/config";
import { RunningService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import {
  startQuietService,
  GATED_WORKER,
  problemOf,
  releaseSearches,
  searchThreadIds,
  startedSearches,
  until,
  untilStarted,
} from "./support";

const SEARCH =
  "/route-optimizer/api/external?origin=CNSHA&originType=LOCODE&destination=NLRTM&destinationType=LOCODE";

interface Server {
  running: RunningService;
  store: SqliteStore;
  dataDir: string;
  key(optimizerCredits?: number): Promise<{ key: string; accountId: string }>;
  search(key: string, signal?: AbortSignal): Promise<Response>;
  stop(): Promise<void>;
}

async function start(config: ConfigOverrides): Promise<Server> {
  const { running, store, dataDir } = await startQuietService({
    optimizerWorker: GATED_WORKER,
    config,
  });
  return {
    running,
    store,
    dataDir,
    async key(optimizerCredits = 100) {
      const a = await createAccountWithKey(store, {
        tier: "paid",
        credits: 100,
        optimizerAccess: true,
        optimizerCredits,
        ratePerSecond: 10_000,
      });
      return { key: a.key, accountId: a.account.id };
    },
    search: (key, signal) => fetch(running.url + SEARCH, { headers: { "x-api-key": key }, signal }),
    async stop() {
      releaseSearches(dataDir);
      await running.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Statuses of answers as they arrive (a search held by the worker has none yet). */
function track(answers: Promise<Response>[]): { statuses: number[]; all: Promise<Response[]> } {
  const statuses: number[] = [];
  const all = Promise.all(answers.map((p) => p.then((r) => (statuses.push(r.status), r))));
  return { statuses, all };
}

jest.setTimeout(60_000);

test("searches past threads × (1 + queuePerThread) answer 503 with Retry-After (not queued without bound)", async () => {
  // One thread, two waiting: three searches in flight at most, whoever sends them.
  const s = await start({ optimizer: { threads: 1, queuePerThread: 2, perKeySearches: 100 } });
  try {
    const { key } = await s.key();
    const sent = track(Array.from({ length: 8 }, () => s.search(key)));
    // None of the accepted ones can finish before the release: exactly five are refused.
    await until(() => sent.statuses.length >= 5);
    expect(sent.statuses).toEqual([503, 503, 503, 503, 503]);
    releaseSearches(s.dataDir);
    const answers = await sent.all;
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 503, 503, 503, 503, 503]);
    const refused = answers.find((r) => r.status === 503)!;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await problemOf(refused)).detail).toMatch(/busy/);
  } finally {
    await s.stop();
  }
});

test("the default bound is 8 waiting searches per thread", async () => {
  const s = await start({ optimizer: { threads: 1, perKeySearches: 100 } });
  try {
    const { key } = await s.key();
    const sent = track(Array.from({ length: 12 }, () => s.search(key)));
    await until(() => sent.statuses.length >= 3);
    releaseSearches(s.dataDir);
    const statuses = (await sent.all).map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(9);
    expect(statuses.filter((x) => x === 503)).toHaveLength(3);
  } finally {
    await s.stop();
  }
});

test("one key has at most perKeySearches (default 2) at once: 429 past it, other keys still search", async () => {
  const s = await start({ optimizer: { threads: 4 } });
  try {
    const a = await s.key();
    const b = await s.key();
    const sent = track(Array.from({ length: 3 }, () => s.search(a.key)));
    await untilStarted(s.dataDir, 2);
    // Without a cap the third search would start too; with it, it is answered 429 at once.
    await until(() => sent.statuses.length >= 1 || startedSearches(s.dataDir) >= 3);
    expect(sent.statuses).toEqual([429]);
    const other = s.search(b.key);
    await untilStarted(s.dataDir, 3);
    releaseSearches(s.dataDir);
    const answers = await sent.all;
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    const refused = answers.find((r) => r.status === 429)!;
    expect(refused.headers.get("retry-after")).toBe("1");
    expect((await problemOf(refused)).detail).toMatch(/at most 2 at once/);
    expect((await other).status).toBe(200);
    // The refused search was not charged; the two answered ones were.
    const state = await s.store.accountState(a.accountId);
    expect(state!.optimizerCredits).toBe(98);
  } finally {
    await s.stop();
  }
});

test("a search whose client disconnects is stopped at once (its thread and its key's slot freed) and charged", async () => {
  const s = await start({ optimizer: { threads: 1, perKeySearches: 1 } });
  try {
    const { key, accountId } = await s.key();
    const gone = new AbortController();
    const first = s.search(key, gone.signal).catch((e: Error) => e);
    await untilStarted(s.dataDir, 1);
    gone.abort();
    expect(((await first) as Error).name).toBe("AbortError");
    // The abandoned search is charged (and then leaves its key's slot).
    await until(async () => (await s.store.ledgerTotal(accountId, "route-optimizer")).rows >= 1);
    // Had the first search kept running, the next one would wait for its thread for ever (or be
    // refused by the per-key cap); it starts, so the first was stopped. A 429 (the slot not yet
    // left) is retried: the outcome decides, not a wait.
    let second: Promise<Response> | undefined;
    for (let tries = 0; !second; tries++) {
      if (tries > 100) throw new Error("the per-key slot was never freed");
      const attempt = s.search(key);
      let refused = false;
      void attempt.then((r) => (refused = r.status === 429));
      await until(() => refused || startedSearches(s.dataDir) >= 2);
      if (!refused) second = attempt;
    }
    await untilStarted(s.dataDir, 2);
    // On the same thread: the first was told to stop, not ended with its thread.
    expect(new Set(searchThreadIds(s.dataDir)).size).toBe(1);
    releaseSearches(s.dataDir);
    expect((await second).status).toBe(200);
    await until(async () => (await s.store.ledgerTotal(accountId, "route-optimizer")).rows >= 2);
    expect((await s.store.accountState(accountId))!.optimizerCredits).toBe(98);
  } finally {
    await s.stop();
  }
});

test("a search queued behind another and never started is not charged when its client leaves; the running one stops cooperatively on the same thread", async () => {
  const s = await start({ optimizer: { threads: 1, perKeySearches: 2 } });
  try {
    const { key, accountId } = await s.key();
    const running = new AbortController();
    const first = s.search(key, running.signal).catch((e: Error) => e);
    await untilStarted(s.dataDir, 1);
    const queued = new AbortController();
    const second = s.search(key, queued.signal).catch((e: Error) => e);
    // The second waits for the one thread; its client leaves before it starts.
    await new Promise((r) => setTimeout(r, 300));
    queued.abort();
    expect(((await second) as Error).name).toBe("AbortError");
    running.abort();
    expect(((await first) as Error).name).toBe("AbortError");
    // Only the search that ran is charged.
    await until(async () => (await s.store.ledgerTotal(accountId, "route-optimizer")).rows >= 1);
    await new Promise((r) => setTimeout(r, 300));
    expect((await s.store.ledgerTotal(accountId, "route-optimizer")).rows).toBe(1);
    expect(startedSearches(s.dataDir)).toBe(1);
    // The thread stayed: the next search starts on it (not on a new thread) and answers.
    const third = s.search(key);
    await untilStarted(s.dataDir, 2);
    const threads = searchThreadIds(s.dataDir);
    expect(threads).toHaveLength(2);
    expect(threads[0]).toBe(threads[1]);
    releaseSearches(s.dataDir);
    expect((await third).status).toBe(200);
  } finally {
    await s.stop();
  }
});

/** Raw connections the half-closed searches used, destroyed after each test. */
const rawSockets: net.Socket[] = [];
afterEach(() => {
  for (const socket of rawSockets.splice(0)) socket.destroy();
});

/**
 * Sends the search on a raw connection and half-closes it (FIN sent, still reading), as a client
 * that gave up may, once `halfCloseWhen` has resolved (a running search must have started first,
 * or the server may see the FIN before it dispatches the search and rightly never start it).
 * Resolves when the server has closed its side; rejects when it has not within 20 s of the FIN (a
 * server that kept half-open connections would hold the search until it ended).
 */
function halfClosedSearch(
  url: string,
  key: string,
  halfCloseWhen: Promise<void> = Promise.resolve()
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(
        `GET ${SEARCH} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nx-api-key: ${key}\r\n\r\n`
      );
      void halfCloseWhen.then(() => {
        socket.end();
        timer = setTimeout(
          () => reject(new Error("the server kept the half-closed connection open for 20 s")),
          20_000
        );
      }, reject);
    });
    rawSockets.push(socket);
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (d) => (answer += d));
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.on("error", reject);
  });
}

test("a half-closed connection counts as gone: its running search stops (thread kept), a queued one is not charged", async () => {
  const s = await start({ optimizer: { threads: 1, perKeySearches: 3 } });
  try {
    const { key, accountId } = await s.key();
    // Running: its client half-closes; the search stops without being released.
    const firstStarted = untilStarted(s.dataDir, 1);
    await halfClosedSearch(s.running.url, key, firstStarted);
    // The thread is free again: the next search starts on it while nothing was released.
    const second = new AbortController();
    const secondDone = s.search(key, second.signal).catch((e: Error) => e);
    await untilStarted(s.dataDir, 2);
    // Queued behind the second and half-closed before it starts: taken off, never started.
    const queued = halfClosedSearch(s.running.url, key);
    await new Promise((r) => setTimeout(r, 300));
    await queued;
    second.abort();
    expect(((await secondDone) as Error).name).toBe("AbortError");
    // The two that ran are charged (they held the thread), the queued one is not.
    await until(async () => (await s.store.ledgerTotal(accountId, "route-optimizer")).rows >= 2);
    await new Promise((r) => setTimeout(r, 300));
    expect((await s.store.ledgerTotal(accountId, "route-optimizer")).rows).toBe(2);
    expect(startedSearches(s.dataDir)).toBe(2);
    // Still one thread, still serving.
    const third = s.search(key);
    await untilStarted(s.dataDir, 3);
    expect(new Set(searchThreadIds(s.dataDir)).size).toBe(1);
    releaseSearches(s.dataDir);
    expect((await third).status).toBe(200);
  } finally {
    await s.stop();
  }
}, 120_000);

test("a search stopped by its budget is charged; a key with 1 credit gets one such search, then 402", async () => {
  const s = await start({ optimizer: { threads: 2 } });
  try {
    const { key, accountId } = await s.key(1);
    releaseSearches(s.dataDir, "budget");
    const p = await problemOf(await s.search(key));
    expect(p.status).toBe(400);
    expect(p.detail).toMatch(/budget/);
    expect(p.detail).toMatch(/Charged/);
    expect((await s.store.accountState(accountId))!.optimizerCredits).toBe(0);
    expect(await s.store.ledgerTotal(accountId, "route-optimizer")).toEqual({
      rows: 1,
      credits: 1,
    });
    expect((await s.search(key)).status).toBe(402);
  } finally {
    await s.stop();
  }
});

test("docs/deploy.md: nginx never re-sends a route search to another instance", () => {
  const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "deploy.md"), "utf8");
  const nginx = doc.match(/```nginx\n([\s\S]*?)```/)![1];
  const block = nginx.match(/location \^~ \/route-optimizer\/ \{([\s\S]*?)\n {4}\}/);
  expect(block).not.toBeNull();
  expect(block![1]).toMatch(/^\s*proxy_next_upstream off;/m);
  // It is proxied like the rest (same upstream, headers), only without retries.
  expect(block![1]).toMatch(/proxy_pass http:\/\/route_sheets;/);
  expect(block![1]).toMatch(/proxy_read_timeout/);
});
