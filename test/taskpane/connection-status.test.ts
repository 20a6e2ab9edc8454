/**
 * "Test connection" against the real service on 127.0.0.1 (real SQLite accounts), through the real
 * RouteApiClient: what each kind of key is told, and that the checks spend no credits.
 */
import { RouteApiClient } from "../../src/client/api-client";
import { ApiError } from "../../src/client/errors";
import { checkConnection, describeProblem } from "../../src/taskpane/connection-status";
import { startTestServer, TestServer } from "../service/support";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.stop();
});

function probeFor(baseUrl: string, apiKey: string) {
  return new RouteApiClient({
    settings: { get: async () => ({ baseUrl, apiKey }) },
    maxRetries: 0,
    deadlineMs: 5000,
  });
}
async function check(apiKey: string, baseUrl = server.url) {
  const report = await checkConnection(probeFor(baseUrl, apiKey), baseUrl, apiKey);
  return { ...report, byId: Object.fromEntries(report.checks.map((c) => [c.id, c])) };
}

test("a paid key with optimizer access: everything works, and no credit is spent", async () => {
  const acct = await server.account({ credits: 5, optimizerAccess: true, optimizerCredits: 3 });
  const r = await check(acct.key);
  expect(r.checks.map((c) => [c.id, c.ok])).toEqual([
    ["service", true],
    ["key", true],
    ["credits", true],
    ["optimizer", true],
    ["optimizerCredits", true],
  ]);
  expect(r.ok).toBe(true);
  expect(r.summary).toBe("Connected: everything works.");
  expect(r.byId.service.message).toBe(`Service reachable at ${server.url}.`);
  expect(r.byId.optimizer.message).toMatch(/^Route-optimizer access granted \(\d+ operators\)\.$/);
  const state = await server.store.accountState(acct.account.id);
  expect([state!.credits, state!.optimizerCredits]).toEqual([5, 3]);
});

test("no key, an unknown key, an inactive account", async () => {
  const none = await check("");
  expect(none.byId.service.ok).toBe(true);
  expect(none.byId.key).toMatchObject({
    ok: false,
    message: "No API key entered: paste your key above.",
  });

  const bad = await check("rs_this-key-does-not-exist");
  expect(bad.byId.key.ok).toBe(false);
  expect(bad.byId.key.message).toMatch(/^The API key is not valid/);
  expect(bad.byId.optimizer.ok).toBeNull();

  const acct = await server.account({ credits: 5 });
  await server.store.setActive(acct.account.id, false);
  const inactive = await check(acct.key);
  expect(inactive.byId.key).toMatchObject({ ok: false });
  expect(inactive.byId.key.message).toMatch(/inactive/);
  expect(inactive.summary).toMatch(/inactive/);
});

test("a key without optimizer access, and one out of credits", async () => {
  const plain = await server.account({ credits: 5, optimizerAccess: false });
  const r = await check(plain.key);
  expect(r.byId.key.ok).toBe(true);
  expect(r.byId.credits.ok).toBe(true);
  expect(r.byId.optimizer.ok).toBe(false);
  expect(r.byId.optimizer.message).toMatch(/^No route-optimizer access: ask the service operator/);
  expect(r.summary).toBe(r.byId.optimizer.message);

  const broke = await server.account({ credits: 0, optimizerAccess: true, optimizerCredits: 0 });
  const b = await check(broke.key);
  expect(b.byId.key.ok).toBe(true);
  expect(b.byId.credits.ok).toBe(false);
  expect(b.byId.credits.message).toMatch(/Out of credits/);
  expect(b.byId.optimizer.ok).toBe(true);
  expect(b.byId.optimizerCredits.ok).toBe(false);
  expect(b.byId.optimizerCredits.message).toMatch(/Out of credits/);

  const free = await server.account({
    tier: "free",
    credits: 5,
    optimizerAccess: true,
    optimizerCredits: 5,
  });
  const f = await check(free.key);
  expect(f.byId.key.ok).toBe(true);
  expect(f.byId.optimizer.ok).toBe(false);
  expect(f.byId.optimizer.message).toMatch(/not available to free accounts/);
});

test("an unreachable service is said so", async () => {
  const r = await check("rs_whatever", "http://127.0.0.1:9");
  expect(r.byId.service.ok).toBe(false);
  expect(r.byId.service.message).toMatch(/^Cannot reach the service at http:\/\/127\.0\.0\.1:9/);
  expect(r.checks.slice(1).every((c) => c.ok === null)).toBe(true);
});

test("plain messages by problem title", () => {
  expect(describeProblem(new ApiError(401, "No Key", "x-api-key missing"))).toBe(
    "No API key: enter your key under Connection and save it."
  );
  expect(
    describeProblem(new ApiError(402, "Over Limit", "the credits of this key are exhausted"))
  ).toBe("Out of credits. The credits of this key are exhausted.");
  expect(
    describeProblem(
      new ApiError(403, "Invalid Key", "This x-api-key has no route-optimizer access")
    )
  ).toMatch(/^This API key has no route-optimizer access\./);
  expect(describeProblem(new ApiError(429, "Too Many Requests", ""))).toMatch(/Too many requests/);
  expect(describeProblem(new ApiError(0, "Service Unavailable", "fetch failed"))).toBe(
    "The service cannot be reached. Fetch failed."
  );
});
