/**
 * One add-in per deployment: the manifest a server hands out carries an `Id` of its own (made once
 * and kept in the database every instance shares, or given with --addin-id), a version that goes up whenever the
 * add-in build changes (Office caches custom-function metadata per Id and version, and refreshes it
 * only when the version changes), and optionally a display name of its own (--addin-name).
 * Without these, staging and production (or two companies) would be one add-in to Office.
 */
import { createHash, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { AddinIdentityClaim, AddinIdentityRecord } from "./store/store";

/** Where earlier versions kept a data directory's add-in Id (one GUID, one line); now read only. */
export const ADDIN_ID_FILE = "addin-id";
/** Where earlier versions kept the last build's fingerprint and number; now read only. */
export const ADDIN_VERSION_FILE = "addin-version.json";
/** Office limits DisplayName and the ribbon's short strings to 125 characters. */
export const MAX_ADDIN_NAME = 125;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface AddinIdentity {
  id: string;
  version: string;
  /** undefined: the manifest's own display name. */
  name?: string;
}

export interface AddinIdentityOptions {
  /** A data directory whose earlier Id and build number (files of earlier versions) carry over. */
  dataDir?: string;
  /** --addin-id: used as given (a GUID). */
  id?: string;
  /** --addin-name. */
  name?: string;
}

/** A --addin-id as a lower-case GUID; throws a message naming the flag otherwise. */
export function normalizeAddinId(value: string): string {
  const id = value.trim().replace(/^\{(.*)\}$/, "$1");
  if (!GUID.test(id))
    throw new Error(
      `--addin-id must be a GUID such as ${"0f8fad5b-d9cb-469f-a165-70867728950e"}, not "${value}".`
    );
  return id.toLowerCase();
}

/** A --addin-name trimmed; throws a message naming the flag when blank or too long. */
export function normalizeAddinName(value: string): string {
  const name = value.trim();
  if (!name) throw new Error("--addin-name must not be blank.");
  if (name.length > MAX_ADDIN_NAME)
    throw new Error(
      `--addin-name must be at most ${MAX_ADDIN_NAME} characters (Office's limit), not ${name.length}.`
    );
  return name;
}

/**
 * What a data directory kept before the database held the identity (earlier versions wrote these
 * files): its Id, and its last build's fingerprint and number. Read, never written.
 */
export function legacyIdentity(dataDir: string | undefined): {
  id?: string;
  fingerprint?: string;
  build?: number;
} {
  if (!dataDir) return {};
  const read = (file: string) => {
    try {
      return fs.readFileSync(path.join(dataDir, file), "utf8").trim();
    } catch {
      return undefined;
    }
  };
  const id = read(ADDIN_ID_FILE);
  let version: { fingerprint?: string; build?: number } = {};
  try {
    version = JSON.parse(read(ADDIN_VERSION_FILE) ?? "{}") as typeof version;
  } catch {
    // Unreadable: as if absent.
  }
  return {
    id: id && GUID.test(id) ? id.toLowerCase() : undefined,
    fingerprint: typeof version.fingerprint === "string" ? version.fingerprint : undefined,
    build: Number.isInteger(version.build) && version.build! > 0 ? version.build : undefined,
  };
}

let fingerprintCache: { key: string; fingerprint: string } | undefined;

/**
 * A hash of the add-in build (every file of dist/addin but source maps and the build stamp): the
 * same build gives the same fingerprint, any change in what Office loads gives another. Cached on
 * the files' names, sizes and times, so serving the manifest does not re-read the bundles.
 */
export function buildFingerprint(addinDir: string): string {
  const files: string[] = [];
  const visit = (dir: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p);
      else if (!e.name.endsWith(".map") && !e.name.startsWith(".")) files.push(p);
    }
  };
  visit(addinDir);
  files.sort();
  const stats = files.map((f) => {
    const s = fs.statSync(f);
    return `${path.relative(addinDir, f)}:${s.size}:${s.mtimeMs}`;
  });
  const key = `${addinDir}\n${stats.join("\n")}`;
  if (fingerprintCache?.key === key) return fingerprintCache.fingerprint;
  const hash = createHash("sha256");
  for (const f of files) {
    hash.update(path.relative(addinDir, f).split(path.sep).join("/") + "\0");
    hash.update(fs.readFileSync(f));
    hash.update("\0");
  }
  const fingerprint = hash.digest("hex");
  fingerprintCache = { key, fingerprint };
  return fingerprint;
}

/** The manifest's own version's first three parts (0.1.0 of 0.1.0.0). */
export function baseVersion(xml: string): string {
  const m = /<Version>\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(xml);
  return m ? [m[1], m[2] ?? "0", m[3] ?? "0"].join(".") : "1.0.0";
}

/** What the store needs to hand out this deployment's identity (see Store.addinIdentity). */
export interface IdentityStore {
  addinIdentity(claim: AddinIdentityClaim): Promise<AddinIdentityRecord>;
}

/**
 * Id, version and name of this deployment's manifest, from the database every instance shares:
 * the Id and name stored there (--addin-id / --addin-name replace them when `applyFlags`: once, at
 * start), and base.N where N is the number the deployment gave this add-in build (a build new to
 * it gets the next one, so the version only ever rises, as Office expects).
 */
export async function deploymentIdentity(
  store: IdentityStore,
  xml: string,
  addinDir: string,
  options: AddinIdentityOptions,
  applyFlags = false
): Promise<AddinIdentity> {
  const fingerprint = buildFingerprint(addinDir);
  const legacy = legacyIdentity(options.dataDir);
  const record = await store.addinIdentity({
    fingerprint,
    firstId: legacy.id ?? randomUUID(),
    ...(legacy.build
      ? { minBuild: legacy.fingerprint === fingerprint ? legacy.build : legacy.build + 1 }
      : {}),
    ...(applyFlags && options.id ? { id: normalizeAddinId(options.id) } : {}),
    ...(applyFlags && options.name ? { name: normalizeAddinName(options.name) } : {}),
  });
  // Manifest version parts are at most 5 digits.
  const build = ((record.build - 1) % 99_999) + 1;
  return { id: record.id, version: `${baseVersion(xml)}.${build}`, name: record.name ?? undefined };
}

/** Id, version and name without a database: the manifest's own, but for the flags given. */
export function fileIdentity(
  xml: string,
  options: AddinIdentityOptions
): AddinIdentity | undefined {
  return options.id || options.name
    ? {
        id: options.id ? normalizeAddinId(options.id) : manifestId(xml),
        version: manifestVersion(xml),
        name: options.name,
      }
    : undefined;
}

function manifestId(xml: string): string {
  return /<Id>\s*([^<\s]+)\s*<\/Id>/.exec(xml)?.[1] ?? randomUUID();
}

function manifestVersion(xml: string): string {
  return /<Version>\s*([^<\s]+)\s*<\/Version>/.exec(xml)?.[1] ?? "1.0.0.0";
}

function escapeXmlAttribute(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!
  );
}

/** Short strings that show the add-in's name in the ribbon. */
const NAME_STRINGS = ["CommandsGroup.Label", "TaskpaneButton.Label"];

/** manifest.xml with this deployment's Id, version and (when set) display name. */
export function withIdentity(xml: string, identity: AddinIdentity | undefined): string {
  if (!identity) return xml;
  let out = xml
    .replace(/<Id>[^<]*<\/Id>/, `<Id>${identity.id}</Id>`)
    .replace(/<Version>[^<]*<\/Version>/, `<Version>${identity.version}</Version>`);
  if (identity.name) {
    const name = escapeXmlAttribute(identity.name);
    out = out.replace(/(<DisplayName\s+DefaultValue=")[^"]*(")/, `$1${name}$2`);
    for (const id of NAME_STRINGS)
      out = out.replace(
        new RegExp(`(<bt:String\\s+id="${id.replace(".", "\\.")}"\\s+DefaultValue=")[^"]*(")`),
        `$1${name}$2`
      );
  }
  return out;
}
