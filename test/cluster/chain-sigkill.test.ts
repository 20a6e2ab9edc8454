/**
 * /chain on the cluster (issue 31 item 1): two `serve` instances on PostgreSQL and Redis behind
 * nginx, concurrent 3-leg chains on a key that runs dry, one instance SIGKILLed mid-load. A chain
 * is charged all legs or none: every request id in the ledger has exactly its 3 legs, as `chain`,
 * the 200 answers are the ledger's chains, and granted − ledger = balance.
 */
import { Pool } from "pg";
import { kill, requireBuild } from "../service/child";
import { PostgresServer, RedisServer, startPostgres, startRedis } from "../support/servers";
import { audit, Cluster, createKeyOn, startCluster } from "./support";

const CHAIN =
  "/route-information/api/chain?points=DEDUI,DEHAM,NLRTM,BEANR&modalities=TRUCK,RAIL,TRUCK";

let postgres: PostgresServer;
let redis: RedisServer;
let database: string;
let cluster: Cluster;

beforeAll(async () => {
  requireBuild();
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  database = await postgres.createDatabase("chain");
  cluster = await startCluster(2, database, redis.url);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await redis?.stop();
  await postgres?.stop();
});

test("SIGKILL of one instance under concurrent chains: 3 ledger rows per answered chain, none for a 402", async () => {
  // 450 credits: exactly 150 chains of 3 legs.
  const { key, keyId } = createKeyOn(database, ["--credits", "450", "--rate-limit", "1000000"]);
  const victim = cluster.instances[0];
  const statuses: Record<string, number> = {};
  let sent = 0;
  try {
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (sent < 300) {
          if (++sent === 60) victim.child.kill("SIGKILL");
          let status = "network error";
          try {
            const res = await fetch(cluster.nginx.url + CHAIN, { headers: { "x-api-key": key } });
            await res.arrayBuffer();
            status = String(res.status);
          } catch {
            /* counted as a network error */
          }
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      })
    );
    expect(victim.child.signalCode ?? "running").not.toBe("running");
    const a = await audit(database, keyId);
    const pool = new Pool({ connectionString: database });
    let perRequest: Array<{ rows: number; endpoints: string[] }>;
    try {
      perRequest = (
        await pool.query(
          `SELECT COUNT(*)::int AS rows, array_agg(DISTINCT endpoint) AS endpoints
             FROM ledger l JOIN api_keys k ON k.account_id = l.account_id
            WHERE k.id = $1 GROUP BY request_id`,
          [keyId]
        )
      ).rows;
    } finally {
      await pool.end();
    }
    // All or nothing: every chain in the ledger has its 3 legs, ledgered as `chain`.
    expect(perRequest.every((r) => r.rows === 3 && r.endpoints.join() === "chain")).toBe(true);
    expect(statuses["200"]).toBe(a.requests);
    expect(a.granted - a.rows).toBe(a.balance);
    // Every call was answered by the survivor: the credits ran out exactly.
    expect(statuses).toEqual({ "200": 150, "402": 150 });
    expect(a.balance).toBe(0);
  } finally {
    await kill(victim.child);
  }
}, 240_000);
