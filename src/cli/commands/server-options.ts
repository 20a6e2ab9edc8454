/**
 * The options of `serve` and `start`: one table, so the production command and its local-defaults
 * twin accept the same flags. Each command gives its own defaults (start: localhost, quiet logs).
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { parseRoadEngine } from "../../data/osrm";
import { normalizePublicUrl } from "../../service/addin-host";
import { normalizeAddinId, normalizeAddinName } from "../../service/addin-manifest";
import { ConfigOverrides, configSettingsHelp, readConfigFile } from "../../service/config";
import { REDIS_FAIL_MODES, RedisFailMode } from "../../service/rate-limit/redis";
import { DEFAULT_DATA_DIR, DEFAULT_PORT, ServeOptions } from "../../service/server";
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

/** What commander gives the action of a command with these options. */
export interface ServerFlags {
  port: number;
  host: string;
  dataDir: string;
  database?: string;
  redis?: string;
  redisFail: RedisFailMode;
  requestIdHeader?: string;
  trustProxy: string[];
  roadEngine?: string;
  tls: boolean;
  cert?: string;
  key?: string;
  logLevel: string;
  /** --request-log / --no-request-log; undefined: the command's default. */
  requestLog?: boolean;
  corsOrigin?: string;
  config?: string;
  publicUrl?: string;
  addinId?: string;
  addinName?: string;
}

export interface ServerDefaults {
  host: string;
  logLevel: string;
  requestLog: boolean;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

/** A commander argument parser from a normaliser that throws a message naming its flag. */
function checked(normalize: (value: string) => string): (value: string) => string {
  return (value) => {
    try {
      return normalize(value);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
  };
}

/** Adds the shared options to `command`, with its defaults, and `--config`'s settings to its help. */
export function addServerOptions(command: Command, defaults: ServerDefaults): Command {
  return command
    .addOption(
      new Option("--port <port>", "TCP port; 0 picks a free one")
        .default(DEFAULT_PORT)
        .argParser(int("--port"))
    )
    .addOption(new Option("--host <host>", "interface to listen on").default(defaults.host))
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
    .addOption(
      new Option(
        "--public-url <url>",
        "where users reach the service (https://routes.example.com behind a reverse proxy): the add-in's manifest, functions.json and help links start with it; default: this server's own origin"
      ).argParser(checked(normalizePublicUrl))
    )
    .addOption(
      new Option(
        "--addin-id <guid>",
        "the add-in's Id in its manifest, stored in the database for every instance (default: one made on first start and kept there)"
      ).argParser(checked(normalizeAddinId))
    )
    .addOption(
      new Option(
        "--addin-name <name>",
        'the add-in\'s display name in Excel, e.g. "Route Sheets (staging)"; stored in the database for every instance'
      ).argParser(checked(normalizeAddinName))
    )
    .option(
      "--trust-proxy <cidr>",
      "address or CIDR of a proxy in front (repeat it, or a comma list): only its X-Forwarded-For and --request-id-header are believed, and the per-address cap counts each forwarded client address instead of the proxy's",
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
      "--request-id-header <name>",
      "take request ids from this header set by the balancer (nginx: X-Request-Id $request_id) so a retried request is charged once; believed only from --trust-proxy addresses"
    )
    .addOption(roadEngineOption())
    .option(
      "--cors-origin <origins>",
      "allowed CORS origins: * or a comma-separated list (default: the config file's corsOrigins, else *)"
    )
    .option(
      "--config <file>",
      "JSON file of settings (costs, rateLimit, optimizer, timeouts, idempotency, connections…; every one is listed below)"
    )
    .option(
      "--tls",
      `HTTPS with the Office add-in dev certificates (${devCertDir()}/localhost.crt, localhost.key; create them with "npx office-addin-dev-certs install"), or --cert/--key`,
      false
    )
    .option("--cert <file>", "TLS certificate (PEM), with --key: HTTPS")
    .option("--key <file>", "TLS private key (PEM), with --cert")
    .addOption(
      new Option("--log-level <level>", "log level").choices(LOG_LEVELS).default(defaults.logLevel)
    )
    .option(
      "--request-log",
      `log one line per request${defaults.requestLog ? " (the default)" : ""}`
    )
    .option(
      "--no-request-log",
      `do not log one line per request${defaults.requestLog ? "" : " (the default)"}`
    )
    .addHelpText(
      "after",
      [
        "",
        "Settings of --config FILE (JSON; groups may be given in part; defaults in brackets):",
        ...configSettingsHelp().map((line) => `  ${line}`),
        'Example: {"costs": {"distance": 2}, "optimizer": {"threads": 2}, "timeouts": {"requestMs": 60000},',
        '          "idempotency": {"maxBytesPerKey": 8388608}, "maxConnectionsPerIp": 64}',
      ].join("\n")
    );
}

/** The CORS origins: --cors-origin when given, else the file's, else any. */
function corsOrigins(flag: string | undefined, file: ConfigOverrides): ConfigOverrides {
  if (flag === undefined) return file.corsOrigins ? {} : { corsOrigins: "*" };
  if (flag.trim() === "*") return { corsOrigins: "*" };
  const list = flag
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) throw new InvalidArgumentError("--cors-origin must be * or a list of origins.");
  return { corsOrigins: list };
}

/** What the flags ask of startService (all but TLS, which each command decides). */
export function serveOptionsFrom(
  opts: ServerFlags,
  defaults: ServerDefaults
): Omit<ServeOptions, "tls" | "tlsMaterial" | "addin"> & {
  publicUrl?: string;
} {
  if (Boolean(opts.cert) !== Boolean(opts.key))
    throw new Error("--cert and --key must be given together.");
  const fileConfig = opts.config ? readConfigFile(opts.config) : {};
  return {
    port: opts.port,
    host: opts.host,
    dataDir: opts.dataDir,
    database: opts.database,
    redis: opts.redis,
    redisFail: opts.redisFail,
    requestIdHeader: opts.requestIdHeader,
    trustProxy: opts.trustProxy,
    roadEngine: opts.roadEngine,
    publicUrl: opts.publicUrl,
    addinIdentity: { id: opts.addinId, name: opts.addinName },
    config: {
      ...fileConfig,
      logLevel: opts.logLevel,
      logRequests: opts.requestLog ?? fileConfig.logRequests ?? defaults.requestLog,
      ...corsOrigins(opts.corsOrigin, fileConfig),
    },
  };
}
