/**
 * Scale-out on real servers: three `route-sheets serve` processes on one PostgreSQL database and
 * one Redis, behind nginx on loopback (one cluster for the file, each test with its own keys).
 * Exact credits under load, CLI changes reach every instance at once, rate limits hold across
 * instances, and (last, since it kills one) a SIGKILLed instance loses or doubles no charge.
 */
import * as http from "node:http";
import { Pool } from "pg";
import { kill, requireBuild } from "../service/child";
import { PostgresServer, RedisServer, startPostgres, startRedis } from "../support/servers";
import { audit, cliOn, Cluster, createKeyOn, LANE, load, startCluster } from "./support";

let postgres: PostgresServer;
let redis: RedisServer;
let database: string;
let cluster: Cluster;

beforeAll(async () => {
  requireBuild();
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  database = await postgres.createDatabase("cluster");
  cluster = await startCluster(3, database, redis.url);
}, 240_000);

afterAll(async () => {
  await cluster?.stop();
  await redis?.stop();
  await postgres?.stop();
});

test("3 instances behind nginx, 3,000 calls on 2,000 credits by 40 clients: exactly 2,000 × 200 and 1,000 × 402", async () => {
  const { key, keyId } = createKeyOn(database, ["--credits", "2000", "--rate-limit", "1000000"]);
  const tally = await load(cluster.nginx.url, key, { clients: 40, total: 3000 });
  expect(tally.statuses).toEqual({ "200": 2000, "402": 1000 });
  // nginx spread the calls over all three instances (X-Upstream lists every instance tried when
  // nginx retried a call on another one; the last one answered).
  const answeredBy: Record<string, number> = {};
  for (const [upstreams, n] of Object.entries(tally.upstreams)) {
    const last = upstreams.split(", ").pop()!;
    answeredBy[last] = (answeredBy[last] ?? 0) + n;
  }
  expect(Object.keys(answeredBy).sort()).toEqual(
    cluster.instances.map((i) => new URL(i.url).host).sort()
  );
  for (const n of Object.values(answeredBy)) expect(n).toBeGreaterThan(300);
  expect(await audit(database, keyId)).toEqual({
    balance: 0,
    granted: 2000,
    rows: 2000,
    requests: 2000,
  });
}, 180_000);

test("a key limited to 10/s (burst 10) gets ~10/s in total over 3 instances, not per instance", async () => {
  const { key } = createKeyOn(database, [
    "--credits",
    "100000",
    "--rate-limit",
    "10",
    "--burst",
    "10",
  ]);
  // 30 requests/s offered for 4 s whatever the machine's speed: the bucket stays drained.
  const answers: Array<{
    status: number;
    at: number;
    retryAfter: string | null;
    upstream: string;
  }> = [];
  const sends: Array<Promise<void>> = [];
  for (let i = 0; i < 120; i++) {
    sends.push(
      fetch(cluster.nginx.url + LANE, { headers: { "x-api-key": key } }).then(async (res) => {
        await res.arrayBuffer();
        answers.push({
          status: res.status,
          at: Date.now(),
          retryAfter: res.headers.get("retry-after"),
          upstream: res.headers.get("x-upstream") ?? "?",
        });
      })
    );
    await new Promise((r) => setTimeout(r, 1000 / 30));
  }
  await Promise.all(sends);
  const times = answers.map((a) => a.at);
  // The instances decided over about the span in which the answers came back.
  const span = (Math.max(...times) - Math.min(...times)) / 1000;
  const ok = answers.filter((a) => a.status === 200).length;
  const summary = { ok, span, statuses: answers.map((a) => a.status).join("") };
  expect(new Set(answers.map((a) => a.status))).toEqual(new Set([200, 429]));
  // Burst 10 + 10/s: ~50 over 4 s. Per-instance buckets would allow about three times as many.
  expect({ ...summary, withinUpper: ok <= 10 + 10 * (span + 0.5) + 2 }).toEqual({
    ...summary,
    withinUpper: true,
  });
  expect({ ...summary, withinLower: ok >= 10 + 10 * (span - 1) * 0.7 }).toEqual({
    ...summary,
    withinLower: true,
  });
  expect(new Set(answers.map((a) => a.upstream.split(", ").pop())).size).toBe(3);
  for (const a of answers.filter((x) => x.status === 429)) expect(a.retryAfter).toBe("1");
});

test("a key created, deactivated, reactivated and credited by the CLI takes effect on every instance at the next request", async () => {
  // A new connection per call: the point is what each instance answers, not connection reuse.
  const call = (url: string, key: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(url + LANE, { headers: { "x-api-key": key }, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      });
      req.on("error", reject);
    });
  const everywhere = (key: string) => Promise.all(cluster.instances.map((i) => call(i.url, key)));
  const { key, keyId } = createKeyOn(database, ["--credits", "3", "--rate-limit", "1000"]);
  expect(await everywhere(key)).toEqual([200, 200, 200]);
  expect(await everywhere(key)).toEqual([402, 402, 402]);
  cliOn(database, ["credits", "add", keyId, "3"]);
  expect(await everywhere(key)).toEqual([200, 200, 200]);
  cliOn(database, ["keys", "deactivate", key]);
  expect(await everywhere(key)).toEqual([403, 403, 403]);
  cliOn(database, ["keys", "activate", keyId], true);
  expect(await everywhere(key)).toEqual([402, 402, 402]);
  // usage --json from DATABASE_URL alone: rows carry creditsLeft.
  const rows = JSON.parse(cliOn(database, ["usage", "--json"], true)) as Array<{ keyId: string }>;
  expect(rows.find((r) => r.keyId === keyId)).toEqual(
    expect.objectContaining({ keyId, calls: 6, creditsUsed: 6, creditsLeft: 0, active: true })
  );
}, 120_000);

test("changes made behind the instances' backs (no notification) still take effect at the next charged call: the debit and the confirming read settle what memory got wrong", async () => {
  const call = (url: string, key: string) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(url + LANE, { headers: { "x-api-key": key }, agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode!));
      });
      req.on("error", reject);
    });
  /** An UPDATE of the key's account with the notifying trigger off (a replica-role session). */
  const silently = async (set: string) => {
    const pool = new Pool({ connectionString: database });
    try {
      const c = await pool.connect();
      try {
        await c.query("SET session_replication_role = replica");
        await c.query(
          `UPDATE accounts SET ${set} WHERE id = (SELECT account_id FROM api_keys WHERE id = $1)`,
          [keyId]
        );
      } finally {
        c.release();
      }
    } finally {
      await pool.end();
    }
  };
  const { key, keyId } = createKeyOn(database, ["--credits", "3", "--rate-limit", "1000"]);
  const url = cluster.instances[0].url;
  // The instance now keeps the account row (active, 2 credits left).
  expect(await call(url, key)).toBe(200);
  await silently("active = FALSE");
  expect(await call(url, key)).toBe(403);
  expect(await call(url, key)).toBe(403);
  await silently("active = TRUE");
  expect(await call(url, key)).toBe(200);
  expect(await call(url, key)).toBe(200);
  // Kept: 0 credits. A grant nobody hears of is found by the read that confirms the refusal.
  await silently("credits = credits + 1");
  expect(await call(url, key)).toBe(200);
  expect(await call(url, key)).toBe(402);
  const a = await audit(database, keyId);
  // 4 calls answered 200, 4 ledger rows; the silent grant is not in credit_grants (3 granted).
  expect(a).toEqual({ balance: 0, granted: 3, rows: 4, requests: 4 });
}, 60_000);

test("SIGKILL of one instance mid-load: answered 200 = ledger rows, nothing lost or doubled", async () => {
  const { key, keyId } = createKeyOn(database, ["--credits", "2000", "--rate-limit", "1000000"]);
  const victim = cluster.instances[0];
  let killed = false;
  try {
    const tally = await load(cluster.nginx.url, key, {
      clients: 40,
      total: 3000,
      afterEach: (sent) => {
        if (sent === 800 && !killed) {
          killed = true;
          victim.child.kill("SIGKILL");
        }
      },
    });
    expect(killed).toBe(true);
    expect(victim.child.signalCode ?? "running").not.toBe("running");
    const a = await audit(database, keyId);
    // Every committed debit was answered 200 exactly once (nginx retried the calls the dead
    // instance did not answer on another one, with the same request id).
    expect(tally.statuses["200"]).toBe(a.rows);
    expect(a.requests).toBe(a.rows);
    expect(a.granted - a.rows).toBe(a.balance);
    // All 3,000 calls were answered by the survivors: the credits ran out exactly.
    expect(tally.statuses).toEqual({ "200": 2000, "402": 1000 });
    expect(a.balance).toBe(0);
  } finally {
    await kill(victim.child);
  }
}, 180_000);
