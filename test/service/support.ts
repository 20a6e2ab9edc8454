/** Test harness: the real engine, a real SQLite store in a temp dir, the real server on 127.0.0.1:0. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { RouteEngine } from "../../src/engine/route-engine";
import { RouteOptimizer } from "../../src/engine/optimizer/types";
import {
  createAccountWithKey,
  CreateAccountInput,
  CreatedAccount,
} from "../../src/service/accounts";
import { ConfigOverrides } from "../../src/service/config";
import { RunningService, ServeOptions, startService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";

let engine: RouteEngine | undefined;

/** The engine the service ships with (src/data/load-engine), loaded once per test file. */
export function testEngine(): RouteEngine {
  if (!engine) {
    const { loadEngine } =
      require("../../src/data/load-engine") as typeof import("../../src/data/load-engine");
    engine = loadEngine({});
  }
  return engine;
}

let optimizer: RouteOptimizer | undefined;
/**
 * The route optimizer the service ships with, loaded once per test file. A load error is thrown,
 * never swallowed: a suite must not silently run without the optimizer's routes.
 */
export function testOptimizer(): RouteOptimizer {
  if (optimizer === undefined) {
    const mod = require("../../src/data/optimizer") as typeof import("../../src/data/optimizer");
    optimizer = mod.loadOptimizer({ engine: testEngine() });
  }
  return optimizer;
}

export function tempDir(prefix = "route-sheets-service-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * The real server on 127.0.0.1:0 with the real engine, over a SQLite store of `dataDir` (a new
 * temp directory unless given), logging nothing: the start every suite shares. `options` add to or
 * override it; `config` is merged into the quiet logging.
 */
export async function startQuietService(
  options: Omit<ServeOptions, "store"> & { store?: SqliteStore } = {}
): Promise<{ running: RunningService; store: SqliteStore; dataDir: string }> {
  const dataDir = options.dataDir ?? tempDir();
  const store = options.store ?? SqliteStore.open(dataDir);
  const running = await startService({
    port: 0,
    host: "127.0.0.1",
    engine: testEngine(),
    ...options,
    dataDir,
    store,
    config: { logLevel: "silent", logRequests: false, ...options.config },
  });
  return { running, store, dataDir };
}

export interface TestServer extends RunningService {
  dataDir: string;
  store: SqliteStore;
  account(input?: CreateAccountInput): Promise<CreatedAccount>;
  get(pathAndQuery: string, key?: string, headers?: Record<string, string>): Promise<Response>;
  post(pathname: string, body: unknown, key?: string): Promise<Response>;
  stop(): Promise<void>;
}

export async function startTestServer(
  config: ConfigOverrides = {},
  opts: { optimizer?: RouteOptimizer | null; logStream?: NodeJS.WritableStream } = {}
): Promise<TestServer> {
  const { running, store, dataDir } = await startQuietService({
    optimizer: opts.optimizer === undefined ? testOptimizer() : opts.optimizer,
    logStream: opts.logStream,
    config,
  });
  return {
    ...running,
    dataDir,
    store,
    account: (input = {}) => createAccountWithKey(store, { credits: 1000, ...input }),
    get: (p, key, headers = {}) =>
      fetch(running.url + p, {
        headers: key === undefined ? headers : { "x-api-key": key, ...headers },
      }),
    post: (p, body, key) =>
      fetch(running.url + p, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(key === undefined ? {} : { "x-api-key": key }),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    async stop() {
      await running.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The stand-in search thread a test controls through files (fixtures/gated-search-worker.js). */
export const GATED_WORKER = path.join(__dirname, "fixtures", "gated-search-worker.js");

/** Searches the gated stand-in worker has started (it writes one file per search). */
export function startedSearches(dataDir: string): number {
  return fs.readdirSync(dataDir).filter((f) => f.startsWith("started-")).length;
}

/** The threads the gated stand-in worker's searches started on (one id per started search). */
export function searchThreadIds(dataDir: string): number[] {
  return fs
    .readdirSync(dataDir)
    .filter((f) => f.startsWith("started-"))
    .map(
      (f) =>
        (JSON.parse(fs.readFileSync(path.join(dataDir, f), "utf8")) as { threadId: number })
          .threadId
    );
}

/**
 * Polls `condition` until it holds. A safety net, not a timing assertion: after `maxPolls` polls
 * (10 ms apart, about a minute) it throws, so a test that fails does not poll for ever.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  maxPolls = 6000
): Promise<void> {
  for (let i = 0; !(await condition()); i++) {
    if (i >= maxPolls) throw new Error("the awaited condition never held");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits until `n` searches have started in the gated worker. */
export async function untilStarted(dataDir: string, n: number): Promise<void> {
  await until(() => startedSearches(dataDir) >= n);
}

/** Lets the gated worker's searches end: with no results, or as over their budget. */
export function releaseSearches(dataDir: string, how: "release" | "budget" = "release"): void {
  fs.writeFileSync(path.join(dataDir, how), "");
}

/** Asserts an RFC 9457 body and returns it. */
export async function problemOf(
  res: Response
): Promise<{ type: string; title: string; status: number; detail: string; [k: string]: unknown }> {
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body = await res.json();
  expect(body).toEqual(
    expect.objectContaining({
      type: expect.any(String),
      title: expect.any(String),
      status: res.status,
      detail: expect.any(String),
    })
  );
  return body;
}
