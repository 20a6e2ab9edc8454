/**
 * Starts the service: opens the store of a data directory, loads the engine (and the optimizer when
 * its loader is present), builds the app and listens (HTTP, or HTTPS with dev certificates).
 */
import { FastifyInstance } from "fastify";
import * as path from "node:path";
import { RouteOptimizer } from "../engine/optimizer/types";
import { RouteEngine } from "../engine/route-engine";
import { buildApp } from "./app";
import { makeConfig, ServiceConfig } from "./config";
import { SERVER_BUSY_TIMEOUT_MS, SqliteStore } from "./store/sqlite";
import { Store } from "./store/store";
import { loadTls, TlsMaterial } from "./tls";
import { OptimizerRunner, PooledOptimizerRunner } from "./workers/optimizer-runner";

export const DEFAULT_DATA_DIR = "./.route-sheets";
export const DEFAULT_PORT = 3000;
export const DEFAULT_HOST = "127.0.0.1";

export interface ServeOptions {
  port?: number;
  host?: string;
  dataDir?: string;
  /** true: Office dev certificates; or explicit files. */
  tls?: boolean | { cert?: string; key?: string };
  /** Already-resolved TLS material (start: dev certs when present). */
  tlsMaterial?: TlsMaterial;
  config?: Partial<ServiceConfig>;
  addin?: { addinDir: string; manifestFile?: string; publicUrl?: string };
  engine?: RouteEngine;
  /** null: run without the optimizer; undefined: load it if its loader exists. */
  optimizer?: RouteOptimizer | null;
  store?: Store;
  logStream?: NodeJS.WritableStream;
}

export interface RunningService {
  app: FastifyInstance;
  url: string;
  store: Store;
  engine: RouteEngine;
  optimizer?: RouteOptimizer;
  tls?: TlsMaterial;
  close(): Promise<void>;
}

/** The optimizer loader is another module that may not be built yet: load it when it is there. */
export function loadOptimizerIfPresent(
  dataDir: string,
  engine: RouteEngine
): { optimizer?: RouteOptimizer; error?: string } {
  let mod: { loadOptimizer?: (o: { dataDir: string; engine: RouteEngine }) => RouteOptimizer };
  try {
    mod = require("../data/optimizer");
  } catch (e) {
    return {
      error: `route optimizer loader not available (${(e as Error).message.split("\n")[0]})`,
    };
  }
  if (typeof mod.loadOptimizer !== "function")
    return { error: "src/data/optimizer has no loadOptimizer" };
  try {
    return { optimizer: mod.loadOptimizer({ dataDir, engine }) };
  } catch (e) {
    return { error: `route optimizer failed to load: ${(e as Error).message}` };
  }
}

export function loadEngineFor(dataDir: string): RouteEngine {
  const { loadEngine } = require("../data/load-engine") as typeof import("../data/load-engine");
  return loadEngine({ dataDir });
}

export async function startService(options: ServeOptions = {}): Promise<RunningService> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const config = makeConfig(options.config);
  const store =
    options.store ?? SqliteStore.open(dataDir, { busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS });
  // Searches run in worker threads that load the optimizer themselves; they start loading now,
  // in parallel with the engine below.
  const pool =
    options.optimizer === undefined
      ? new PooledOptimizerRunner({
          dataDir,
          threads: config.optimizer.threads || undefined,
        })
      : undefined;
  const poolReady = pool?.ready();
  const engine = options.engine ?? loadEngineFor(dataDir);
  const optimizer = options.optimizer ?? undefined;
  let optimizerRunner: OptimizerRunner | undefined;
  let optimizerError: string | undefined;
  if (pool) {
    if (await poolReady) optimizerRunner = pool;
    else {
      optimizerError =
        loadOptimizerIfPresent(dataDir, engine).error ?? "route optimizer not loaded";
      await pool.close(0);
    }
  }

  const tls =
    options.tlsMaterial ??
    (options.tls ? loadTls(options.tls === true ? undefined : options.tls) : undefined);
  const app = await buildApp({
    engine,
    optimizer,
    optimizerRunner,
    store,
    config,
    addinDir: options.addin?.addinDir,
    manifestFile: options.addin?.manifestFile,
    addinPublicUrl: options.addin?.publicUrl,
    logStream: options.logStream,
    fastify: tls ? { https: { key: tls.key, cert: tls.cert, ca: tls.ca } } : undefined,
  });
  if (optimizerError) app.log.warn(optimizerError);
  await app.listen({ port: options.port ?? DEFAULT_PORT, host: options.host ?? DEFAULT_HOST });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  const host = options.host ?? DEFAULT_HOST;
  const shownHost =
    host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  const url = `${tls ? "https" : "http"}://${shownHost}:${port}`;
  return {
    app,
    url,
    store,
    engine,
    optimizer,
    tls,
    async close() {
      await app.close();
      if (!options.store) await store.close();
    },
  };
}
