/**
 * A cluster on loopback: real `route-sheets serve` processes (the built dist/) on one PostgreSQL
 * database and one Redis, behind a real nginx. Started and stopped by the tests.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Pool } from "pg";
import { BIN, kill, ROOT, serve as serveChild, ServerProcess } from "../service/child";
import { tempDir } from "../service/support";
import { NginxServer, startNginx } from "../support/servers";

export const LANE = "/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK";

export interface Cluster {
  instances: ServerProcess[];
  nginx: NginxServer;
  stop(): Promise<void>;
}

/**
 * `serve --port 0` as in the service tests, with more time: several instances load their engines
 * and search threads at once on a small machine (up to 3 minutes).
 */
export function serve(dataDir: string, extra: string[]): Promise<ServerProcess> {
  return serveChild(dataDir, extra, 180_000);
}

export async function startCluster(
  size: number,
  database: string,
  redis: string,
  extra: string[] = []
): Promise<Cluster> {
  const dataDir = tempDir("route-sheets-cluster-");
  // One search thread per instance: these tests call /distance only.
  const config = path.join(dataDir, "serve.json");
  fs.writeFileSync(config, JSON.stringify({ optimizer: { threads: 1 } }));
  const instances: ServerProcess[] = [];
  let nginx: NginxServer | undefined;
  const stop = async () => {
    await nginx?.stop();
    await Promise.all(instances.map((i) => kill(i.child, "SIGTERM")));
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    instances.push(
      ...(await Promise.all(
        Array.from({ length: size }, () =>
          serve(dataDir, [
            "--database",
            database,
            "--redis",
            redis,
            "--request-id-header",
            "x-request-id",
            // nginx on loopback is the proxy whose request ids are believed.
            "--trust-proxy",
            "127.0.0.1",
            "--config",
            config,
            ...extra,
          ])
        )
      ))
    );
    nginx = await startNginx(instances.map((i) => new URL(i.url).host));
  } catch (e) {
    await stop();
    throw e;
  }
  return { instances, nginx, stop };
}

/** Runs the CLI with the database given by --database, or by DATABASE_URL when `viaEnv`. */
export function cliOn(database: string, args: string[], viaEnv = false): string {
  return execFileSync(
    process.execPath,
    [BIN, ...args, ...(viaEnv ? [] : ["--database", database])],
    {
      cwd: ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: viaEnv ? { ...process.env, DATABASE_URL: database } : process.env,
    }
  );
}

/** `keys create` through the CLI: the key (last line) and its id (from "Key id key_…"). */
export function createKeyOn(database: string, args: string[]): { key: string; keyId: string } {
  const out = cliOn(database, ["keys", "create", ...args]);
  const lines = out.trimEnd().split("\n");
  const keyId = /Key id (key_\w+)/.exec(out)?.[1];
  if (!keyId) throw new Error(`keys create printed no key id: ${out}`);
  return { key: lines[lines.length - 1], keyId };
}

export interface Tally {
  /** Answers by status ("network error" when the request failed). */
  statuses: Record<string, number>;
  /** Answers by the instance nginx sent them to (X-Upstream). */
  upstreams: Record<string, number>;
  retryAfter: string[];
}

/**
 * `clients` concurrent loops sending GETs until `total` have been sent or `deadline` (ms since the
 * epoch) has passed; `afterEach(sent)` may act mid-load (e.g. kill an instance).
 */
export async function load(
  url: string,
  key: string,
  options: { clients: number; total: number; deadline?: number; afterEach?: (sent: number) => void }
): Promise<Tally> {
  const tally: Tally = { statuses: {}, upstreams: {}, retryAfter: [] };
  let sent = 0;
  const deadline = options.deadline ?? Date.now() + 120_000;
  await Promise.all(
    Array.from({ length: options.clients }, async () => {
      while (sent < options.total && Date.now() < deadline) {
        sent++;
        options.afterEach?.(sent);
        let status: string;
        try {
          const res = await fetch(url + LANE, { headers: { "x-api-key": key } });
          await res.arrayBuffer();
          status = String(res.status);
          const upstream = res.headers.get("x-upstream") ?? "?";
          tally.upstreams[upstream] = (tally.upstreams[upstream] ?? 0) + 1;
          const retry = res.headers.get("retry-after");
          if (retry !== null) tally.retryAfter.push(retry);
        } catch {
          status = "network error";
        }
        tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      }
    })
  );
  return tally;
}

/** Balance, granted credits and ledger of the account of a key id, read from PostgreSQL. */
export async function audit(database: string, keyId: string) {
  const pool = new Pool({ connectionString: database });
  try {
    const r = await pool.query(
      `SELECT a.credits::int AS balance,
              (SELECT COALESCE(SUM(amount), 0)::int FROM credit_grants g WHERE g.account_id = a.id AND g.pool = 'route-information') AS granted,
              (SELECT COUNT(*)::int FROM ledger l WHERE l.account_id = a.id) AS rows,
              (SELECT COUNT(DISTINCT request_id)::int FROM ledger l WHERE l.account_id = a.id) AS requests
       FROM accounts a JOIN api_keys k ON k.account_id = a.id WHERE k.id = $1`,
      [keyId]
    );
    return r.rows[0] as { balance: number; granted: number; rows: number; requests: number };
  } finally {
    await pool.end();
  }
}
