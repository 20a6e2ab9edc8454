/**
 * `route-sheets start`: the built Excel add-in and the API on one origin, over HTTPS so Excel
 * accepts it, with a local account created on first run (what `npm start` runs).
 *
 * TLS: --cert/--key when given; else the Office dev certificates (generated when missing, even when
 * their CA cannot be trusted here: then it prints the one command that trusts it); HTTP only when
 * neither is possible, and then it says that Excel will refuse it.
 */
import { Command } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAccountWithKey, findKey } from "../../service/accounts";
import { RunningService, openStore, startService } from "../../service/server";
import { Store } from "../../service/store/store";
import { certificateFiles, devCertificates, TlsMaterial, TRUST_COMMAND } from "../../service/tls";
import { addinPaths, builtAddin, closeOnSignals } from "./service";
import { addServerOptions, ServerFlags, serveOptionsFrom } from "./server-options";

const LOCAL_KEY_FILE = "local-api-key";
/** The manifest as served, saved for `npm run sideload` / `unload` (office-addin-debugging reads a file). */
export const SAVED_MANIFEST = "manifest.xml";

/** start's defaults: this computer only, quiet logs (its output is the lines below). */
const START_DEFAULTS = { host: "localhost", logLevel: "warn", requestLog: false };

export function register(program: Command): void {
  const start = program
    .command("start")
    .description(
      "serve with local defaults: the built Excel add-in (dist/addin, /manifest.xml, /help/) and the API on one origin over HTTPS (--cert/--key, else the Office dev certificates), and, on the local SQLite store, a local account made on first run whose key it prints with how to sideload. Takes every flag serve takes; --database / DATABASE_URL use that database's accounts instead."
    );
  addServerOptions(start, START_DEFAULTS).action(async (opts: ServerFlags) => {
    const { publicUrl, ...options } = serveOptionsFrom(opts, START_DEFAULTS);
    const tls = await chooseTls(opts);
    const dataDir = path.resolve(opts.dataDir);
    const store = await openStore({ dataDir, database: opts.database });
    // The local account belongs to this computer's own store; a shared database's accounts are
    // made with `route-sheets keys create --database …`.
    const key = opts.database ? undefined : await localKey(store, dataDir);
    let running: RunningService;
    try {
      running = await startService({
        ...options,
        dataDir,
        store,
        tlsMaterial: tls.material,
        logStream: process.stderr,
        addin: { ...(builtAddin() ?? addinPaths()), publicUrl },
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
    const origin = publicUrl ?? `${tls.material ? "https" : "http"}://localhost:${portOf(url)}`;
    const saved = await saveManifest(running, dataDir);
    const lines = [
      `Route Sheets is running at ${url}${publicUrl ? ` (public URL ${publicUrl})` : ""}`,
      tls.message,
      ...(publicUrl?.startsWith("http:")
        ? ["--public-url is http://: Excel refuses add-ins that are not served over HTTPS."]
        : []),
      `Manifest: ${origin}/manifest.xml${saved ? ` (saved as ${shortPath(saved)})` : ""}`,
      ...(saved ? [identityLine(fs.readFileSync(saved, "utf8"))] : []),
      `Help:     ${origin}/help/`,
      `OpenAPI:  ${origin}/openapi.json`,
      "Sideload into Excel: npm run sideload (Excel on Windows or Mac), npm run sideload:web -- --document <workbook URL> (Excel on the web),",
      "  or Excel → Home → Add-ins → More Add-ins → Upload My Add-in with the manifest above (README, Set-up).",
      ...(key
        ? ['In the task pane, keep the service "This server" and enter this API key:', key]
        : [
            "Accounts are those of the database: create a key with route-sheets keys create --database <url> (or DATABASE_URL).",
          ]),
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
async function chooseTls(opts: ServerFlags): Promise<{ material?: TlsMaterial; message: string }> {
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
async function saveManifest(running: RunningService, dataDir: string): Promise<string | undefined> {
  const answer = await running.app.inject({ method: "GET", url: "/manifest.xml" });
  if (answer.statusCode !== 200) return undefined;
  const file = path.join(dataDir, SAVED_MANIFEST);
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, answer.body);
  return file;
}

/** The add-in as Office will know it: name, Id, version (each deployment its own). */
function identityLine(xml: string): string {
  const name = /<DisplayName\s+DefaultValue="([^"]*)"/.exec(xml)?.[1] ?? "";
  const id = /<Id>([^<]*)<\/Id>/.exec(xml)?.[1] ?? "";
  const version = /<Version>([^<]*)<\/Version>/.exec(xml)?.[1] ?? "";
  return `Add-in:   ${name.replace(/&amp;/g, "&").replace(/&quot;/g, '"')} (Id ${id}, version ${version})`;
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
