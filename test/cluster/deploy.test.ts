/**
 * A team deployment as docs/deploy.md describes it (issue 30.1, 31.2): the systemd unit's `serve`
 * flags read from the document itself, two instances on PostgreSQL and Redis, nginx terminating
 * TLS in front. Every instance and every request hands out the same manifest (byte for byte), all
 * of whose URLs start with the public URL, with one add-in Id (the database's); functions.json
 * and /help/ link to the public URL too; and 400 client connections for a few seconds get no 5xx.
 */
import * as fs from "node:fs";
import * as https from "node:https";
import * as path from "node:path";
import { Pool } from "pg";
import { kill, requireBuild, ROOT, ServerProcess } from "../service/child";
import { tempDir } from "../service/support";
import { throwawayCertificate } from "../support/certificate";
import {
  NginxServer,
  PostgresServer,
  RedisServer,
  startNginx,
  startPostgres,
  startRedis,
} from "../support/servers";
import { createKeyOn, LANE, serve } from "./support";

const PUBLIC_URL = "https://routes.example.com";
const DOC = path.join(ROOT, "docs", "deploy.md");

/**
 * The `serve` flags of the documented unit (route-sheets@.service's ExecStart) but those naming
 * this machine's places (--host, --port, --data-dir: the tests give their own).
 */
export function documentedServeFlags(): string[] {
  const doc = fs.readFileSync(DOC, "utf8");
  const unit = /```ini\n(\[Unit\]\nDescription=Route Sheets instance[\s\S]*?)```/.exec(doc);
  if (!unit) throw new Error("docs/deploy.md has no route-sheets@.service unit");
  const execStart = /^ExecStart=((?:.*\\\n)*.*)/m.exec(unit[1])![1].replace(/\\\n\s*/g, " ");
  const words = execStart.trim().split(/\s+/);
  const flags = words.slice(words.indexOf("serve") + 1);
  const out: string[] = [];
  for (let i = 0; i < flags.length; i++) {
    if (["--host", "--port", "--data-dir"].includes(flags[i])) i++;
    else out.push(flags[i]);
  }
  return out;
}

let postgres: PostgresServer;
let redis: RedisServer;
let database: string;
let nginx: NginxServer;
let dir: string;
const instances: ServerProcess[] = [];

beforeAll(async () => {
  requireBuild();
  dir = tempDir("route-sheets-deploy-");
  [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  database = await postgres.createDatabase("deploy");
  const flags = documentedServeFlags();
  // Two hosts' data directories: nothing of the add-in's identity may come from them.
  for (const host of ["a", "b"])
    instances.push(
      await serve(path.join(dir, host), [...flags, "--database", database, "--redis", redis.url])
    );
  nginx = await startNginx(
    instances.map((i) => new URL(i.url).host),
    { tls: throwawayCertificate(dir) }
  );
}, 420_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map((i) => kill(i.child, "SIGTERM")));
  await redis?.stop();
  await postgres?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** GET through nginx over TLS as a browser at the public host would (Host: routes.example.com). */
function get(
  target: string,
  options: { agent?: https.Agent; localAddress?: string; key?: string } = {}
): Promise<{ status: number; body: string; type: string }> {
  const { port } = new URL(nginx.url);
  return new Promise((resolve, reject) => {
    const req = https.get(
      {
        host: "127.0.0.1",
        port,
        path: target,
        servername: "localhost",
        rejectUnauthorized: false,
        agent: options.agent,
        localAddress: options.localAddress,
        headers: {
          host: "routes.example.com",
          ...(options.key ? { "x-api-key": options.key } : {}),
        },
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (body += c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, type: String(res.headers["content-type"]) })
        );
      }
    );
    req.on("error", reject);
  });
}

test("the documented unit has what a deployment behind nginx needs", () => {
  const flags = documentedServeFlags().join(" ");
  expect(flags).toContain(`--public-url ${PUBLIC_URL}`);
  expect(flags).toMatch(/--trust-proxy 127\.0\.0\.1\/32/);
  expect(flags).toContain("--request-id-header x-request-id");
});

test("two instances behind nginx with TLS: byte-identical manifests, every URL the public URL, one Id (the database's)", async () => {
  const served: string[] = [];
  for (let i = 0; i < 6; i++) {
    const answer = await get("/manifest.xml", { agent: new https.Agent({ keepAlive: false }) });
    expect(answer.status).toBe(200);
    expect(answer.type).toMatch(/^application\/xml/);
    served.push(answer.body);
  }
  // Each instance asked directly too (the balancer may send a user to either).
  for (const i of instances) served.push(await (await fetch(`${i.url}/manifest.xml`)).text());
  expect(new Set(served).size).toBe(1);
  const xml = served[0];
  const urls = [...xml.matchAll(/DefaultValue="(https?:[^"]*)"/g)].map((m) => m[1]);
  expect(urls.length).toBeGreaterThan(8);
  for (const u of urls) expect(u.startsWith(`${PUBLIC_URL}/`)).toBe(true);
  expect(xml).not.toMatch(/localhost|127\.0\.0\.1/);
  const id = /<Id>([^<]+)<\/Id>/.exec(xml)![1];
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const pool = new Pool({ connectionString: database });
  try {
    const rows = (await pool.query("SELECT addin_id FROM addin_identity")).rows;
    expect(rows).toEqual([{ addin_id: id }]);
  } finally {
    await pool.end();
  }
  // Nothing of the identity was written into the instances' data directories.
  for (const host of ["a", "b"])
    expect(fs.existsSync(path.join(dir, host, "addin-id"))).toBe(false);
});

test("functions.json and /help/ link to the public URL only", async () => {
  const meta = JSON.parse((await get("/functions.json")).body) as {
    functions: Array<{ id: string; helpUrl: string }>;
  };
  expect(meta.functions.length).toBeGreaterThanOrEqual(5);
  for (const f of meta.functions)
    expect(f.helpUrl).toBe(`${PUBLIC_URL}/help/ROUTE.${f.id}#ROUTE.${f.id}`);
  const help = await get("/help/");
  expect(help.status).toBe(200);
  const links = [...help.body.matchAll(/(?:href|src)="([^"#]+)/g)].map((m) => m[1]);
  // Links to this service (its help pages, its OpenAPI document) are under the public URL; others
  // are outside sites (Office.js, data attributions).
  const own = links.filter((l) => /\/help\/|\/openapi\.json/.test(l));
  expect(own.length).toBeGreaterThan(5);
  for (const link of own) expect(link.startsWith(`${PUBLIC_URL}/`)).toBe(true);
  expect(help.body).not.toMatch(/localhost|127\.0\.0\.1/);
});

/**
 * `clients` connections, each its own keep-alive agent from `addressOf(i)`, sending /distance
 * until `ms` have passed; the answers by status.
 */
async function hold(key: string, clients: number, ms: number, addressOf: (i: number) => string) {
  const statuses: Record<string, number> = {};
  const deadline = Date.now() + ms;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      const agent = new https.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        while (Date.now() < deadline) {
          let status: string;
          try {
            status = String((await get(LANE, { agent, key, localAddress: addressOf(i) })).status);
          } catch (e) {
            status = `network error ${(e as NodeJS.ErrnoException).code ?? ""}`.trim();
          }
          statuses[status] = (statuses[status] ?? 0) + 1;
        }
      } finally {
        agent.destroy();
      }
    })
  );
  return statuses;
}

test("400 client connections for 4 s through the documented nginx and unit: no 5xx, nothing refused (one address, then 100 addresses)", async () => {
  const { key } = createKeyOn(database, ["--credits", "10000000", "--rate-limit", "1000000"]);
  for (const addressOf of [() => "127.0.0.1", (i: number) => `127.0.0.${2 + (i % 100)}`]) {
    const statuses = await hold(key, 400, 4000, addressOf);
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    // Every connection was answered at least once, and every answer was a 200.
    expect({ statuses, enough: total >= 400 }).toEqual({
      statuses: { "200": total },
      enough: true,
    });
  }
  expect(nginx.errorLog()).not.toMatch(/no live upstreams|upstream prematurely closed/);
}, 120_000);
