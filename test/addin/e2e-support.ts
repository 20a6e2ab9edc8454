/**
 * What the two add-in suites in Chromium (e2e.test.ts, sheet.e2e.test.ts) set up alike: the built
 * add-in and CLI, a data dir with two keys, our real server (`route-sheets serve` on loopback)
 * behind a FaultProxy that counts the API requests, and the add-in page opened through the proxy.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Page } from "playwright-core";
import {
  AddinPage,
  createKey,
  FaultProxy,
  openAddinPage,
  ServerProcess,
  startServer,
} from "../../src/bench/addin-harness";
import { ensureAddinAndCliBuilt } from "./build-once";

// Chromium is required (apt-get install -y chromium); ROUTE_SHEETS_SKIP_BROWSER=1 skips on machines without it.
export const describeBrowser =
  process.env.ROUTE_SHEETS_SKIP_BROWSER === "1" ? describe.skip : describe;

export interface AddinE2e {
  dataDir: string;
  /** Replaced when a test stops and restarts the server (then point proxy.upstream at it). */
  server: ServerProcess;
  proxy: FaultProxy;
  addin: AddinPage;
  /** The page's key: optimizer access, plenty of credits, the default rate limit. */
  key: string;
  /** The tests' own key for reference answers from the API, with a rate limit they cannot reach. */
  referenceKey: string;
}

/** `route-sheets serve` on 127.0.0.1 (a free port), warnings only, no request log. */
export function startQuietServer(dataDir: string): Promise<ServerProcess> {
  return startServer(dataDir, "serve", [
    "--host",
    "127.0.0.1",
    "--log-level",
    "warn",
    "--no-request-log",
  ]);
}

/**
 * Registers the suite's beforeAll / afterAll: the object returned is filled in before the first
 * test runs and everything in it is stopped and removed after the last.
 */
export function useAddinE2e(tempPrefix: string): AddinE2e {
  const env = {} as AddinE2e;
  beforeAll(async () => {
    ensureAddinAndCliBuilt();
    env.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), tempPrefix));
    const optimizer = ["--optimizer", "--optimizer-credits", "1000"];
    env.key = await createKey(env.dataDir, 1_000_000, optimizer);
    env.referenceKey = await createKey(env.dataDir, 1_000_000, [
      ...optimizer,
      "--rate-limit",
      "1000",
    ]);
    env.server = await startQuietServer(env.dataDir);
    env.proxy = new FaultProxy(env.server.url);
    env.addin = await openAddinPage(`${await env.proxy.start()}/taskpane.html`, env.key);
  });
  afterAll(async () => {
    await env.addin?.close();
    await env.proxy?.close();
    await env.server?.stop();
    if (env.dataDir) fs.rmSync(env.dataDir, { recursive: true, force: true });
  });
  return env;
}

/** A GET of the API straight from the server with the reference key: 200 expected, its JSON. */
export async function apiJson<T = Record<string, unknown>>(
  env: AddinE2e,
  pathAndQuery: string
): Promise<T> {
  const res = await fetch(`${env.server.url}${pathAndQuery}`, {
    headers: { "x-api-key": env.referenceKey },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/**
 * Calls the page's ROUTE.* functions all at once, as one recalculation would (one Promise.all in
 * the page, started in order): each call is [id, ...arguments, invocation]. An Excel error comes
 * back as {code, message}.
 */
export function callAll(page: Page, calls: unknown[][]): Promise<unknown[]> {
  return page.evaluate(async (calls) => {
    type Fn = (...args: unknown[]) => Promise<unknown>;
    const f = (window as unknown as { __routeFunctions: Record<string, Fn> }).__routeFunctions;
    const plain = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(plain)
        : v && typeof v === "object" && "code" in v
          ? {
              code: String((v as { code: string }).code),
              message: String((v as unknown as { message: string }).message),
            }
          : v;
    return Promise.all(
      calls.map(([name, ...args]) => f[name as string](...args).then(plain, plain))
    );
  }, calls);
}

/** Calls one of the page's ROUTE.* functions (by id), not in preview; an error as {code, message}. */
export async function callFunction(page: Page, name: string, ...args: unknown[]): Promise<unknown> {
  const [answer] = await callAll(page, [[name, ...args, { isInValuePreview: false }]]);
  return answer;
}

/**
 * Simulates Excel with CustomFunctionsRuntime 1.4 (data types, formatted numbers) on the page for
 * the length of `run`; the outside-Office page (no requirement sets) again after.
 */
export async function withCustomFunctionsRuntime14<T>(
  page: Page,
  run: () => Promise<T>
): Promise<T> {
  await page.evaluate(() => {
    const office = (window as unknown as { Office: { context: Record<string, unknown> } }).Office;
    office.context.requirements = {
      isSetSupported: (set: string, version: string) =>
        set === "CustomFunctionsRuntime" && Number(version) <= 1.4,
    };
  });
  try {
    return await run();
  } finally {
    await page.evaluate(() => {
      const office = (window as unknown as { Office: { context: Record<string, unknown> } }).Office;
      delete office.context.requirements;
    });
  }
}
