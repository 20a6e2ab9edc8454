/** HTTPS material: the Office add-in development certificates (office-addin-dev-certs). */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface TlsMaterial {
  key: Buffer;
  cert: Buffer;
  ca?: Buffer;
  /** Where they came from, for the startup message. */
  source: string;
}

export function devCertDir(): string {
  return path.join(os.homedir(), ".office-addin-dev-certs");
}

/** The dev certificates if `npx office-addin-dev-certs install` has created them, else undefined. */
export function findDevCertificates(dir = devCertDir()): TlsMaterial | undefined {
  const cert = path.join(dir, "localhost.crt");
  const key = path.join(dir, "localhost.key");
  if (!fs.existsSync(cert) || !fs.existsSync(key)) return undefined;
  const ca = path.join(dir, "ca.crt");
  return {
    cert: fs.readFileSync(cert),
    key: fs.readFileSync(key),
    ca: fs.existsSync(ca) ? fs.readFileSync(ca) : undefined,
    source: dir,
  };
}

/**
 * Creates the Office dev certificates and trusts their CA, as Office's own templates do on `npm start`
 * (this may ask for the administrator password). Resolves with why not when that is impossible
 * here (no sudo, no trust store…): then the caller serves HTTP.
 */
export async function installDevCertificates(): Promise<
  { installed: true } | { installed: false; reason: string }
> {
  try {
    // Loaded lazily: only `route-sheets start` needs it.

    const devCerts = require("office-addin-dev-certs") as {
      ensureCertificatesAreInstalled(): Promise<void>;
    };
    await devCerts.ensureCertificatesAreInstalled();
    return { installed: true };
  } catch (err) {
    return { installed: false, reason: (err instanceof Error ? err.message : String(err)).trim() };
  }
}

export function loadTls(files?: { cert?: string; key?: string }): TlsMaterial {
  if (files?.cert || files?.key) {
    if (!files.cert || !files.key) throw new Error("--cert and --key must be given together.");
    return {
      cert: fs.readFileSync(files.cert),
      key: fs.readFileSync(files.key),
      source: files.cert,
    };
  }
  const dev = findDevCertificates();
  if (!dev) {
    throw new Error(
      `--tls needs a certificate: none found in ${devCertDir()} (localhost.crt, localhost.key). ` +
        'Create and trust them with "npx office-addin-dev-certs install", or pass --cert FILE --key FILE.'
    );
  }
  return dev;
}
