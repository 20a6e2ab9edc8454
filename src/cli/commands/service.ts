/**
 * Service commands: serve, keys create/deactivate, credits add, usage (start: ./start.ts). Exact flags are a contract (other tools call them).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAccountWithKey, findKey } from "../../service/accounts";
import { readConfigFile } from "../../service/config";
import { parseRoadEngine } from "../../data/osrm";
import { REDIS_FAIL_MODES } from "../../service/rate-limit/redis";
import {
  DEFAULT_DATA_DIR,
  DEFAULT_HOST,
  DEFAULT_PORT,
  openStore,
  startService,
} from "../../service/server";
import { Store, TIERS, Tier } from "../../service/store/store";
import { devCertDir } from "../../service/tls";

export function int(name: string, min = 0) {
  return (value: string): number => {
    const n = Number(value);
    // Safe integers only: 1e19 is an "integer" but not exact as a double, and corrupts balances.
    if (!/^\s*\+?\d+\s*$/.test(value) || !Number.isSafeInteger(n) || n < min)
      throw new InvalidArgumentError(
        `${name} must be a whole number from ${min} to ${Number.MAX_SAFE_INTEGER}.`
      );
    return n;
  };
}

/** Route-optimizer credits `keys create --optimizer` grants when --optimizer-credits is not given. */
export const DEFAULT_OPTIMIZER_CREDITS = 100;

/** A number ≥ 1 (a token bucket smaller than one token never lets a request through). */
function atLeastOne(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n < 1)
      throw new InvalidArgumentError(`${name} must be a number ≥ 1.`);
    return n;
  };
}

function positive(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isFinite(n) || n <= 0)
      throw new InvalidArgumentError(`${name} must be a number > 0.`);
    return n;
  };
}

export const dataDirOption = () =>
  new Option(
    "--data-dir <dir>",
    "data directory (SQLite database service.db, imported data)"
  ).default(DEFAULT_DATA_DIR);

/** The same on every command that touches accounts: PostgreSQL when given, else the SQLite file. */
export const databaseOption = () =>
  new Option(
    "--database <url>",
    "PostgreSQL URL (postgres://user:password@host:5432/db) shared by several instances; default: SQLite in --data-dir"
  ).env("DATABASE_URL");

async function withStore<T>(
  opts: { dataDir: string; database?: string },
  fn: (store: Store) => Promise<T>
): Promise<T> {
  const store = await openStore(opts);
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function keyOrFail(store: Store, key: string) {
  const found = await findKey(store, key);
  if (!found)
    throw new Error(
      `No such key: give the API key (rs_…) or its key id (key_…) as shown by "route-sheets usage".`
    );
  return found;
}

/** Stops cleanly on SIGINT/SIGTERM. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      if (closing) return;
      closing = true;
      close().then(
        () => process.exit(0),
        () => process.exit(1)
      );
    });
  }
}

const ROOT = path.resolve(__dirname, "..", "..", "..");

export function addinPaths() {
  return {
    addinDir: path.join(ROOT, "dist", "addin"),
    manifestFile: path.join(ROOT, "manifest.xml"),
  };
}

/** `--road-engine osrm=URL` (serve and start): TRUCK legs from an OSRM server. */
export function roadEngineOption(): Option {
  return new Option(
    "--road-engine <engine>",
    "osrm=URL: TRUCK legs from an OSRM server's HTTP route service (e.g. osrm=http://127.0.0.1:5000); answers say basis road network (OSRM), and the built-in estimate answers when OSRM does not"
  ).argParser((value) => {
    try {
      parseRoadEngine(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    return value;
  });
}

/** The add-in's files when `npm run build` has produced them. */
export function builtAddin() {
  const paths = addinPaths();
  return fs.existsSync(path.join(paths.addinDir, "taskpane.html")) ? paths : undefined;
}

export function register(program: Command): void {
  program
    .command("serve")
    .description(
      'Run the route service (HTTP API; also the built Excel add-in and /manifest.xml when npm run build has made dist/addin). Prints "Listening on <url>" on stdout once it accepts connections; logs go to stderr.'
    )
    .addOption(
      new Option("--port <port>", "TCP port; 0 picks a free one")
        .default(DEFAULT_PORT)
        .argParser(int("--port"))
    )
    .addOption(new Option("--host <host>", "interface to listen on").default(DEFAULT_HOST))
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .addOption(
      new Option(
        "--redis <url>",
        "Redis URL (redis://host:6379): rate limits shared by several instances; default: in memory"
      ).env("REDIS_URL")
    )
    .addOption(
      new Option("--redis-fail <mode>", "while Redis is unreachable: open (allow) or closed (429)")
        .choices([...REDIS_FAIL_MODES])
        .default("open")
    )
    .option(
      "--request-id-header <name>",
      "take request ids from this header set by the balancer (nginx: X-Request-Id $request_id) so a retried request is charged once; believed only from --trust-proxy addresses"
    )
    .option(
      "--trust-proxy <cidr>",
      "address or CIDR of a proxy in front (repeat it, or a comma list): only its requests' --request-id-header and X-Forwarded-For are believed; exempt from the per-IP connection cap",
      (value: string, previous: string[]) => [
        ...previous,
        ...value
          .split(",")
          .map((v) => v.trim())
          .filter(Boolean),
      ],
      [] as string[]
    )
    .option(
      "--tls",
      `HTTPS with the Office add-in dev certificates (${devCertDir()}/localhost.crt, localhost.key; create them with "npx office-addin-dev-certs install"), or --cert/--key`,
      false
    )
    .option("--cert <file>", "TLS certificate (PEM), with --tls")
    .option("--key <file>", "TLS private key (PEM), with --tls")
    .addOption(
      new Option("--log-level <level>", "log level")
        .choices(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
        .default("info")
    )
    .option("--no-request-log", "do not log one line per request")
    .option("--cors-origin <origins>", "allowed CORS origins: * or a comma-separated list", "*")
    .addOption(roadEngineOption())
    .option(
      "--config <file>",
      "JSON file of settings: costs {terminals, distance, emissions, path, optimizerSearch, operators}, rateLimit {perSecond, burst}, corsOrigins, corsMaxAgeSeconds, batchMaxItems"
    )
    .action(async (opts) => {
      const fileConfig = opts.config ? readConfigFile(opts.config) : {};
      const running = await startService({
        port: opts.port,
        host: opts.host,
        dataDir: opts.dataDir,
        database: opts.database,
        redis: opts.redis,
        redisFail: opts.redisFail,
        roadEngine: opts.roadEngine,
        requestIdHeader: opts.requestIdHeader,
        trustProxy: opts.trustProxy,
        tls: opts.tls ? { cert: opts.cert, key: opts.key } : false,
        logStream: process.stderr,
        // The built add-in is served too when it exists, so Excel can load it from this server.
        addin: builtAddin(),
        config: {
          ...fileConfig,
          logLevel: opts.logLevel,
          logRequests: opts.requestLog,
          ...(opts.corsOrigin !== "*" || !fileConfig.corsOrigins
            ? {
                corsOrigins:
                  opts.corsOrigin === "*"
                    ? "*"
                    : String(opts.corsOrigin)
                        .split(",")
                        .map((s: string) => s.trim())
                        .filter(Boolean),
              }
            : {}),
        },
      });
      closeOnSignals(() => running.close());
      process.stdout.write(`Listening on ${running.url}\n`);
    });

  const keys = program.command("keys").description("API keys and their accounts");
  keys
    .command("create")
    .description(
      "Create an account with one API key; prints the key alone on the last line (it is shown only once)."
    )
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .option("--name <name>", "account name", "default")
    .addOption(
      new Option("--tier <tier>", "free: terminals and distance only")
        .choices([...TIERS])
        .default("paid")
    )
    .addOption(
      new Option("--credits <n>", "route-information credits")
        .default(1000)
        .argParser(int("--credits"))
    )
    .option(
      "--optimizer",
      `grant route-optimizer access (with ${DEFAULT_OPTIMIZER_CREDITS} route-optimizer credits unless --optimizer-credits says otherwise)`,
      false
    )
    .addOption(
      new Option(
        "--optimizer-credits <n>",
        `route-optimizer credits (default ${DEFAULT_OPTIMIZER_CREDITS} with --optimizer; needs --optimizer)`
      ).argParser(int("--optimizer-credits"))
    )
    .addOption(
      new Option(
        "--rate-limit <perSecond>",
        "requests per second for this key (bursts of twice that); default 50/s, bursts of 100"
      ).argParser(positive("--rate-limit"))
    )
    .addOption(
      new Option(
        "--burst <n>",
        "token-bucket size for this key, at least 1 (default 2 × --rate-limit)"
      ).argParser(atLeastOne("--burst"))
    )
    .action(async (opts) => {
      if (opts.optimizerCredits !== undefined && !opts.optimizer)
        throw new InvalidArgumentError(
          "--optimizer-credits needs --optimizer (route-optimizer access); without access the credits could not be used."
        );
      const optimizerCredits = opts.optimizer
        ? (opts.optimizerCredits ?? DEFAULT_OPTIMIZER_CREDITS)
        : 0;
      await withStore(opts, async (store) => {
        const created = await createAccountWithKey(store, {
          name: opts.name,
          tier: opts.tier as Tier,
          credits: opts.credits,
          optimizerAccess: Boolean(opts.optimizer),
          optimizerCredits,
          ratePerSecond: opts.rateLimit,
          burst: opts.burst,
        });
        const a = created.account;
        process.stdout.write(
          [
            `Account ${a.id} "${a.name}": tier ${a.tier}, ${a.credits} route-information credits, ` +
              `route-optimizer ${a.optimizerAccess ? `access with ${a.optimizerCredits} credits` : "no access"}.`,
            `Key id ${created.keyId} (${created.keyPrefix}…). The key is shown once; keep it secret:`,
            created.key,
          ].join("\n") + "\n"
        );
      });
    });
  keys
    .command("deactivate")
    .description("Deactivate the key's account: its calls answer 403 Inactive.")
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .argument("<key>", "the API key (rs_…) or its key id (key_…)")
    .action(async (key: string, opts) => {
      await withStore(opts, async (store) => {
        const found = await keyOrFail(store, key);
        await store.setActive(found.accountId, false);
        process.stdout.write(
          `Account ${found.accountId} of key ${found.id} (${found.prefix}…) is inactive.\n`
        );
      });
    });
  keys
    .command("activate")
    .description("Reactivate the key's account.")
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .argument("<key>", "the API key (rs_…) or its key id (key_…)")
    .action(async (key: string, opts) => {
      await withStore(opts, async (store) => {
        const found = await keyOrFail(store, key);
        await store.setActive(found.accountId, true);
        process.stdout.write(
          `Account ${found.accountId} of key ${found.id} (${found.prefix}…) is active.\n`
        );
      });
    });

  program
    .command("credits")
    .description("Credit pools")
    .command("add")
    .description(
      "Add N credits to the key's account (route-information pool, or route-optimizer with --optimizer)."
    )
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .argument("<key>", "the API key (rs_…) or its key id (key_…)")
    .argument("<n>", "credits to add", int("N", 1))
    .option("--optimizer", "add to the route-optimizer pool", false)
    .action(async (key: string, n: number, opts) => {
      await withStore(opts, async (store) => {
        const found = await keyOrFail(store, key);
        const pool = opts.optimizer ? "route-optimizer" : "route-information";
        const balance = await store.addCredits(found.accountId, pool, n, `credits add via CLI`);
        process.stdout.write(
          `Added ${n} ${pool} credits to account ${found.accountId}; balance ${balance}.\n`
        );
      });
    });

  program
    .command("usage")
    .description("Charged calls and credits per key (keys shown by id and prefix only).")
    .addOption(dataDirOption())
    .addOption(databaseOption())
    .option("--json", "print JSON", false)
    .action(async (opts) => {
      await withStore(opts, async (store) => {
        const rows = await store.usage();
        if (opts.json) {
          process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
          return;
        }
        const table = [
          [
            "key id",
            "key",
            "account",
            "tier",
            "active",
            "calls",
            "credits used",
            "credits left",
            "optimizer calls",
            "optimizer credits used",
            "optimizer credits left",
          ],
          ...rows.map((r) =>
            [
              r.keyId,
              `${r.keyPrefix}…`,
              r.accountName,
              r.tier,
              r.active ? "yes" : "no",
              r.calls,
              r.creditsUsed,
              r.creditsLeft,
              r.optimizerCalls,
              r.optimizerCreditsUsed,
              r.optimizerCreditsLeft,
            ].map(String)
          ),
        ];
        const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
        process.stdout.write(
          table
            .map((row) =>
              row
                .map((v, c) => v.padEnd(widths[c]))
                .join("  ")
                .trimEnd()
            )
            .join("\n") + "\n"
        );
        if (rows.length === 0) process.stdout.write("(no keys yet: route-sheets keys create)\n");
      });
    });
}
