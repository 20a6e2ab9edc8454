/**
 * `route-sheets start`: the built Excel add-in and the API on one origin, over HTTPS so Excel
 * accepts it, with a local account created on first run (what `npm start` runs).
 *
 * TLS: --cert/--key when given; else the Office dev certificates (generated when missing, even when
 * their CA cannot be trusted here: then it prints the one command that trusts it); HTTP only when
 * neither is possible, and then it says that Excel will refuse it.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAccountWithKey, findKey } from "../../service/accounts";
import { manifestFor, normalizePublicUrl } from "../../service/addin-host";
import { normalizeAddinId, normalizeAddinName } from "../../service/addin-manifest";
import { DEFAULT_PORT, RunningService, startService } from "../../service/server";
import { SqliteStore } from "../../service/store/sqlite";
import { Store } from "../../service/store/store";
import { certificateFiles, devCertificates, TlsMaterial, TRUST_COMMAND } from "../../service/tls";
import {
  addinPaths,
  builtAddin,
  closeOnSignals,
  dataDirOption,
  int,
  roadEngineOption,
} from "./service";

const LOCAL_KEY_FILE = "local-api-key";
/** The manifest as served, saved for `npm run sideload` / `unload` (office-addin-debugging reads a file). */
export const SAVED_MANIFEST = "manifest.xml";

interface StartOptions {
  port: number;
  host: string;
  dataDir: string;
  cert?: string;
  key?: string;
  publicUrl?: string;
  addinId?: string;
  addinName?: string;
  logLevel: string;
  roadEngine?: string;
}

export function register(program: Command): void {
  program
    .command("start")
    .description(
      "Serve the built Excel add-in (dist/addin, /manifest.xml, /help/) and the API on one origin over HTTPS (--cert/--key, else the Office dev certificates); create a local account on first run and print its key and how to sideload."
    )
    .addOption(
      new Option("--port <port>", "TCP port; 0 picks a free one")
        .default(DEFAULT_PORT)
        .argParser(int("--port"))
    )
    .addOption(new Option("--host <host>", "interface to listen on").default("localhost"))
    .addOption(dataDirOption())
    .option("--cert <file>", "TLS certificate (PEM), with --key")
    .option("--key <file>", "TLS private key (PEM), with --cert")
    .addOption(
      new Option(
        "--public-url <url>",
        "where users reach this server (e.g. https://sheets.example.com behind a reverse proxy): the manifest's URLs start with it"
      ).argParser((value) => {
        try {
          return normalizePublicUrl(value);
        } catch (error) {
          throw new InvalidArgumentError((error as Error).message);
        }
      })
    )
    .addOption(
      new Option(
        "--addin-id <guid>",
        "the add-in's Id in its manifest (default: one made on first start and kept in the data directory, so each deployment is its own add-in to Office)"
      ).argParser(checked(normalizeAddinId))
    )
    .addOption(
      new Option(
        "--addin-name <name>",
        'the add-in\'s display name in Excel, e.g. "Route Sheets (staging)"'
      ).argParser(checked(normalizeAddinName))
    )
    .addOption(roadEngineOption())
    .addOption(new Option("--log-level <level>", "log level").default("warn"))
    .action(async (opts: StartOptions) => {
      if (Boolean(opts.cert) !== Boolean(opts.key))
        throw new Error("--cert and --key must be given together.");
      const tls = await chooseTls(opts);
      const dataDir = path.resolve(opts.dataDir);
      const store = SqliteStore.open(dataDir);
      const key = await localKey(store, dataDir);
      let running: RunningService;
      try {
        running = await startService({
          port: opts.port,
          host: opts.host,
          dataDir,
          store,
          tlsMaterial: tls.material,
          logStream: process.stderr,
          addin: { ...(builtAddin() ?? addinPaths()), publicUrl: opts.publicUrl },
          addinIdentity: { id: opts.addinId, name: opts.addinName },
          roadEngine: opts.roadEngine,
          config: { logLevel: opts.logLevel, logRequests: false },
        });
      } catch (error) {
        await store.close();
        if ((error as NodeJS.ErrnoException).code === "EADDRINUSE")
          throw new Error(
            `Port ${opts.port} is in use (another Route Sheets or another server): stop it, or run npm start -- --port ${opts.port + 1}`
          );
        throw error;
      }
      closeOnSignals(async () => {
        await running.close();
        await store.close();
      });
      const url = running.url.replace("://127.0.0.1", "://localhost");
      const origin =
        opts.publicUrl ?? `${tls.material ? "https" : "http"}://localhost:${portOf(url)}`;
      const saved = saveManifest(dataDir, origin, opts);
      const lines = [
        `Route Sheets is running at ${url}${opts.publicUrl ? ` (public URL ${opts.publicUrl})` : ""}`,
        tls.message,
        ...(opts.publicUrl?.startsWith("http:")
          ? ["--public-url is http://: Excel refuses add-ins that are not served over HTTPS."]
          : []),
        `Manifest: ${origin}/manifest.xml${saved ? ` (saved as ${shortPath(saved)})` : ""}`,
        ...(saved ? [identityLine(fs.readFileSync(saved, "utf8"))] : []),
        `Help:     ${origin}/help/`,
        `OpenAPI:  ${origin}/openapi.json`,
        "Sideload into Excel: npm run sideload (Excel on Windows or Mac), npm run sideload:web -- --document <workbook URL> (Excel on the web),",
        "  or Excel → Home → Add-ins → More Add-ins → Upload My Add-in with the manifest above (README, Set-up).",
        'In the task pane, keep the service "This server" and enter this API key:',
        key,
      ];
      process.stdout.write(lines.join("\n") + "\n");
    });
}

function shortPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative.startsWith("..") ? file : relative;
}

function portOf(url: string): string {
  return new URL(url).port;
}

/** HTTPS material and the one line that says what it means for Excel. */
async function chooseTls(opts: StartOptions): Promise<{ material?: TlsMaterial; message: string }> {
  if (opts.cert && opts.key) {
    const material = certificateFiles({ cert: opts.cert, key: opts.key });
    return { material, message: `HTTPS with the certificate ${opts.cert}.` };
  }
  const dev = await devCertificates();
  if (!dev.ok)
    return {
      message: `HTTP only (the Office dev certificates could not be made: ${dev.reason}): Excel refuses add-ins over http://; run "${TRUST_COMMAND}" and restart, or pass --cert FILE --key FILE.`,
    };
  const where = `the Office dev certificates${dev.generated ? ", just generated," : ""} in ${dev.material.source}`;
  if (dev.trusted === true) return { material: dev.material, message: `HTTPS with ${where}.` };
  return {
    material: dev.material,
    message:
      dev.trusted === false
        ? `HTTPS with ${where}, whose CA this computer does not trust yet, so Excel refuses them: run "${TRUST_COMMAND}" once, then restart.`
        : `HTTPS with ${where} (whether this computer trusts their CA could not be checked): if Excel refuses them, run "${TRUST_COMMAND}" once, then restart.`,
  };
}

/** Saves the manifest as served into the data directory; undefined when there is none to save. */
function saveManifest(dataDir: string, origin: string, opts: StartOptions): string | undefined {
  const { manifestFile, addinDir } = addinPaths();
  if (!fs.existsSync(manifestFile)) return undefined;
  const file = path.join(dataDir, SAVED_MANIFEST);
  fs.writeFileSync(
    file,
    manifestFor(fs.readFileSync(manifestFile, "utf8"), origin, addinDir, {
      dataDir,
      id: opts.addinId,
      name: opts.addinName,
    })
  );
  return file;
}

/** The add-in as Office will know it: name, Id, version (each deployment its own). */
function identityLine(xml: string): string {
  const name = /<DisplayName\s+DefaultValue="([^"]*)"/.exec(xml)?.[1] ?? "";
  const id = /<Id>([^<]*)<\/Id>/.exec(xml)?.[1] ?? "";
  const version = /<Version>([^<]*)<\/Version>/.exec(xml)?.[1] ?? "";
  return `Add-in:   ${name.replace(/&amp;/g, "&").replace(/&quot;/g, '"')} (Id ${id}, version ${version})`;
}

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

/** The local account of `start`: created on first run; its key kept (mode 600) in the data dir to print it again. */
async function localKey(store: Store, dataDir: string): Promise<string> {
  const file = path.join(dataDir, LOCAL_KEY_FILE);
  if (fs.existsSync(file)) {
    const key = fs.readFileSync(file, "utf8").trim();
    if (await findKey(store, key)) return key;
  }
  const created = await createAccountWithKey(store, {
    name: "local",
    tier: "paid",
    credits: 1_000_000,
    optimizerAccess: true,
    optimizerCredits: 100_000,
    ratePerSecond: 1000,
  });
  fs.writeFileSync(file, created.key + "\n", { mode: 0o600 });
  return created.key;
}
