/**
 * Starts the service: opens the store of a data directory, loads the engine (and the optimizer when
 * its loader is present), builds the app and listens (HTTP, or HTTPS with dev certificates).
 */
import { FastifyInstance } from "fastify";
import { randomUUID } from "node:crypto";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import * as path from "node:path";
import { RouteOptimizer } from "../engine/optimizer/types";
import { RouteEngine } from "../engine/route-engine";
import type { OsrmRoadLegs } from "../data/osrm";
import { buildApp } from "./app";
import { ConfigOverrides, makeConfig } from "./config";
import { RedisFailMode, RedisRateLimiter } from "./rate-limit/redis";
import { PostgresStore } from "./store/postgres";
import { SERVER_BUSY_TIMEOUT_MS, SqliteStore } from "./store/sqlite";
import { Store } from "./store/store";
import { loadTls, TlsMaterial } from "./tls";
import { addressList, isListed } from "./limits";
import { OptimizerRunner, PooledOptimizerRunner } from "./workers/optimizer-runner";
import { fetchRoadLegsFirst } from "./road-legs";

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
  config?: ConfigOverrides;
  addin?: { addinDir: string; manifestFile?: string; publicUrl?: string };
  engine?: RouteEngine;
  /** null: run without the optimizer; undefined: load it if its loader exists. */
  optimizer?: RouteOptimizer | null;
  store?: Store;
  /** start's --addin-id / --addin-name (the data directory keeps the rest of the add-in's identity). */
  addinIdentity?: { id?: string; name?: string };
  /** The module the search threads run (default: the optimizer worker); tests give a stand-in. */
  optimizerWorker?: string;
  /** PostgreSQL URL (postgres://…): the shared store of several instances instead of SQLite. */
  database?: string;
  /** Redis URL (redis://…): rate-limit buckets shared by several instances instead of in memory. */
  redis?: string;
  /** While Redis is unreachable: allow (open, default) or refuse with 429 (closed). */
  redisFail?: RedisFailMode;
  /**
   * Take the request id from this header (set by the balancer: nginx `X-Request-Id $request_id`),
   * so a request the balancer retries on another instance is charged once. Only behind a proxy
   * that always overwrites the header.
   */
  requestIdHeader?: string;
  /**
   * Addresses (IP or CIDR) of the proxies in front (--trust-proxy): only requests from them have
   * their request-id header (and X-Forwarded-For) believed; they are exempt from the per-IP
   * connection cap.
   */
  trustProxy?: string[];
  logStream?: NodeJS.WritableStream;
  /**
   * `--road-engine osrm=URL`: TRUCK legs from that OSRM server (src/data/osrm.ts); used by the
   * engine this loads (an `engine` given here keeps its own routers).
   */
  roadEngine?: string;
}

/** The store the options name: PostgreSQL when a database URL is given, else the data directory's SQLite file. */
export async function openStore(options: {
  dataDir?: string;
  database?: string;
  /** SQLite only: how long to wait for another process's write lock (the server waits less). */
  busyTimeoutMs?: number;
}): Promise<Store> {
  if (options.database) {
    if (!/^postgres(ql)?:\/\//.test(options.database))
      throw new Error(
        `--database must be a PostgreSQL URL (postgres://user:password@host:5432/db); got "${options.database.split(":")[0]}:…".`
      );
    return PostgresStore.connect(options.database, {
      // A pooled connection dropped while idle: the pool replaces it; say so on stderr.
      onError: (e) => process.stderr.write(`PostgreSQL connection error: ${e.message}\n`),
    });
  }
  return SqliteStore.open(
    path.resolve(options.dataDir ?? DEFAULT_DATA_DIR),
    options.busyTimeoutMs === undefined ? undefined : { busyTimeoutMs: options.busyTimeoutMs }
  );
}

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Request ids from the header when the request comes from a trusted proxy and the id is
 * well-formed, else random: a client reaching an instance directly cannot choose its request id
 * (and replay a charged one for free).
 */
export function requestIdFrom(header: string | undefined, trustedProxies: readonly string[]) {
  if (!header) return undefined;
  const name = header.toLowerCase();
  const trusted = addressList(trustedProxies);
  // A socket's peer never changes, and BlockList.check allocates an address object per call
  // (about 2 µs of every request behind a balancer, measured): decide once per connection.
  const trustedSockets = new WeakMap<Socket, boolean>();
  return (req: IncomingMessage): string => {
    const v = req.headers[name];
    if (typeof v !== "string" || !SAFE_REQUEST_ID.test(v)) return randomUUID();
    const socket = req.socket;
    let fromProxy = socket ? trustedSockets.get(socket) : false;
    if (fromProxy === undefined) {
      fromProxy = isListed(trusted, socket.remoteAddress);
      trustedSockets.set(socket, fromProxy);
    }
    return fromProxy ? v : randomUUID();
  };
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

export function loadEngineFor(dataDir: string, roadLegs?: OsrmRoadLegs): RouteEngine {
  const { loadEngine } = require("../data/load-engine") as typeof import("../data/load-engine");
  return loadEngine({ dataDir, roadLegs });
}

function osrmLegsFor(setting: string): OsrmRoadLegs {
  const { parseRoadEngine, OsrmRoadLegs } =
    require("../data/osrm") as typeof import("../data/osrm");
  return new OsrmRoadLegs(parseRoadEngine(setting).url);
}

export async function startService(options: ServeOptions = {}): Promise<RunningService> {
  const dataDir = path.resolve(options.dataDir ?? DEFAULT_DATA_DIR);
  const config = makeConfig(options.config);
  const store =
    options.store ??
    (await openStore({
      dataDir,
      database: options.database,
      busyTimeoutMs: SERVER_BUSY_TIMEOUT_MS,
    }));
  if (options.redis && !/^rediss?:\/\//.test(options.redis))
    throw new Error(
      `--redis must be a Redis URL (redis://host:6379); got "${options.redis.split(":")[0]}:…".`
    );
  const rateLimiter = options.redis
    ? new RedisRateLimiter(options.redis, { failMode: options.redisFail })
    : undefined;
  // Searches run in worker threads that load the optimizer themselves; they start loading now,
  // in parallel with the engine below.
  const pool =
    options.optimizer === undefined
      ? new PooledOptimizerRunner({
          dataDir,
          threads: config.optimizer.threads || undefined,
          queuePerThread: config.optimizer.queuePerThread,
          workerFile: options.optimizerWorker,
        })
      : undefined;
  const roadLegs = options.roadEngine ? osrmLegsFor(options.roadEngine) : undefined;
  const engine = options.engine ?? loadEngineFor(dataDir, roadLegs);
  // The place index (every UN/LOCODE, a data directory's import) is built before listening, so
  // that no request, and no /health during a rolling restart, waits for it (issue 31).
  engine.preparePlaces?.();
  const optimizer = options.optimizer ?? undefined;
  // Listening does not wait for the threads: a search sent while they load waits for them.
  const optimizerRunner: OptimizerRunner | undefined = pool;

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
    addinIdentity: { dataDir, ...options.addinIdentity },
    logStream: options.logStream,
    rateLimiter,
    trustProxy: options.trustProxy,
    fastify: {
      ...(tls ? { https: { key: tls.key, cert: tls.cert, ca: tls.ca } } : {}),
      ...(options.requestIdHeader
        ? { genReqId: requestIdFrom(options.requestIdHeader, options.trustProxy ?? []) }
        : {}),
    },
  });
  if (roadLegs) fetchRoadLegsFirst(app, engine, roadLegs);
  if (options.requestIdHeader && !options.trustProxy?.length)
    app.log.warn(
      `--request-id-header ${options.requestIdHeader} is ignored without --trust-proxy (the balancer's address): every request gets its own id.`
    );
  void pool?.ready().then((ok) => {
    if (!ok)
      app.log.warn(
        loadOptimizerIfPresent(dataDir, engine).error ?? "route optimizer failed to load"
      );
  });
  if (rateLimiter) {
    rateLimiter.logger = app.log;
    // Start anyway when Redis is down: the fail mode applies until it answers.
    await rateLimiter.ready(5000).catch((e: Error) => app.log.warn(e.message));
  }
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
