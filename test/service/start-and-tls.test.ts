/**
 * `route-sheets start` as a user runs it: HTTPS with --cert/--key, or with the Office dev
 * certificates (generated into the home directory when missing), HTTP only as the last resort; the
 * manifest's URLs from --public-url or the server's own origin, never from the Host header; the
 * help pages the manifest and the functions link to; a port in use; `serve --tls`.
 * Each start runs with a throwaway HOME, so the real ~/.office-addin-dev-certs is never touched.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as net from "node:net";
import * as path from "node:path";
import { OfficeAddinManifest } from "office-addin-manifest";
import { BIN, kill, requireBuild, ROOT } from "./child";
import { tempDir } from "./support";
import { throwawayCertificate } from "../support/certificate";

beforeAll(() => requireBuild());

interface Started {
  child: ReturnType<typeof spawn>;
  out: string;
  url: string;
  key: string;
}

/** Runs `start` with HOME=home and resolves once it printed its key (the last line). */
function start(home: string, args: string[]): Promise<Started> {
  const child = spawn(process.execPath, [BIN, "start", "--port", "0", ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: home, USERPROFILE: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr!.on("data", (c) => (err += c));
    child.stdout!.on("data", (c) => {
      out += c;
      const lines = out.trimEnd().split("\n");
      const key = lines[lines.length - 1];
      const m = /running at (\S+)/.exec(out);
      if (m && /^rs_[A-Za-z0-9_-]{43}$/.test(key)) resolve({ child, out, url: m[1], key });
    });
    child.on("exit", (code) => reject(new Error(`start exited with ${code}: ${err}`)));
  });
}

/** Runs `start` to its exit (when it cannot start); resolves with its exit code and output. */
function startFails(home: string, args: string[]): Promise<{ code: number; err: string }> {
  const child = spawn(process.execPath, [BIN, "start", ...args], {
    cwd: ROOT,
    env: { ...process.env, HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let err = "";
  child.stderr!.on("data", (c) => (err += c));
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  return new Promise((resolve) =>
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, err });
    })
  );
}

interface Answer {
  status: number;
  type: string;
  body: string;
}

/** GET over HTTPS trusting `ca`; `host` sets the Host header (as any client may). */
function get(url: string, ca: Buffer, host?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    https
      .get(
        {
          hostname: u.hostname,
          port: u.port,
          path: u.pathname + u.search,
          ca,
          servername: "localhost",
          headers: host ? { host } : {},
        },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (c) => (body += c));
          res.on("end", () =>
            resolve({
              status: res.statusCode ?? 0,
              type: String(res.headers["content-type"]),
              body,
            })
          );
        }
      )
      .on("error", reject);
  });
}

/** The manifest read by Microsoft's own reader (office-addin-manifest). */
async function readManifest(xml: string) {
  const file = path.join(tempDir(), "manifest.xml");
  fs.writeFileSync(file, xml);
  return OfficeAddinManifest.readManifestFile(file);
}

const HOSTILE_HOST = 'evil.example"><SourceLocation DefaultValue="http://evil.example/x"/><x a="';

test("start without --cert: generates the Office dev certificates, serves HTTPS, prints the trust command; manifest and help from its own origin; the local key survives restarts", async () => {
  const home = tempDir();
  const dataDir = path.join(home, "data");
  const first = await start(home, ["--data-dir", dataDir]);
  let key: string;
  try {
    const certDir = path.join(home, ".office-addin-dev-certs");
    expect(fs.readdirSync(certDir).sort()).toEqual(["ca.crt", "localhost.crt", "localhost.key"]);
    expect(first.url).toMatch(/^https:\/\/localhost:\d+$/);
    // This machine does not trust the fresh CA: the line says so and gives the one command.
    expect(first.out).toContain(
      'whose CA this computer does not trust yet, so Excel refuses them: run "npx office-addin-dev-certs install" once, then restart.'
    );
    expect(first.out).toContain(`Manifest: ${first.url}/manifest.xml`);
    expect(first.out).toMatch(/npm run sideload/);
    const ca = fs.readFileSync(path.join(certDir, "ca.crt"));

    const manifest = await get(`${first.url}/manifest.xml`, ca);
    expect(manifest.status).toBe(200);
    expect(manifest.type).toMatch(/^application\/xml/);
    const read = await readManifest(manifest.body);
    expect(read.defaultSettings?.sourceLocation).toBe(`${first.url}/taskpane.html`);
    expect(read.iconUrl).toBe(`${first.url}/assets/icon-32.png`);
    expect(read.supportUrl).toBe(`${first.url}/help/`);
    expect(manifest.body).not.toContain("https://localhost:3000");
    // The Host header does not reach the manifest.
    const hostile = await get(`${first.url}/manifest.xml`, ca, HOSTILE_HOST);
    expect(hostile.body).toBe(manifest.body);
    // The saved copy for npm run sideload is the served manifest.
    expect(fs.readFileSync(path.join(dataDir, "manifest.xml"), "utf8")).toBe(manifest.body);

    if (fs.existsSync(path.join(ROOT, "dist", "addin", "functions.json"))) {
      const meta = JSON.parse((await get(`${first.url}/functions.json`, ca)).body) as {
        functions: Array<{ id: string; helpUrl: string }>;
      };
      expect(meta.functions.length).toBeGreaterThanOrEqual(5);
      for (const f of meta.functions) {
        const name = `ROUTE.${f.id}`;
        expect(f.helpUrl).toBe(`${first.url}/help/${name}#${name}`);
        const help = await get(f.helpUrl, ca);
        expect(help.status).toBe(200);
        expect(help.type).toMatch(/^text\/html/);
        expect(help.body).toContain(`<section id="${name}">`);
      }
      expect((await get(`${first.url}/taskpane.html`, ca)).status).toBe(200);
    }
    const index = await get(`${first.url}/help/`, ca);
    for (const name of [
      "DISTANCE",
      "EMISSIONS",
      "TERMINALS",
      "OPERATORS",
      "OPTIONS",
      "PASSAGES",
      "LANE",
    ])
      expect(index.body).toContain(`id="ROUTE.${name}"`);
    expect((await get(`${first.url}/help/ROUTE.NOPE`, ca)).status).toBe(404);
    key = first.key;
  } finally {
    await kill(first.child, "SIGTERM");
  }
  // Second start: the same certificates and key, nothing generated again.
  const second = await start(home, ["--data-dir", dataDir]);
  await kill(second.child, "SIGTERM");
  expect(second.key).toBe(key);
  expect(second.out).not.toContain("just generated");
}, 90_000);

test("start --cert --key --public-url: HTTPS with those files; every manifest URL is the public URL, XML-escaped, whatever the Host header says", async () => {
  const home = tempDir();
  const { cert, key } = throwawayCertificate(home);
  const publicUrl = "https://sheets.example.com/team&co's";
  const started = await start(home, [
    "--data-dir",
    path.join(home, "data"),
    "--host",
    "127.0.0.1",
    "--cert",
    cert,
    "--key",
    key,
    "--public-url",
    `${publicUrl}/`,
  ]);
  try {
    expect(started.out).toContain(`HTTPS with the certificate ${cert}.`);
    expect(started.out).toContain(`Manifest: ${publicUrl}/manifest.xml`);
    // No dev certificates were made: --cert/--key were given.
    expect(fs.existsSync(path.join(home, ".office-addin-dev-certs"))).toBe(false);
    const local = started.url.replace("localhost", "127.0.0.1");
    const ca = fs.readFileSync(cert);
    const manifest = await get(`${local}/manifest.xml`, ca);
    expect(manifest.status).toBe(200);
    expect(manifest.body).toContain(
      '<SourceLocation DefaultValue="https://sheets.example.com/team&amp;co&apos;s/taskpane.html"/>'
    );
    const read = await readManifest(manifest.body);
    expect(read.defaultSettings?.sourceLocation).toBe(`${publicUrl}/taskpane.html`);
    expect(read.iconUrl).toBe(`${publicUrl}/assets/icon-32.png`);
    expect(read.highResolutionIconUrl).toBe(`${publicUrl}/assets/icon-64.png`);
    expect(read.supportUrl).toBe(`${publicUrl}/help/`);
    // Every URL in it starts with the public URL (escaped), none with the local origin.
    const urls = [...manifest.body.matchAll(/DefaultValue="(https?:[^"]*)"/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(8);
    for (const u of urls.filter((x) => !x.startsWith("https://connect.routescanner.com")))
      expect(u.startsWith("https://sheets.example.com/team&amp;co&apos;s/")).toBe(true);
    const hostile = await get(`${local}/manifest.xml`, ca, HOSTILE_HOST);
    expect(hostile.body).toBe(manifest.body);
    expect(hostile.body).not.toContain("evil");
    if (fs.existsSync(path.join(ROOT, "dist", "addin", "functions.json"))) {
      const meta = JSON.parse((await get(`${local}/functions.json`, ca, HOSTILE_HOST)).body) as {
        functions: Array<{ id: string; helpUrl: string }>;
      };
      for (const f of meta.functions)
        expect(f.helpUrl).toBe(`${publicUrl}/help/ROUTE.${f.id}#ROUTE.${f.id}`);
    }
    const res = await get(`${local}/health`, ca);
    expect(JSON.parse(res.body).status).toBe("ok");
  } finally {
    await kill(started.child, "SIGTERM");
  }
}, 60_000);

test("start without any way to make certificates: HTTP, and one line says Excel refuses it and how to fix it", async () => {
  const dataDir = tempDir();
  // A HOME under a file: the dev certificates cannot be written.
  const started = await start("/dev/null", ["--data-dir", dataDir]);
  try {
    expect(started.url).toMatch(/^http:\/\/localhost:\d+$/);
    const line = started.out.split("\n").find((l) => l.startsWith("HTTP only"));
    expect(line).toMatch(
      /^HTTP only \(the Office dev certificates could not be made: .+\): Excel refuses add-ins over http:\/\/; run "npx office-addin-dev-certs install" and restart, or pass --cert FILE --key FILE\.$/
    );
    const xml = await (
      await fetch(`${started.url.replace("localhost", "127.0.0.1")}/manifest.xml`)
    ).text();
    expect(xml).toContain(`<SourceLocation DefaultValue="${started.url}/taskpane.html"/>`);
  } finally {
    await kill(started.child, "SIGTERM");
  }
}, 60_000);

test("start on a port in use: one line naming the port and npm start -- --port N; --cert without --key and a bad --public-url are refused", async () => {
  const home = tempDir();
  const { cert, key } = throwawayCertificate(home);
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
  const port = (blocker.address() as net.AddressInfo).port;
  try {
    const busy = await startFails(home, [
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--data-dir",
      path.join(home, "data"),
      "--cert",
      cert,
      "--key",
      key,
    ]);
    expect(busy.code).toBe(1);
    expect(busy.err.trim()).toBe(
      `Port ${port} is in use (another Route Sheets or another server): stop it, or run npm start -- --port ${port + 1}`
    );
  } finally {
    blocker.close();
  }
  const half = await startFails(home, ["--cert", cert, "--data-dir", path.join(home, "d2")]);
  expect(half.code).toBe(1);
  expect(half.err).toContain("--cert and --key must be given together.");
  const bad = await startFails(home, ["--public-url", "sheets.example.com"]);
  expect(bad.code).not.toBe(0);
  expect(bad.err).toContain("--public-url must be an absolute URL");
}, 60_000);

test("serve --tls --cert --key answers over HTTPS", async () => {
  const dir = tempDir();
  const { cert, key } = throwawayCertificate(dir);
  const child = spawn(
    process.execPath,
    [
      BIN,
      "serve",
      "--tls",
      "--cert",
      cert,
      "--key",
      key,
      "--port",
      "0",
      "--data-dir",
      dir,
      "--log-level",
      "warn",
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }
  );
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (c) => {
        out += c;
        const m = /Listening on (\S+)/.exec(out);
        if (m) resolve(m[1]);
      });
      child.on("exit", (code) => reject(new Error(`serve --tls exited with ${code}`)));
    });
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${url}/health`, fs.readFileSync(cert));
    expect(JSON.parse(res.body).status).toBe("ok");
  } finally {
    await kill(child, "SIGTERM");
  }
}, 60_000);
