/**
 * Service commands: serve, keys create/deactivate, credits add, usage (start: ./start.ts). Exact flags are a contract (other tools call them).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAccountWithKey, findKey } from "../../service/accounts";
import { DEFAULT_HOST, openStore, startService } from "../../service/server";
import { Store, TIERS, Tier } from "../../service/store/store";
import {
  addServerOptions,
  databaseOption,
  dataDirOption,
  int,
  ServerFlags,
  serveOptionsFrom,
} from "./server-options";

/** serve's defaults: loopback (nginx in front), a log line per request. */
const SERVE_DEFAULTS = { host: DEFAULT_HOST, logLevel: "info", requestLog: true };

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

/** The add-in's files when `npm run build` has produced them. */
export function builtAddin() {
  const paths = addinPaths();
  return fs.existsSync(path.join(paths.addinDir, "taskpane.html")) ? paths : undefined;
}

export function register(program: Command): void {
  const serve = program
    .command("serve")
    .description(
      'Run the route service: the HTTP API, and the built Excel add-in with /manifest.xml, /functions.json and /help/ (when npm run build has made dist/addin). The production command: --public-url, --addin-id, --addin-name, --database, --redis, --trust-proxy, --config. Prints "Listening on <url>" on stdout once it accepts connections; logs go to stderr.'
    );
  addServerOptions(serve, SERVE_DEFAULTS).action(async (opts: ServerFlags) => {
    const { publicUrl, ...options } = serveOptionsFrom(opts, SERVE_DEFAULTS);
    const addin = builtAddin();
    const running = await startService({
      ...options,
      tls: opts.tls || opts.cert ? { cert: opts.cert, key: opts.key } : false,
      logStream: process.stderr,
      // The built add-in is served too when it exists, so Excel can load it from this server.
      addin: addin && { ...addin, publicUrl },
    });
    if (addin && !publicUrl && opts.trustProxy.length)
      running.app.log.warn(
        "--trust-proxy without --public-url: the add-in's manifest and help links name this instance's own address; give --public-url https://<the proxy's host>."
      );
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
