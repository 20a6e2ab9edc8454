/**
 * `serve` is the production command and `start` is serve with local defaults (issue 30.1): both
 * take the same flags, from one option table, and `serve --help` documents every --config
 * setting (issue 31: optimizer, timeouts, idempotency, connections included).
 */
import { execFileSync } from "node:child_process";
import { configSettingsHelp } from "../../src/service/config";
import { BIN, requireBuild, ROOT } from "../service/child";

const help = (command: string) =>
  execFileSync(process.execPath, [BIN, command, "--help"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, COLUMNS: "200" },
  });

/** The long flags a command's help lists. */
const flags = (text: string) =>
  [...text.split("Settings of --config")[0].matchAll(/^\s+(?:-\w, )?(--[a-z-]+)/gm)]
    .map((m) => m[1])
    .sort();

beforeAll(() => requireBuild());

test("serve and start take the same flags, the deployment ones included", () => {
  const serve = flags(help("serve"));
  expect(flags(help("start"))).toEqual(serve);
  for (const flag of [
    "--public-url",
    "--addin-id",
    "--addin-name",
    "--database",
    "--redis",
    "--trust-proxy",
    "--config",
    "--cors-origin",
  ])
    expect(serve).toContain(flag);
});

test("serve --help lists every --config setting with its default", () => {
  const text = help("serve");
  const settings = configSettingsHelp();
  for (const name of [
    "optimizer.budgetMs",
    "optimizer.threads",
    "optimizer.queuePerThread",
    "optimizer.perKeySearches",
    "timeouts.requestMs",
    "timeouts.headersMs",
    "timeouts.keepAliveMs",
    "timeouts.shutdownMs",
    "timeouts.tlsHandshakeMs",
    "idempotency.maxBytesPerKey",
    "idempotency.purgeEveryMs",
    "maxConnections",
    "maxConnectionsPerIp",
    "connectionsKeptForNewAddresses",
    "costs.distance",
    "rateLimit.perSecond",
  ])
    expect(settings.some((line) => line.startsWith(`${name}:`))).toBe(true);
  for (const line of settings) expect(text).toContain(line);
  expect(text).toContain("timeouts.requestMs: request timeout (ms); integer 1–2147483647 [30000]");
});
