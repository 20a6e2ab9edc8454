/**
 * Serves the built Excel add-in (dist/addin) on the API's origin, /manifest.xml and /functions.json
 * with the development origin (https://localhost:3000) replaced by the add-in's public origin, and
 * the help pages. That origin is the --public-url when given (a reverse proxy), else this server's
 * own scheme, localhost and port: never a request header, which any client could forge.
 */
import fastifyStatic from "@fastify/static";
import { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import * as tls from "node:tls";
import {
  AddinIdentity,
  AddinIdentityOptions,
  deploymentIdentity,
  fileIdentity,
  IdentityStore,
  withIdentity,
} from "./addin-manifest";
import { FunctionMetadata, functionHelp, helpIndex, helpPath } from "./help/help-pages";
import { sendProblem } from "./plugins/problem";
import { fail, problem, ServiceProblem } from "./problem";

export const DEV_ORIGIN = "https://localhost:3000";

export interface AddinHostOptions {
  addinDir: string;
  manifestFile?: string;
  /** Where users reach this server (https://sheets.example.com); default: its own scheme, localhost and port. */
  publicUrl?: string;
  /** This deployment's add-in Id, version and name (see addin-manifest.ts). */
  identity?: AddinIdentityOptions;
  /** Where the identity is kept, shared by every instance (the service's store). */
  store?: IdentityStore;
}

/**
 * A --public-url as the origin (and optional path) the add-in's URLs start with, without a trailing
 * slash; throws a message naming the parameter otherwise.
 */
export function normalizePublicUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(
      `--public-url must be an absolute URL such as https://sheets.example.com, not "${value}".`
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new Error(`--public-url must start with https:// (or http://), not ${url.protocol}//.`);
  if (url.search || url.hash || url.username || url.password)
    throw new Error("--public-url must not have a query, a fragment or credentials.");
  return url.href.replace(/\/+$/, "");
}

export function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!
  );
}

/** The server's own origin: its scheme (HTTPS when it has a certificate), localhost and its port. */
export function ownOrigin(app: FastifyInstance): string {
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return `${app.server instanceof tls.Server ? "https" : "http"}://localhost:${port}`;
}

/**
 * manifest.xml as this deployment serves it: every development-origin URL pointing at `origin`
 * (XML-escaped), the deployment's own Id, version and display name, and no comments.
 */
export function manifestFor(xml: string, origin: string, identity?: AddinIdentity): string {
  // The file's comments are notes for developers (they name the development origin): not served.
  const bare = xml.replace(/<!--[\s\S]*?-->\s*/g, "");
  return withIdentity(bare, identity).split(DEV_ORIGIN).join(escapeXml(origin));
}

/**
 * Whether a request path names a source map once decoded and normalised (`/taskpane.js%2emap`,
 * `/taskpane.js.map/`, `/sub/../taskpane.js.map`): the static files would serve any of these.
 */
export function isSourceMapPath(url: string): boolean {
  const raw = url.split("?")[0];
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // Malformed escapes: the static files refuse the path anyway; judge it as written.
  }
  const normal = path.posix.normalize(decoded.replace(/\\/g, "/")).replace(/[/.\s]+$/, "");
  return /\.map$/i.test(normal);
}

/**
 * functions.json with each function's help link on this server's help page: the one place help
 * links are written (only the server knows its public origin; the build leaves them alone).
 */
export function functionsMetadataFor(json: string, origin: string): string {
  const meta = JSON.parse(json) as { functions?: FunctionMetadata[] };
  for (const f of meta.functions ?? []) f.helpUrl = origin + helpPath(f.id);
  return JSON.stringify(meta, null, 2);
}

/** An error @fastify/send answered with (http-errors: a status, and headers such as Content-Range). */
interface SendError extends FastifyError {
  status?: number;
  headers?: Record<string, string>;
}

/**
 * The static files' own refusals as problems: a path that leaves the add-in directory (`..`,
 * encoded slashes, NUL) is answered like any file that is not there (404, revealing nothing);
 * an unsatisfiable or malformed Range is 416 with a Content-Range that names the file size.
 */
function staticErrorHandler(base: string) {
  return (err: SendError, request: FastifyRequest, reply: FastifyReply) => {
    // The host's own routes' problems keep their status (the service's handler answers them).
    if (err instanceof ServiceProblem) throw err;
    const status = err.statusCode ?? err.status;
    if (status === 400 || status === 403) {
      return sendProblem(
        reply,
        problem(base, "Not Found", `No resource at ${request.method} ${request.url.split("?")[0]}.`)
      );
    }
    if (status === 412 || status === 416) {
      const contentRange = err.headers?.["Content-Range"];
      if (contentRange) reply.header("content-range", contentRange);
      return sendProblem(reply, {
        ...problem(
          base,
          "Incorrect Values",
          status === 416
            ? `The Range header (${String(request.headers.range).slice(0, 60)}) cannot be satisfied: send bytes=first-last within the file's size (Content-Range: ${contentRange ?? "unknown"}).`
            : "A precondition header (If-Match, If-Unmodified-Since) does not hold for this file."
        ),
        status,
      });
    }
    // Anything else (the manifest and help routes' own problems): the service's handler.
    throw err;
  };
}

/**
 * The add-in host as an encapsulated plugin: the static files and their error handler stay in
 * this scope, so their mapping of traversal and Range errors never touches the API's routes.
 */
export async function addinHost(
  app: FastifyInstance,
  options: AddinHostOptions & { problemTypeBase: string }
): Promise<void> {
  app.setErrorHandler(staticErrorHandler(options.problemTypeBase));
  const csp = contentSecurityPolicy(options.addinDir);
  app.addHook("onRequest", async (request) => {
    // Source maps would hand out the add-in's sources: the server does not serve them.
    if (isSourceMapPath(request.url))
      throw fail("Not Found", `No resource at ${request.method} ${request.url.split("?")[0]}.`);
  });
  app.addHook("onSend", async (_request, reply) => {
    if (/^text\/html/i.test(String(reply.getHeader("content-type") ?? "")))
      reply.header("content-security-policy", csp);
  });
  await addinRoutes(app, options);
}

/** SHA-256 sources of the inline <script> blocks of the add-in's HTML files. */
export function inlineScriptHashes(addinDir: string): string[] {
  const hashes = new Set<string>();
  const files = fs.existsSync(addinDir)
    ? fs.readdirSync(addinDir).filter((f) => f.endsWith(".html"))
    : [];
  for (const f of files) {
    const html = fs.readFileSync(path.join(addinDir, f), "utf8");
    for (const m of html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi))
      hashes.add(`'sha256-${createHash("sha256").update(m[1], "utf8").digest("base64")}'`);
  }
  return [...hashes];
}

/**
 * The pages' Content-Security-Policy: scripts from this server, Office.js's CDN and the pages'
 * own inline blocks (by hash); 'unsafe-eval' because Office.js and the pane's "is this browser
 * modern enough" probe use Function(). Calls may go to any HTTPS service (the pane's service URL
 * is the user's choice) or a local one.
 */
export function contentSecurityPolicy(addinDir: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'unsafe-eval' https://appsforoffice.microsoft.com ${inlineScriptHashes(addinDir).join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self' https: http://localhost:* http://127.0.0.1:*",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join("; ");
}

async function addinRoutes(app: FastifyInstance, options: AddinHostOptions): Promise<void> {
  if (!fs.existsSync(options.addinDir)) {
    app.log.warn(
      `add-in directory ${options.addinDir} does not exist; build it with npm run build:addin`
    );
  }
  const publicUrl = options.publicUrl ? normalizePublicUrl(options.publicUrl) : undefined;
  const origin = () => publicUrl ?? ownOrigin(app);
  const identityOptions = { ...options.identity };
  const store = options.store;
  const identity = (xml: string, applyFlags = false) =>
    store
      ? deploymentIdentity(store, xml, options.addinDir, identityOptions, applyFlags)
      : Promise.resolve(fileIdentity(xml, identityOptions));
  // --addin-id / --addin-name go into the database once, at start: every instance then serves them.
  if (store && options.manifestFile && fs.existsSync(options.manifestFile))
    await identity(fs.readFileSync(options.manifestFile, "utf8"), true);
  const metadataFile = path.join(options.addinDir, "functions.json");
  const metadata = (): FunctionMetadata[] => {
    try {
      return (
        JSON.parse(fs.readFileSync(metadataFile, "utf8")) as { functions: FunctionMetadata[] }
      ).functions;
    } catch {
      return [];
    }
  };

  await app.register(fastifyStatic, {
    root: options.addinDir,
    prefix: "/",
    index: ["taskpane.html"],
    wildcard: true,
  });
  app.get("/manifest.xml", { schema: { hide: true } }, async (_request, reply) => {
    const file = options.manifestFile;
    if (!file || !fs.existsSync(file))
      throw fail(
        "Not Found",
        "manifest.xml is not available: the add-in manifest file is missing."
      );
    const xml = fs.readFileSync(file, "utf8");
    return reply
      .type("application/xml; charset=utf-8")
      .send(manifestFor(xml, origin(), await identity(xml)));
  });
  app.get("/functions.json", { schema: { hide: true } }, async (_request, reply) => {
    if (!fs.existsSync(metadataFile))
      throw fail(
        "Not Found",
        "functions.json is not available: build the add-in with npm run build:addin."
      );
    return reply
      .type("application/json; charset=utf-8")
      .send(functionsMetadataFor(fs.readFileSync(metadataFile, "utf8"), origin()));
  });
  app.get<{ Querystring: { port?: string } }>(
    "/addin/listening",
    { schema: { hide: true } },
    async (request) => {
      // For the pane's connection test (src/taskpane/connection-diagnosis.ts): whether a server on
      // this computer is down or has a certificate the browser refuses. Only for a pane on this
      // same computer, and only a connect to this computer's own port: no scanning through it.
      // Behind a proxy (a public URL elsewhere, forwarding headers, or listening beyond loopback) every
      // caller could look local: then it does not answer at all.
      const bound = app.server.address();
      const forwarded = ["forwarded", "x-forwarded-for", "x-real-ip"].some(
        (h) => request.headers[h] !== undefined
      );
      if (
        (publicUrl && !["localhost", "127.0.0.1", "[::1]"].includes(new URL(publicUrl).hostname)) ||
        forwarded ||
        !(typeof bound === "object" && bound && isLoopbackAddress(bound.address)) ||
        !isLoopbackAddress(request.socket.remoteAddress)
      )
        throw fail("Not Found", "/addin/listening answers only requests from this computer.");
      const port = Number(request.query.port);
      if (!Number.isInteger(port) || port < 1 || port > 65535)
        throw fail("Incorrect Values", "port must be a whole number from 1 to 65535.", "port");
      return { port, listening: await listening(port) };
    }
  );
  app.get("/help/", { schema: { hide: true } }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").send(helpIndex(metadata(), origin()))
  );
  app.get<{ Params: { name: string } }>(
    "/help/:name",
    { schema: { hide: true } },
    async (request, reply) => {
      const html = functionHelp(metadata(), request.params.name.replace(/\.html$/i, ""), origin());
      if (!html)
        throw fail(
          "Not Found",
          `No help page ${request.params.name}: see /help/ for the ROUTE functions.`
        );
      return reply.type("text/html; charset=utf-8").send(html);
    }
  );
}

function isLoopbackAddress(address: string | undefined): boolean {
  return !!address && (address === "::1" || /^(::ffff:)?127\./.test(address));
}

/** Whether anything accepts a TCP connection on this computer's `port` (IPv4 or IPv6 loopback). */
async function listening(port: number): Promise<boolean> {
  const connect = (host: string) =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect({ port, host });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(2000, () => done(false));
      socket.once("connect", () => done(true));
      socket.once("error", () => done(false));
    });
  return (await connect("127.0.0.1")) || (await connect("::1"));
}
