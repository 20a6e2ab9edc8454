/**
 * One add-in per deployment: the manifest a server hands out carries an `Id` of its own (made once
 * and kept in the data directory, or given with --addin-id), a version that goes up whenever the
 * add-in build changes (Office caches custom-function metadata per Id and version, and refreshes it
 * only when the version changes), and optionally a display name of its own (--addin-name).
 * Without these, staging and production (or two companies) would be one add-in to Office.
 */
import { createHash, randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** Where the deployment's add-in Id is kept (one GUID, one line). */
export const ADDIN_ID_FILE = "addin-id";
/** The build fingerprint last served and its build number (the version's fourth part). */
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
  /** Where the Id and the build number are kept; none: the manifest's own Id and version. */
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

/** The deployment's Id: kept in the data directory, made on first use. */
export function deploymentAddinId(dataDir: string): string {
  const file = path.join(dataDir, ADDIN_ID_FILE);
  try {
    const kept = fs.readFileSync(file, "utf8").trim();
    if (GUID.test(kept)) return kept.toLowerCase();
  } catch {
    // Not made yet.
  }
  const id = randomUUID();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, id + "\n");
  return id;
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

/**
 * The version for this build: base.N, where N goes up by one each time this data directory serves
 * a build with another fingerprint (so the version only ever rises, as Office expects).
 */
export function deploymentVersion(dataDir: string, fingerprint: string, base: string): string {
  const file = path.join(dataDir, ADDIN_VERSION_FILE);
  let kept: { fingerprint?: string; build?: number } = {};
  try {
    kept = JSON.parse(fs.readFileSync(file, "utf8")) as typeof kept;
  } catch {
    // First build served.
  }
  let build = Number.isInteger(kept.build) && kept.build! > 0 ? kept.build! : 0;
  if (kept.fingerprint !== fingerprint || build === 0) {
    // Manifest version parts are at most 5 digits.
    build = (build % 99_999) + 1;
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ fingerprint, build }) + "\n");
  }
  return `${base}.${build}`;
}

/** Id, version and name of this deployment's manifest. */
export function addinIdentity(
  xml: string,
  addinDir: string,
  options: AddinIdentityOptions
): AddinIdentity | undefined {
  if (!options.dataDir)
    return options.id || options.name
      ? {
          id: options.id ? normalizeAddinId(options.id) : manifestId(xml),
          version: manifestVersion(xml),
          name: options.name,
        }
      : undefined;
  return {
    id: options.id ? normalizeAddinId(options.id) : deploymentAddinId(options.dataDir),
    version: deploymentVersion(options.dataDir, buildFingerprint(addinDir), baseVersion(xml)),
    name: options.name,
  };
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
