/**
 * Scale-out on real servers: `route-sheets serve` processes on one PostgreSQL database and one
 * Redis, behind nginx on loopback. Exact credits under load, a SIGKILLed instance loses or doubles
 * no charge, rate limits hold across instances, and CLI changes reach every instance at once.
 */
import { requireBuild } from "../service/child";
import { kill } from "../service/child";
import { PostgresServer, RedisServer, startPostgres, startRedis } from "../support/servers";
import { audit, cliOn, createKeyOn, LANE, load, startCluster } from "./support";

let postgres: PostgresServer;
let redis: RedisServer;

beforeAll(async () => {
  requireBuild();
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
}, 90_000);

afterAll(async () => {
  await redis?.stop();
  await postgres?.stop();
});

test("3 instances behind nginx, 3,000 calls on 2,000 credits by 40 clients: exactly 2,000 × 200 and 1,000 × 402", async () => {
  const database = await postgres.createDatabase("exact");
  const { key, keyId } = createKeyOn(database, ["--credits", "2000", "--rate-limit", "1000000"]);
  const cluster = await startCluster(3, database, redis.url);
  try {
    const tally = await load(cluster.nginx.url, key, { clients: 40, total: 3000 });
    expect(tally.statuses).toEqual({ "200": 2000, "402": 1000 });
    // nginx spread the calls over all three instances.
    expect(Object.keys(tally.upstreams).sort()).toEqual(
      cluster.instances.map((i) => new URL(i.url).host).sort()
    );
    for (const n of Object.values(tally.upstreams)) expect(n).toBeGreaterThan(300);
  } finally {
    await cluster.stop();
  }
  expect(await audit(database, keyId)).toEqual({
    balance: 0,
    granted: 2000,
    rows: 2000,
    requests: 2000,
  });
}, 180_000);

test("SIGKILL of one instance mid-load: answered 200 = ledger rows, nothing lost or doubled", async () => {
  const database = await postgres.createDatabase("sigkill");
  const { key, keyId } = createKeyOn(database, ["--credits", "2000", "--rate-limit", "1000000"]);
  const cluster = await startCluster(3, database, redis.url);
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
    await cluster.stop();
  }
}, 180_000);

test("a key limited to 10/s (burst 10) gets ~10/s in total over 3 instances, not per instance", async () => {
  const database = await postgres.createDatabase("ratelimit");
  const { key } = createKeyOn(database, [
    "--credits",
    "100000",
    "--rate-limit",
    "10",
    "--burst",
    "10",
  ]);
  const cluster = await startCluster(3, database, redis.url);
  try {
    const started = Date.now();
    const tally = await load(cluster.nginx.url, key, {
      clients: 12,
      total: 5000,
      deadline: started + 3000,
    });
    const seconds = (Date.now() - started) / 1000;
    const ok = tally.statuses["200"] ?? 0;
    // Burst 10 + 10/s over the run: ~40 in 3 s. Per-instance buckets would allow ~3 × that.
    expect(ok).toBeGreaterThanOrEqual(Math.floor(10 + 10 * (seconds - 0.5)));
    expect(ok).toBeLessThanOrEqual(Math.ceil(10 + 10 * seconds) + 2);
    expect(tally.statuses["429"]).toBeGreaterThan(0);
    expect(Object.keys(tally.statuses).sort()).toEqual(["200", "429"]);
    for (const r of tally.retryAfter) expect(r).toBe("1");
  } finally {
    await cluster.stop();
  }
}, 120_000);

test("a key created, deactivated, reactivated and credited by the CLI takes effect on every instance at the next request", async () => {
  const database = await postgres.createDatabase("admin");
  const cluster = await startCluster(2, database, redis.url);
  const call = (url: string, key: string) =>
    fetch(url + LANE, { headers: { "x-api-key": key } }).then(async (r) => {
      await r.arrayBuffer();
      return r.status;
    });
  const everywhere = (key: string) =>
    Promise.all(cluster.instances.map((i) => call(i.url, key)));
  try {
    const { key, keyId } = createKeyOn(database, ["--credits", "2", "--rate-limit", "1000"]);
    expect(await everywhere(key)).toEqual([200, 200]);
    expect(await everywhere(key)).toEqual([402, 402]);
    cliOn(database, ["credits", "add", keyId, "2"]);
    expect(await everywhere(key)).toEqual([200, 200]);
    cliOn(database, ["keys", "deactivate", key]);
    expect(await everywhere(key)).toEqual([403, 403]);
    cliOn(database, ["keys", "activate", keyId], true);
    expect(await everywhere(key)).toEqual([402, 402]);
    // usage --json from DATABASE_URL alone: rows carry creditsLeft.
    const rows = JSON.parse(cliOn(database, ["usage", "--json"], true));
    expect(rows).toEqual([
      expect.objectContaining({ keyId, calls: 4, creditsUsed: 4, creditsLeft: 0, active: true }),
    ]);
  } finally {
    await cluster.stop();
  }
}, 120_000);
