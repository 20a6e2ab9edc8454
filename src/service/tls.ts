/**
 * HTTPS material for the server: certificate files given on the command line, or the Office add-in
 * development certificates (office-addin-dev-certs, in ~/.office-addin-dev-certs).
 */
import * as crypto from "node:crypto";
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

/** What trusts the dev CA (it regenerates the certificates, so the server is restarted after it). */
export const TRUST_COMMAND = "npx office-addin-dev-certs install";

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

/** A certificate that is valid for at least another day and matches its key. */
function usable(material: TlsMaterial): boolean {
  try {
    const x509 = new crypto.X509Certificate(material.cert);
    return (
      Date.parse(x509.validTo) > Date.now() + 86_400_000 &&
      x509.checkPrivateKey(crypto.createPrivateKey(material.key))
    );
  } catch {
    return false;
  }
}

interface DevCertsModule {
  generateCertificates(): Promise<void>;
  deleteCertificateFiles(dir?: string): void;
  isCaCertificateInstalled(): boolean;
}

/** Loaded lazily: only `start` needs it. */
function devCertsModule(): DevCertsModule {
  return require("office-addin-dev-certs") as DevCertsModule;
}

export type DevCertificates =
  | { ok: true; material: TlsMaterial; generated: boolean; trusted: boolean | undefined }
  | { ok: false; reason: string };

/**
 * The Office dev certificates, generated (office-addin-dev-certs) when missing, expired or broken.
 * Trusting their CA needs the administrator, so it is left to TRUST_COMMAND; `trusted` says whether
 * it is (undefined: could not be checked).
 */
export async function devCertificates(dir = devCertDir()): Promise<DevCertificates> {
  let material = findDevCertificates(dir);
  let generated = false;
  if (!material || !usable(material)) {
    try {
      const devCerts = devCertsModule();
      devCerts.deleteCertificateFiles(dir);
      // It prints on stdout; the caller says what matters.
      await quietly(() => devCerts.generateCertificates());
    } catch (error) {
      return { ok: false, reason: firstLine(error) };
    }
    material = findDevCertificates(dir);
    if (!material || !usable(material))
      return { ok: false, reason: `office-addin-dev-certs wrote no usable certificate in ${dir}` };
    generated = true;
  }
  let trusted: boolean | undefined;
  try {
    trusted = await quietly(async () => devCertsModule().isCaCertificateInstalled());
  } catch {
    trusted = undefined;
  }
  return { ok: true, material, generated, trusted };
}

async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const log = console.log;
  console.log = () => undefined;
  try {
    return await fn();
  } finally {
    console.log = log;
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim().split("\n")[0];
}

/** Certificate files (PEM) given on the command line. */
export function certificateFiles(files: { cert?: string; key?: string }): TlsMaterial {
  if (!files.cert || !files.key) throw new Error("--cert and --key must be given together.");
  const read = (file: string, flag: string) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new Error(`${flag} ${file}: ${firstLine(error)}`);
    }
  };
  const material = { cert: read(files.cert, "--cert"), key: read(files.key, "--key") };
  try {
    const x509 = new crypto.X509Certificate(material.cert);
    if (!x509.checkPrivateKey(crypto.createPrivateKey(material.key)))
      throw new Error(`--key ${files.key} is not the private key of --cert ${files.cert}.`);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("--key")) throw error;
    throw new Error(
      `--cert ${files.cert} and --key ${files.key} must be a PEM certificate and its private key (${firstLine(error)}).`
    );
  }
  return { ...material, source: files.cert };
}

/** `serve --tls`: the given files, else the dev certificates that already exist. */
export function loadTls(files?: { cert?: string; key?: string }): TlsMaterial {
  if (files?.cert || files?.key) return certificateFiles(files);
  const dev = findDevCertificates();
  if (!dev) {
    throw new Error(
      `--tls needs a certificate: none found in ${devCertDir()} (localhost.crt, localhost.key). ` +
        `Create and trust them with "${TRUST_COMMAND}", or pass --cert FILE --key FILE.`
    );
  }
  return dev;
}
