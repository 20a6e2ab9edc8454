/**
 * `route-sheets start`: the built Excel add-in and the API on one origin, with a local account
 * created on first run (what `npm start` runs).
 */
import { Command, Option } from "commander";
import * as fs from "node:fs";
import * as path from "node:path";
import { createAccountWithKey, findKey } from "../../service/accounts";
import { DEFAULT_PORT, startService } from "../../service/server";
import { SqliteStore } from "../../service/store/sqlite";
import { Store } from "../../service/store/store";
import { devCertDir, findDevCertificates, installDevCertificates } from "../../service/tls";
import { addinPaths, builtAddin, closeOnSignals, dataDirOption, int } from "./service";

const LOCAL_KEY_FILE = "local-api-key";

export function register(program: Command): void {
  program
    .command("start")
    .description(
      "Serve the built Excel add-in (dist/addin, /manifest.xml) and the API on one origin, HTTPS when the Office dev certificates exist; create a local account on first run and print its key and how to sideload."
    )
    .addOption(
      new Option("--port <port>", "TCP port").default(DEFAULT_PORT).argParser(int("--port"))
    )
    .addOption(new Option("--host <host>", "interface to listen on").default("localhost"))
    .addOption(dataDirOption())
    .addOption(new Option("--log-level <level>", "log level").default("warn"))
    .action(async (opts) => {
      const dataDir = path.resolve(opts.dataDir);
      const store = SqliteStore.open(dataDir);
      const key = await localKey(store, dataDir);
      const certificates = await installDevCertificates();
      const tls = certificates.installed ? findDevCertificates() : undefined;
      const running = await startService({
        port: opts.port,
        host: opts.host,
        dataDir,
        store,
        tlsMaterial: tls,
        logStream: process.stderr,
        addin: builtAddin() ?? addinPaths(),
        config: { logLevel: opts.logLevel, logRequests: false },
      });
      closeOnSignals(async () => {
        await running.close();
        await store.close();
      });
      const url = running.url.replace("://127.0.0.1", "://localhost");
      const lines = [
        `Route Sheets is running at ${url}`,
        tls
          ? `HTTPS with the Office dev certificates from ${tls.source}.`
          : `HTTP only: the Office dev certificates could not be installed (${certificates.installed ? `none in ${devCertDir()}` : certificates.reason}). ` +
            'Excel needs HTTPS: run "npx office-addin-dev-certs install" as a user who may trust certificates, and restart.',
        `Manifest: ${url}/manifest.xml`,
        `OpenAPI:  ${url}/openapi.json`,
        "Sideload into Excel: Excel on the web → Home → Add-ins → More Add-ins → Upload My Add-in → choose the manifest file",
        "  (download it from the manifest URL); Excel desktop: put it in a shared-folder catalog (Trust Center → Trusted Add-in Catalogs),",
        '  or run "npx office-addin-debugging start manifest.xml desktop" on Windows/macOS.',
        "In the task pane, set the service URL to the address above and this API key:",
        key,
      ];
      process.stdout.write(lines.join("\n") + "\n");
    });
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
