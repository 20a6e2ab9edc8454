/**
 * Regression tests for the attack report (issue 10), each against the real server on loopback:
 * slow clients, prototype keys, keys in URLs, locked database, HTTP semantics, idempotent batches,
 * credit limits and file modes.
 */
import Database from "better-sqlite3";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { redactKeys } from "../../src/service/store/keys";
import { SqliteStore } from "../../src/service/store/sqlite";
import { cli, createKey, requireBuild } from "./child";
import { problemOf, startTestServer, tempDir, TestServer } from "./support";

const DIST = "/route-information/api/distance";
const TRUCK = `${DIST}?origin=NLRTM&destination=DEHAM&modality=TRUCK`;
const BATCH = "/route-information/api/batch";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    { timeouts: { requestMs: 1500, headersMs: 1000, keepAliveMs: 1000, shutdownMs: 1000 } },
    { optimizer: null }
  );
});
afterAll(async () => s.stop());

function port(): number {
  return Number(new URL(s.url).port);
}

/**
 * Opens a raw connection, writes `head`, then one byte every `everyMs` for ever; resolves when the
 * connection closes. The client never ends it, so `byServer` says whether the server cut it off
 * (no wall-clock bound: a slow machine only makes the test take longer).
 */
function trickle(head: string, everyMs: number): Promise<{ byServer: boolean; received: string }> {
  return new Promise((resolve) => {
    let received = "";
    let byServer = true;
    const socket = net.connect(port(), "127.0.0.1", () => socket.write(head));
    const timer = setInterval(() => {
      if (!socket.destroyed) socket.write("a");
    }, everyMs);
    socket.on("data", (d) => (received += d));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      resolve({ byServer, received });
    });
    // Safety net for the test itself: never hang past 60 s (and then the test fails).
    setTimeout(() => {
      byServer = false;
      socket.destroy();
    }, 60_000).unref();
  });
}

describe("slow clients", () => {
  test("a body trickling in is cut off after the request timeout", async () => {
    const key = (await s.account()).key;
    const head = `POST ${BATCH} HTTP/1.1\r\nHost: x\r\nx-api-key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"requests":[`;
    const r = await trickle(head, 100);
    // requestMs is 1.5 s here (30 s by default): the server ends the trickle with 408.
    expect(r.byServer).toBe(true);
    expect(r.received).toMatch(/^HTTP\/1\.1 408/);
  }, 90_000);

  test("headers trickling in are cut off too", async () => {
    const r = await trickle(`GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: `, 100);
    expect(r.byServer).toBe(true);
    expect(r.received).not.toMatch(/^HTTP\/1\.1 200/);
  }, 90_000);

  test("an early 401 closes the connection instead of waiting for the body", async () => {
    const head = `POST ${BATCH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
    const r = await trickle(head, 100);
    expect(r.byServer).toBe(true);
    expect(r.received).toMatch(/^HTTP\/1\.1 401/);
    expect(r.received.toLowerCase()).toContain("connection: close");
    // Closed right after the 401: had the server waited for the body, its request timeout would
    // have answered a second time (408) on the same connection.
    expect(r.received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  }, 90_000);

  test("parser errors answer problem+json", async () => {
    const r = await trickle("GARBAGE\r\n\r\n", 10_000);
    expect(r.received).toMatch(/^HTTP\/1\.1 400/);
    expect(r.received).toContain("application/problem+json");
    expect(JSON.parse(r.received.split("\r\n\r\n")[1]).title).toBe("Incorrect Values");
  });
});

describe("hostile input", () => {
  test("repeated __proto__ and constructor query keys are refused, never 500", async () => {
    const key = (await s.account()).key;
    for (const q of ["__proto__=a&__proto__=b", "constructor=x&constructor=y", "__proto__[x]=1"]) {
      // Dropped by the query parser, or not a parameter of the endpoint: a 400 naming it (issue
      // 31); never a 500.
      const res = await s.get(`${TRUCK}&${q}`, key);
      expect([200, 400]).toContain(res.status);
      const t = await s.get(`/route-information/api/terminals?terminalLocode=NLRTM&${q}`, key);
      expect(t.status).toBeLessThan(500);
    }
  });

  test('terminal name searches with "constructor" or "__proto__" words answer, never 500', async () => {
    const key = (await s.account()).key;
    for (const name of ["Constructor", "constructor terminal", "__proto__", "toString valueOf"]) {
      const res = await s.get(
        `/route-information/api/terminals?terminalLocode=NLRTM&terminalName=${encodeURIComponent(name)}`,
        key
      );
      expect([200, 204]).toContain(res.status);
    }
  });

  test('a terminal named "Constructor …" matches like any name (its words once reached Object.prototype)', () => {
    const { matchScore, prepareName, prepareQuery } =
      require("../../src/engine/places/name-match") as typeof import("../../src/engine/places/name-match");
    const name = prepareName("Constructor Valueof Terminal");
    expect(matchScore(prepareQuery("constr"), name)).toBeGreaterThan(0);
    expect(matchScore(prepareQuery("toString"), name)).toBe(0);
    // Repeated words count once; a flood of words is capped.
    const many = prepareQuery(Array.from({ length: 500 }, (_, i) => `w${i} terminal`).join(" "));
    expect(many.tokens.length).toBeLessThanOrEqual(8);
    expect(prepareQuery("terminal terminal terminal").tokens).toHaveLength(1);
  });

  test("a key in the query string is refused (400) and redacted from logs", async () => {
    const { key } = await s.account();
    for (const q of [`x-api-key=${key}`, `apiKey=${key}`, `note=${key}`]) {
      const p = await problemOf(await s.get(`${TRUCK}&${q}`, key));
      expect(p.status).toBe(400);
      expect(p.detail).toMatch(/x-api-key request header/);
      expect(p.detail).not.toContain(key);
    }
    expect(redactKeys(`/x?key=${key}&a=1`)).toBe("/x?key=rs_[REDACTED]&a=1");
  });
});

describe("HTTP semantics", () => {
  test("HEAD on GET routes answers the headers without a body", async () => {
    const res = await fetch(s.url + "/health", { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
  });

  test("other methods on known paths: 405 with Allow", async () => {
    const key = (await s.account()).key;
    const res = await fetch(s.url + TRUCK, { method: "DELETE", headers: { "x-api-key": key } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toMatch(/GET/);
    const p = await problemOf(res);
    expect(p.detail).toMatch(/allowed methods/);
    const put = await fetch(s.url + BATCH, { method: "PUT" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST");
  });
});

describe("locked database", () => {
  test("another process holding the write lock → 503 with Retry-After, quickly", async () => {
    const dataDir = tempDir();
    const store = SqliteStore.open(dataDir, { busyTimeoutMs: 100 });
    const srv = await startTestServerOn(store, dataDir);
    try {
      const { key } = await srv.account();
      const other = new Database(path.join(dataDir, "service.db"));
      other.exec("BEGIN EXCLUSIVE");
      const res = await srv.get(TRUCK, key);
      other.exec("ROLLBACK");
      other.close();
      const p = await problemOf(res);
      expect(p.status).toBe(503);
      // A 503 at all (not a request waiting for the lock) shows the short busy timeout applied.
      expect(res.headers.get("retry-after")).toBe("1");
      expect((await srv.get(TRUCK, key)).status).toBe(200);
    } finally {
      await srv.stop();
    }
  });
});

async function startTestServerOn(store: SqliteStore, dataDir: string) {
  const { createAccountWithKey } = await import("../../src/service/accounts");
  const { startQuietService } = await import("./support");
  const { running } = await startQuietService({ dataDir, store, optimizer: null });
  return {
    account: () => createAccountWithKey(store, { credits: 10 }),
    get: (p: string, key: string) => fetch(running.url + p, { headers: { "x-api-key": key } }),
    async stop() {
      await running.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe("Idempotency-Key on batch", () => {
  const body = {
    requests: [
      { type: "distance", origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" },
      { type: "distance", origin: "NLRTM", destination: "BEANR", modality: "TRUCK" },
    ],
  };
  const post = (key: string, idem: string | undefined, b: unknown = body) =>
    fetch(s.url + BATCH, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-api-key": key,
        ...(idem ? { "idempotency-key": idem } : {}),
      },
      body: JSON.stringify(b),
    });

  test("a retry returns the first answer and is not charged again", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const first = await post(key, "order-42");
    expect(first.status).toBe(200);
    const firstText = await first.text();
    const again = await post(key, "order-42");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstText);
    expect((await s.store.accountState(account.id))!.credits).toBe(8);
    // Without the header, the same body is a new request.
    await post(key, undefined);
    expect((await s.store.accountState(account.id))!.credits).toBe(6);
  });

  test("the same key with another body is 400; keys are per API key; bad header 400", async () => {
    const a = await s.account({ credits: 10 });
    const b = await s.account({ credits: 10 });
    await post(a.key, "k1");
    const other = await problemOf(await post(a.key, "k1", { requests: [body.requests[0]] }));
    expect(other.status).toBe(400);
    expect(other.detail).toMatch(/Idempotency-Key/);
    expect((await post(b.key, "k1")).headers.get("idempotent-replayed")).toBeNull();
    expect((await s.store.accountState(b.account.id))!.credits).toBe(8);
    const bad = await problemOf(await post(a.key, "x".repeat(300)));
    expect(bad.detail).toMatch(/Idempotency-Key/);
  });
});

describe("CLI numbers and files", () => {
  beforeAll(() => requireBuild());

  test("credits add 1e19 and --credits 1e19 are refused; safe integers pass", () => {
    const dir = tempDir();
    try {
      const key = createKey(dir, ["--credits", "5"]);
      expect(() => cli(["credits", "add", key, "1e19", "--data-dir", dir])).toThrow(/whole number/);
      expect(() => cli(["credits", "add", key, "10000000000000000000", "--data-dir", dir])).toThrow(
        /whole number/
      );
      expect(() => cli(["keys", "create", "--data-dir", dir, "--credits", "1e19"])).toThrow(
        /whole number/
      );
      expect(() => cli(["keys", "create", "--data-dir", dir, "--rate-limit", "0"])).toThrow(/> 0/);
      expect(() => cli(["keys", "create", "--data-dir", dir, "--burst", "Infinity"])).toThrow(
        /≥ 1/
      );
      expect(cli(["credits", "add", key, "7", "--data-dir", dir])).toMatch(/balance 12/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("serve --config refuses non-positive or infinite rate limits and budgets", () => {
    const { readConfigFile } =
      require("../../src/service/config") as typeof import("../../src/service/config");
    const dir = tempDir();
    const file = path.join(dir, "c.json");
    for (const [text, msg] of [
      ['{"rateLimit": {"perSecond": 0, "burst": 10}}', /rateLimit.perSecond/],
      ['{"rateLimit": {"perSecond": 5, "burst": 1e999}}', /rateLimit.burst/],
      ['{"optimizer": {"budgetMs": -1}}', /optimizer.budgetMs/],
    ] as const) {
      fs.writeFileSync(file, text);
      expect(() => readConfigFile(file)).toThrow(msg);
    }
    fs.writeFileSync(file, '{"optimizer": {"budgetMs": 2500}}');
    expect(readConfigFile(file).optimizer).toEqual({ budgetMs: 2500 });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("data directory 0700 and service.db*, local-api-key 0600, also when they existed looser", async () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, "local-api-key"), "rs_x\n", { mode: 0o644 });
    const first = SqliteStore.open(dir);
    await first.close();
    fs.chmodSync(path.join(dir, "service.db"), 0o644);
    const store = SqliteStore.open(dir);
    try {
      expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
      for (const f of fs
        .readdirSync(dir)
        .filter((f) => f.startsWith("service.db") || f === "local-api-key"))
        expect([f, fs.statSync(path.join(dir, f)).mode & 0o777]).toEqual([f, 0o600]);
    } finally {
      await store.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
