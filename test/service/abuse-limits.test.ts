/**
 * Issue 21: what one client could take from the others, each against the real server on loopback
 * with real sockets. H2 (Idempotency-Key storage), M1 (connection slots: per-IP cap, TLS
 * handshakes), M2 (request ids only from trusted proxies) and the low findings (nested JSON, keys
 * in logs, config bounds, the pane's headers).
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { PassThrough } from "node:stream";
import { checkConfig, MAX_TIMER_MS } from "../../src/service/config";
import { MAX_ECHO } from "../../src/service/plugins/problem";
import { throwawayCertificate } from "../support/certificate";
import { closedByServer, connect, rawGet, requestOver } from "../support/raw-http";
import {
  problemOf,
  startQuietService,
  startTestServer,
  tempDir,
  TestServer,
  until,
} from "./support";

const BATCH = "/route-information/api/batch";
const DIST = "/route-information/api/distance";
const TRUCK = `${DIST}?origin=NLRTM&destination=DEHAM&modality=TRUCK`;
const GOOD = { type: "distance", origin: "NLRTM", destination: "DEHAM", modality: "TRUCK" };

function postBatch(s: TestServer, key: string, body: unknown, idem?: string): Promise<Response> {
  return fetch(s.url + BATCH, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      ...(idem ? { "idempotency-key": idem } : {}),
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

function storedAnswers(s: TestServer): number {
  const db = new Database(path.join(s.dataDir, "service.db"), { readonly: true });
  try {
    return db.prepare("SELECT COUNT(*) FROM idempotency_keys").pluck().get() as number;
  } finally {
    db.close();
  }
}

describe("H2: Idempotency-Key storage", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ idempotency: { maxBytesPerKey: 4000 } }, { optimizer: null });
  });
  afterAll(async () => s.stop());

  test("an answer that charged nothing is not stored: a retry runs again (free), nothing kept", async () => {
    const { key, keyId } = await s.account({ credits: 0, tier: "free" });
    const failing = { requests: Array.from({ length: 50 }, () => ({ ...GOOD, origin: "XXXXX" })) };
    const first = await postBatch(s, key, failing, "free-1");
    expect(first.status).toBe(200);
    const again = await postBatch(s, key, failing, "free-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(await again.json()).toEqual(await first.json());
    expect(await s.store.idempotencyBytes(keyId, Date.now())).toBe(0);
  });

  test("an answer that charged is stored and replayed, also for a body with its keys reordered", async () => {
    const { key, account } = await s.account({ credits: 10 });
    const body = { requests: [GOOD] };
    const first = await postBatch(s, key, body, "paid-1");
    expect(first.status).toBe(200);
    // The same JSON with the keys in another order (another client library's serializer).
    const reordered = `{"requests":[{"modality":"TRUCK","destination":"DEHAM","origin":"NLRTM","type":"distance"}]}`;
    const again = await postBatch(s, key, reordered, "paid-1");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(await first.text());
    expect((await s.store.accountState(account.id))!.credits).toBe(9);
    // Another body under the same key is still refused.
    const other = await postBatch(s, key, { requests: [{ ...GOOD, modality: "RAIL" }] }, "paid-1");
    expect((await problemOf(other)).detail).toMatch(/Idempotency-Key/);
  });

  test("stored bytes per API key are capped: past idempotency.maxBytesPerKey, 429 with Retry-After", async () => {
    const { key, keyId } = await s.account({ credits: 1000 });
    const body = { requests: Array.from({ length: 10 }, () => GOOD) };
    const statuses: number[] = [];
    for (let i = 0; i < 20 && !statuses.includes(429); i++)
      statuses.push((await postBatch(s, key, body, `cap-${i}`)).status);
    expect(statuses.at(-1)).toBe(429);
    const stored = await s.store.idempotencyBytes(keyId, Date.now());
    const answerBytes = Buffer.byteLength(await (await postBatch(s, key, body)).text());
    // Refused before the cap is passed: an answer is admitted with room for its items' 402s
    // (each debit may still be refused), so the last stored one may leave some room below it.
    expect(stored).toBeLessThanOrEqual(4000);
    expect(stored % answerBytes).toBe(0);
    expect(stored).toBeGreaterThanOrEqual(2 * answerBytes);
    const refused = await postBatch(s, key, body, "cap-last");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await problemOf(refused)).detail).toMatch(/Idempotency-Key/);
    // Without Idempotency-Key the key still gets its answers.
    expect((await postBatch(s, key, body)).status).toBe(200);
  });

  test("40 concurrent charged batches against a 2,000-byte cap store at most 2,000 bytes; a refused batch is not charged", async () => {
    const capped = await startTestServer(
      { idempotency: { maxBytesPerKey: 2000 } },
      { optimizer: null }
    );
    try {
      const { key, keyId, account } = await capped.account({ credits: 1000 });
      const body = { requests: Array.from({ length: 3 }, () => GOOD) };
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) => postBatch(capped, key, body, `at-once-${i}`))
      );
      const statuses = answers.map((a) => a.status);
      expect(new Set(statuses)).toEqual(new Set([200, 429]));
      const stored = await capped.store.idempotencyBytes(keyId, Date.now());
      expect(stored).toBeLessThanOrEqual(2000);
      // What the counter holds is exactly the answers stored.
      const db = new Database(path.join(capped.dataDir, "service.db"), { readonly: true });
      try {
        expect(
          db
            .prepare(
              "SELECT COALESCE(SUM(length(CAST(body AS BLOB))), 0) FROM idempotency_keys WHERE key_id = ?"
            )
            .pluck()
            .get(keyId)
        ).toBe(stored);
      } finally {
        db.close();
      }
      // Only the 200 answers were charged (3 items each).
      const ok = statuses.filter((x) => x === 200).length;
      expect((await capped.store.accountState(account.id))!.credits).toBe(1000 - 3 * ok);
    } finally {
      await capped.stop();
    }
  });

  test("problem details echo at most 64 characters of any value (GET and batch), whatever it holds", async () => {
    const { key } = await s.account({ credits: 1_000_000 });
    const long = fc
      .tuple(
        fc.string({ minLength: 1, maxLength: 3 }),
        fc.fullUnicodeString({ minLength: 65, maxLength: 400 })
      )
      .map(([a, b]) => a + b)
      .filter((v) => v.trim().length > MAX_ECHO && !/[\r\n]/.test(v));
    await fc.assert(
      fc.asyncProperty(
        long,
        fc.constantFrom("origin", "vesselInfo", "modality"),
        async (v, name) => {
          const probe = Array.from(v.trim())
            .slice(0, MAX_ECHO + 1)
            .join("");
          const get = await s.get(
            `${DIST}?origin=NLRTM&destination=DEHAM&modality=TRUCK&${name}=${encodeURIComponent(v)}`,
            key
          );
          if (get.status >= 400) expect((await problemOf(get)).detail).not.toContain(probe);
          const batch = await postBatch(s, key, { requests: [{ ...GOOD, [name]: v }] });
          const item = (await batch.json()).results[0];
          if (item.status >= 400) expect(item.body.detail).not.toContain(probe);
        }
      ),
      { numRuns: 40, seed: 21 }
    );
  });

  test("1,000 failing items with long values store nothing and answer far less than they send", async () => {
    const { key } = await s.account({ credits: 0, tier: "free" });
    const bad = "Z".repeat(480);
    const body = JSON.stringify({
      requests: Array.from({ length: 1000 }, () => ({ ...GOOD, origin: bad })),
    });
    const before = storedAnswers(s);
    const res = await postBatch(s, key, body, "big-failing");
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(text)).toBeLessThan(Buffer.byteLength(body));
    expect(storedAnswers(s)).toBe(before);
  });
});

test("H2: expired Idempotency-Keys are purged on a schedule, without any new request", async () => {
  const s = await startTestServer({ idempotency: { purgeEveryMs: 50 } }, { optimizer: null });
  try {
    const { keyId } = await s.account();
    // A record that expired an hour ago (claimed and answered 25 hours ago).
    const then = Date.now() - 25 * 3600_000;
    await s.store.claimIdempotencyKey(keyId, "old", "f", {
      now: then,
      ttlMs: 24 * 3600_000,
      leaseMs: 1,
    });
    await s.store.completeIdempotencyKey(keyId, "old", 200, '{"results":[]}');
    expect(storedAnswers(s)).toBe(1);
    await until(() => storedAnswers(s) === 0);
    expect(storedAnswers(s)).toBe(0);
  } finally {
    await s.stop();
  }
});

describe("low findings", () => {
  let s: TestServer;
  const logs = new PassThrough();
  let logText = "";
  logs.on("data", (d) => (logText += d));
  beforeAll(async () => {
    s = await startTestServer(
      { logLevel: "info", logRequests: true },
      { optimizer: null, logStream: logs }
    );
  });
  afterAll(async () => s.stop());

  test("deeply nested JSON in a batch answers 400 naming the limit, not 500", async () => {
    const { key } = await s.account();
    for (const depth of [100, 10_000, 200_000]) {
      const body = `{"requests":[${"[".repeat(depth)}${"]".repeat(depth)}]}`;
      const res = await postBatch(s, key, body);
      const p = await problemOf(res);
      expect(p.status).toBe(400);
      expect(p.detail).toMatch(/nested deeper than \d+ levels/);
    }
    // Strings with brackets are not nesting.
    const fine = await postBatch(s, key, { requests: [{ ...GOOD, vesselInfo: "[".repeat(500) }] });
    expect(fine.status).toBe(200);
  });

  test("keys in URLs never reach the logs: upper case, percent-encoded, fully encoded", async () => {
    const { key } = await s.account();
    const random = key.slice(3);
    const forms = [
      `RS_${random}`,
      `rs%5F${random}`,
      `rs%5f${random}`,
      `%72%73%5F${random}`,
      `rs_${encodeURIComponent(random).replace(/-/g, "%2D")}`,
    ];
    for (const form of forms) await s.get(`${TRUCK}&note=${form}`, key);
    await new Promise((r) => setImmediate(r));
    expect(logText).toContain("rs_[REDACTED]");
    expect(logText).not.toContain(random.slice(0, 16));
    expect(logText.toLowerCase()).not.toContain(random.slice(0, 16).toLowerCase());
  });

  test("X-Content-Type-Options: nosniff on API answers; no HSTS over plain HTTP", async () => {
    const res = await s.get("/health");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("configuration bounds", () => {
  test("a burst below 1 is refused (it would limit a key for ever)", () => {
    expect(() => checkConfig({ rateLimit: { perSecond: 5, burst: 0.5 } })).toThrow(
      /rateLimit\.burst must be a number ≥ 1/
    );
    expect(() => checkConfig({ rateLimit: { perSecond: 5, burst: 1 } })).not.toThrow();
  });

  test("timeouts over Node's timer limit (2^31 − 1 ms) are refused, naming the setting", () => {
    for (const group of ["timeouts", "optimizer", "idempotency"] as const) {
      const name = { timeouts: "requestMs", optimizer: "budgetMs", idempotency: "purgeEveryMs" }[
        group
      ];
      expect(() => checkConfig({ [group]: { [name]: 1e12 } })).toThrow(
        new RegExp(`${group}\\.${name} must be a whole number ≥ 1 ≤ ${MAX_TIMER_MS}`)
      );
      expect(() => checkConfig({ [group]: { [name]: MAX_TIMER_MS } })).not.toThrow();
    }
  });

  test("unknown settings name the allowed ones; the new limits are settings", () => {
    expect(() => checkConfig({ optimizer: { budget: 5 } })).toThrow(
      /optimizer\.budget is not a setting; allowed: budgetMs, threads, queuePerThread, perKeySearches/
    );
    expect(() =>
      checkConfig({
        maxConnectionsPerIp: 10,
        timeouts: { tlsHandshakeMs: 3000 },
        idempotency: { maxBytesPerKey: 1e6 },
        optimizer: { perKeySearches: 3, queuePerThread: 4 },
      })
    ).not.toThrow();
  });

  test("a key's own rate below 0.5/s still gets a bucket of one request", async () => {
    const { effectiveRateLimit } =
      require("../../src/service/plugins/guard") as typeof import("../../src/service/plugins/guard");
    const limit = effectiveRateLimit({ ratePerSecond: 0.1, burst: null } as never, {
      perSecond: 50,
      burst: 100,
    });
    expect(limit.burst).toBeGreaterThanOrEqual(1);
  });
});

describe("M1: connection slots", () => {
  test("HTTP: at most maxConnectionsPerIp connections per address; one more is closed, a freed slot is reusable", async () => {
    const s = await startTestServer({ maxConnectionsPerIp: 5 }, { optimizer: null });
    const port = Number(new URL(s.url).port);
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 5; i++) open.push(await connect(port));
      const extra = await connect(port).catch(() => null);
      if (extra) {
        open.push(extra);
        expect(await requestOver(extra, "/health")).toBeNull();
      }
      // The five admitted ones still work.
      expect(await requestOver(open[0], "/health")).toBe(200);
      // A slot freed is a slot available again.
      const gone = closedByServer(open[1]);
      open[1].destroy();
      await gone;
      let again: number | null = null;
      for (let tries = 0; again === null; tries++) {
        if (tries > 100) throw new Error("no connection admitted again");
        const socket = await connect(port).catch(() => null);
        if (socket) open.push(socket);
        again = socket ? await requestOver(socket, "/health") : null;
      }
      expect(again).toBe(200);
    } finally {
      for (const o of open) o.destroy();
      await s.stop();
    }
  });

  describe("HTTPS", () => {
    const dir = tempDir();
    const cert = throwawayCertificate(dir);
    afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

    async function startTls(config: Record<string, unknown>) {
      const { running, store } = await startQuietService({ optimizer: null, tls: cert, config });
      return {
        port: Number(new URL(running.url).port),
        async stop() {
          await running.close();
          await store.close();
        },
      };
    }

    test("a connection that never sends a ClientHello is closed after tlsHandshakeMs", async () => {
      const s = await startTls({ timeouts: { tlsHandshakeMs: 200 } });
      try {
        const silent = await Promise.all([connect(s.port), connect(s.port), connect(s.port)]);
        // The client never ends them: only the server's handshake timeout can.
        expect(await Promise.all(silent.map(closedByServer))).toEqual([true, true, true]);
        // A real client completes its handshake and is answered (not cut off).
        const res = (await rawGet(`https://127.0.0.1:${s.port}`, "/health")).text;
        expect(res).toMatch(/^HTTP\/1\.1 200/);
        expect(res.toLowerCase()).toContain("strict-transport-security: max-age=");
      } finally {
        await s.stop();
      }
    });

    test("the per-IP cap counts TLS connections at accept, before any handshake", async () => {
      const s = await startTls({ maxConnectionsPerIp: 3, timeouts: { tlsHandshakeMs: 60_000 } });
      const open: net.Socket[] = [];
      try {
        for (let i = 0; i < 3; i++) open.push(await connect(s.port));
        const extra = await connect(s.port).catch(() => null);
        if (extra) {
          open.push(extra);
          expect(await closedByServer(extra)).toBe(true);
        }
        // The three admitted silent sockets are still open (their handshake time is not over).
        expect(open.slice(0, 3).every((o) => !o.destroyed)).toBe(true);
      } finally {
        for (const o of open) o.destroy();
        await s.stop();
      }
    });
  });
});

describe("M2: request ids only from trusted proxies", () => {
  async function serve(trustProxy: string[]) {
    const { running, store } = await startQuietService({
      optimizer: null,
      requestIdHeader: "x-request-id",
      trustProxy,
    });
    const { createAccountWithKey } = await import("../../src/service/accounts");
    const a = await createAccountWithKey(store, { credits: 100 });
    return {
      get: (id: string) =>
        fetch(running.url + TRUCK, { headers: { "x-api-key": a.key, "x-request-id": id } }),
      credits: async () => (await store.accountState(a.account.id))!.credits,
      async stop() {
        await running.close();
        await store.close();
      },
    };
  }

  test("from an address that is not a trusted proxy the header is ignored: each call is charged", async () => {
    const s = await serve(["10.0.0.0/8", "192.168.1.1"]);
    try {
      const answers = await Promise.all([s.get("replayed-id-1"), s.get("replayed-id-1")]);
      for (const r of answers) {
        expect(r.status).toBe(200);
        expect(r.headers.get("request-id")).not.toBe("replayed-id-1");
      }
      expect(await s.credits()).toBe(98);
    } finally {
      await s.stop();
    }
  });

  test("from a trusted proxy (--trust-proxy 127.0.0.1/32) the id is used", async () => {
    const s = await serve(["127.0.0.1/32"]);
    try {
      const first = await s.get("retried-id-1");
      const retry = await s.get("retried-id-1");
      // The balancer's id is the request's id (PostgreSQL charges a request id once: see
      // test/store's "a request id is charged once").
      expect(first.headers.get("request-id")).toBe("retried-id-1");
      expect(retry.headers.get("request-id")).toBe("retried-id-1");
    } finally {
      await s.stop();
    }
  });

  test("a malformed --trust-proxy is refused naming the flag", async () => {
    await expect(serve(["10.0.0.0/99"])).rejects.toThrow(/--trust-proxy/);
    await expect(serve(["example.com"])).rejects.toThrow(/--trust-proxy/);
  });

  test("docs/deploy.md: the default systemd unit trusts a request-id header only from the proxy on loopback", () => {
    const doc = fs.readFileSync(path.join(__dirname, "..", "..", "docs", "deploy.md"), "utf8");
    const unit = doc.match(/```ini\n\[Unit\]\nDescription=Route Sheets instance[\s\S]*?```/)![0];
    // The header is believed from the trusted proxies only: the unit names nginx's address alone.
    if (/--request-id-header/.test(unit))
      expect(unit.match(/--trust-proxy (\S+)/)?.[1]).toBe("127.0.0.1/32");
  });
});
