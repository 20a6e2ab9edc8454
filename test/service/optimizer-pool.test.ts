/**
 * Route searches run in worker threads with a time budget: the event loop stays free while the
 * worst allowed searches run, over-budget searches answer 400 saying what to narrow, list
 * parameters have limits, and shutdown abandons searches quickly. Real server on loopback.
 */
import * as fs from "node:fs";
import { createAccountWithKey } from "../../src/service/accounts";
import { RunningService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import { requireBuild } from "./child";
import {
  startQuietService,
  GATED_WORKER,
  problemOf,
  releaseSearches,
  untilStarted,
} from "./support";

const OPT = "/route-optimizer/api/external";
/** The worst search the limits allow: six required LOCODEs over the whole default window. */
export const WORST =
  `${OPT}?origin=CNSHA&originType=LOCODE&destination=NLRTM&destinationType=LOCODE` +
  "&allRequiredLocodes=CNNGB,CNYTN,MYTPP,DEBRV,PLGDN,CNTAO";

interface Server {
  running: RunningService;
  store: SqliteStore;
  key: string;
  accountId: string;
  dataDir: string;
}

async function start(
  config: Record<string, unknown> = {},
  optimizerWorker?: string
): Promise<Server> {
  const { running, store, dataDir } = await startQuietService({ optimizerWorker, config });
  const a = await createAccountWithKey(store, {
    tier: "paid",
    credits: 100,
    optimizerAccess: true,
    optimizerCredits: 100,
  });
  return { running, store, key: a.key, accountId: a.account.id, dataDir };
}

async function stop(s: Server) {
  await s.running.close();
  await s.store.close();
}

/** Each thread of this process (id → nice value), from /proc. */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of fs.readdirSync("/proc/self/task")) {
    const stat = fs.readFileSync(`/proc/self/task/${t}/stat`, "utf8");
    // Fields after the command's closing bracket: state is 3rd, nice the 19th of the line.
    out.set(Number(t), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[16]));
  }
  return out;
}

const get = (s: Server, p: string) => fetch(s.running.url + p, { headers: { "x-api-key": s.key } });

beforeAll(() => requireBuild());

describe("searches in worker threads", () => {
  let s: Server;
  beforeAll(async () => {
    // Four searches of one key at once: above the default per-key cap of 2 (search-limits.test.ts).
    s = await start({ optimizer: { perKeySearches: 4 } });
  }, 120_000);
  afterAll(async () => stop(s));

  test("/health and /distance answer while searches run (they end only when the test says so)", async () => {
    const g = await start({ optimizer: { budgetMs: 60_000, threads: 2 } }, GATED_WORKER);
    try {
      const order: string[] = [];
      const searches = Array.from({ length: 2 }, (_, i) =>
        get(g, WORST).then((r) => (order.push(`search${i}`), r))
      );
      await untilStarted(g.dataDir, 2);
      const health = await fetch(g.running.url + "/health");
      order.push("health");
      expect(health.status).toBe(200);
      expect((await health.json()).optimizer).toBe(true);
      const d = await get(
        g,
        "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK"
      );
      order.push("distance");
      expect(d.status).toBe(200);
      releaseSearches(g.dataDir);
      const answers = await Promise.all(searches);
      // The cheap calls did not wait for the searches running in the threads.
      expect(order.slice(0, 2)).toEqual(["health", "distance"]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
    } finally {
      await stop(g);
    }
  }, 120_000);

  test("four worst-case searches at once all answer with routes through every required stop", async () => {
    const searches = Array.from({ length: 4 }, () => get(s, WORST));
    const answers = await Promise.all(searches);
    for (const r of answers) {
      expect(r.status).toBe(200);
      const body = await r.json();
      expect(body.results.length).toBeGreaterThan(0);
      for (const opt of body.results) {
        const stops = new Set(
          opt.legs.flatMap((l: { origin: string; destination: string }) => [
            l.origin,
            l.destination,
          ])
        );
        for (const l of ["CNNGB", "CNYTN", "MYTPP", "DEBRV", "PLGDN", "CNTAO"])
          expect(stops.has(l)).toBe(true);
      }
    }
  }, 120_000);

  test("the search threads lower their own priority, never the event loop's thread (Linux)", async () => {
    // Once a search has run, every search thread has loaded its module and lowered itself.
    expect((await get(s, WORST)).status).toBe(200);
    const threads = threadNices();
    const main = threads.get(process.pid)!;
    // Threads V8 and libuv started with the process keep the nice it was started with.
    const started = Math.min(...[...threads].filter(([t]) => t !== process.pid).map(([, n]) => n));
    expect(main).toBe(started);
    if (started < 19) expect(Math.max(...threads.values())).toBe(Math.min(19, started + 10));
  }, 120_000);

  test("list parameters over their limit answer 400 naming the parameter and the limit", async () => {
    const many = "CNNGB,CNYTN,MYTPP,DEBRV,PLGDN,CNTAO,KRPUS,SGSIN";
    const p = await problemOf(
      await get(
        s,
        `${OPT}?origin=CNSHA&originType=LOCODE&destination=NLRTM&destinationType=LOCODE&allRequiredLocodes=${many}`
      )
    );
    expect(p.status).toBe(400);
    expect(p.detail).toMatch(/allRequiredLocodes/);
    expect(p.detail).toMatch(/6/);
    const doc = await (await fetch(s.running.url + "/openapi.json")).json();
    const param = doc.paths[OPT].get.parameters.find(
      (x: { name: string }) => x.name === "allRequiredLocodes"
    );
    expect(param.schema.maxItems).toBe(6);
  });
});

describe("budget and shutdown", () => {
  test("a search over its budget answers 400 saying what to narrow, charged (it held a thread)", async () => {
    const s = await start({ optimizer: { budgetMs: 20, threads: 1 } });
    try {
      const p = await problemOf(await get(s, WORST));
      expect(p.status).toBe(400);
      expect(p.title).toBe("Incorrect Values");
      expect(p.detail).toMatch(/budget/);
      expect(p.detail).toMatch(/allRequiredLocodes/);
      expect((await s.store.accountState(s.accountId))!.optimizerCredits).toBe(99);
    } finally {
      await stop(s);
    }
  }, 120_000);

  test("close() abandons running searches within the shutdown time (503 to their callers)", async () => {
    // Searches that never end by themselves: whatever this machine's speed, all three are still
    // running when close() starts, so close() has to abandon them within its budget.
    const s = await start(
      {
        optimizer: { budgetMs: 60_000, threads: 1, perKeySearches: 3 },
        timeouts: { shutdownMs: 500 },
      },
      GATED_WORKER
    );
    const searches = Array.from({ length: 3 }, () => get(s, WORST).catch((e: Error) => e));
    // One runs in the thread (the others wait for it); none ends unless the test releases it.
    await untilStarted(s.dataDir, 1);
    // close() returning at all shows it abandoned them: they would run for 10 minutes.
    await s.running.close();
    const answers = await Promise.all(searches);
    const credits = (await s.store.accountState(s.accountId))!.optimizerCredits;
    await s.store.close();
    const statuses = answers.map((r) => (r instanceof Error ? "closed" : r.status));
    // None can finish: each was abandoned (503) or its connection closed by the shutdown.
    for (const st of statuses) expect([503, "closed"]).toContain(st);
    expect(credits).toBe(100);
  }, 120_000);
});
