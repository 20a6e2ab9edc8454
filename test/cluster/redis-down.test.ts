/**
 * `serve --redis URL` when Redis goes away: `--redis-fail open` keeps answering 200, `closed`
 * answers 429 with Retry-After: 1; never a 5xx, and one warning in the log, not one per request.
 */
import * as fs from "node:fs";
import * as http from "node:http";
import * as path from "node:path";
import { createKey, kill, requireBuild, ServerProcess } from "../service/child";
import { tempDir } from "../service/support";
import { RedisServer, startRedis } from "../support/servers";
import { LANE, serve } from "./support";

let redis: RedisServer;
let dataDir: string;
const instances: ServerProcess[] = [];

beforeAll(async () => {
  requireBuild();
  redis = await startRedis();
  dataDir = tempDir("route-sheets-redis-down-");
}, 60_000);

afterAll(async () => {
  for (const i of instances) await kill(i.child, "SIGTERM");
  await redis?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

function call(url: string, key: string): Promise<{ status: number; retryAfter?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url + LANE, { headers: { "x-api-key": key }, agent: false }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({ status: res.statusCode!, retryAfter: res.headers["retry-after"] as string })
      );
    });
    req.on("error", reject);
  });
}

test("Redis stopped under two instances: open answers 200, closed 429 Retry-After 1, one warning each", async () => {
  const key = createKey(dataDir, ["--credits", "1000", "--rate-limit", "1000"]);
  const config = path.join(dataDir, "serve.json");
  fs.writeFileSync(config, JSON.stringify({ optimizer: { threads: 1 } }));
  const started = await Promise.all(
    (["open", "closed"] as const).map((mode) =>
      serve(dataDir, ["--redis", redis.url, "--redis-fail", mode, "--config", config])
    )
  );
  instances.push(...started);
  const [open, closed] = started;
  const logs = started.map(() => ({ text: "" }));
  started.forEach((s, i) => s.child.stderr!.on("data", (c) => (logs[i].text += c)));

  expect((await call(open.url, key)).status).toBe(200);
  expect((await call(closed.url, key)).status).toBe(200);
  await redis.stop();
  const openAnswers = [];
  const closedAnswers = [];
  for (let i = 0; i < 10; i++) {
    openAnswers.push(await call(open.url, key));
    closedAnswers.push(await call(closed.url, key));
  }
  expect(openAnswers.map((a) => a.status)).toEqual(Array(10).fill(200));
  expect(closedAnswers).toEqual(Array(10).fill({ status: 429, retryAfter: "1" }));
  await new Promise((r) => setTimeout(r, 200));
  const warnings = logs.map((l) => (l.text.match(/Redis rate limiter unreachable/g) ?? []).length);
  expect(warnings).toEqual([1, 1]);
  expect(logs[0].text).toMatch(/failing open/);
  expect(logs[1].text).toMatch(/failing closed/);
}, 240_000);
