/** The exact CLI contract: keys create / deactivate, credits add, usage, serve --help. */
import { cli, createKey, kill, requireBuild, serve } from "./child";
import { tempDir } from "./support";

beforeAll(() => requireBuild());

test("keys create prints the key alone on the last line; deactivate → 403 Inactive; credits add; usage hides keys", async () => {
  const dataDir = tempDir();
  const out = cli([
    "keys",
    "create",
    "--data-dir",
    dataDir,
    "--name",
    "acme",
    "--tier",
    "paid",
    "--credits",
    "1",
    "--optimizer",
    "--optimizer-credits",
    "2",
    "--rate-limit",
    "100",
  ]);
  const lines = out.trimEnd().split("\n");
  const key = lines[lines.length - 1];
  expect(key).toMatch(/^rs_[A-Za-z0-9_-]{43}$/);
  expect(lines.length).toBeGreaterThan(1);
  const other = createKey(dataDir, ["--name", "other", "--tier", "free"]);

  const server = await serve(dataDir);
  const call = (k: string) =>
    fetch(
      `${server.url}/route-information/api/distance?origin=NLRTM&destination=DEHAM&modality=TRUCK`,
      { headers: { "x-api-key": k } }
    );
  try {
    expect((await call(key)).status).toBe(200);
    expect((await call(key)).status).toBe(402);
    expect(cli(["credits", "add", "--data-dir", dataDir, key, "5"])).toMatch(/balance 5/);
    expect((await call(key)).status).toBe(200);
    expect(cli(["credits", "add", "--data-dir", dataDir, key, "3", "--optimizer"])).toMatch(
      /route-optimizer.*balance 5/
    );

    cli(["keys", "deactivate", "--data-dir", dataDir, key]);
    const res = await call(key);
    expect(res.status).toBe(403);
    expect((await res.json()).title).toBe("Inactive");
    expect((await call(other)).status).toBe(200);
  } finally {
    await kill(server.child, "SIGTERM");
  }

  const usage = cli(["usage", "--data-dir", dataDir]);
  expect(usage).not.toContain(key);
  expect(usage).not.toContain(other);
  expect(usage).toContain(key.slice(0, 8));
  const acme = usage.split("\n").find((l) => l.includes("acme"))!;
  // calls 2, credits used 2, left 4 (1 + 5 − 2), optimizer 0 calls, 5 left.
  expect(acme.split(/\s{2,}/).slice(2)).toEqual([
    "acme",
    "paid",
    "no",
    "2",
    "2",
    "4",
    "0",
    "0",
    "5",
  ]);
  const json = JSON.parse(cli(["usage", "--data-dir", dataDir, "--json"]));
  expect(json).toHaveLength(2);
}, 60_000);

test("serve --help documents the defaults", () => {
  const help = cli(["serve", "--help"]);
  expect(help).toMatch(/--port <port>.*default: 3000/s);
  expect(help).toMatch(/--host <host>.*default: "127.0.0.1"/s);
  expect(help).toMatch(/--data-dir <dir>.*default: ".\/.route-sheets"/s);
  expect(help).toMatch(/--tls/);
});

test("serve --tls without certificates fails with a clear message", () => {
  let message = "";
  try {
    cli(["serve", "--tls", "--port", "0", "--data-dir", tempDir(), "--cert", "/nonexistent.crt"]);
  } catch (e) {
    message = String((e as { stderr?: string }).stderr);
  }
  expect(message).toMatch(/--cert and --key must be given together/);
});

test("keys create --optimizer without --optimizer-credits grants the documented default (100); --optimizer-credits alone is refused", () => {
  const dataDir = tempDir();
  const out = cli(["keys", "create", "--data-dir", dataDir, "--optimizer"]);
  expect(out).toMatch(/route-optimizer access with 100 credits/);
  expect(
    cli(["keys", "create", "--data-dir", dataDir, "--optimizer", "--optimizer-credits", "0"])
  ).toMatch(/route-optimizer access with 0 credits/);
  expect(cli(["keys", "create", "--data-dir", dataDir])).toMatch(/route-optimizer no access/);
  expect(() => cli(["keys", "create", "--data-dir", dataDir, "--optimizer-credits", "5"])).toThrow(
    /--optimizer-credits needs --optimizer/
  );
  expect(() => cli(["keys", "create", "--data-dir", dataDir, "--burst", "0.5"])).toThrow(
    /--burst must be a number ≥ 1/
  );
  expect(cli(["keys", "create", "--help"]).replace(/\s+/g, " ")).toMatch(
    /with 100 route-optimizer credits unless --optimizer-credits/
  );
});
