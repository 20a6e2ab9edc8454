/** `start` (add-in + API on one origin, local account) and `serve --tls` with a certificate. */
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as path from "node:path";
import { BIN, kill, requireBuild, ROOT } from "./child";
import { tempDir } from "./support";

beforeAll(() => requireBuild());

function startCommand(
  dataDir: string
): Promise<{ child: ReturnType<typeof spawn>; out: string; url: string; key: string }> {
  const child = spawn(process.execPath, [BIN, "start", "--port", "0", "--data-dir", dataDir], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c) => {
      out += c;
      const lines = out.trimEnd().split("\n");
      const key = lines[lines.length - 1];
      const m = /running at (\S+)/.exec(out);
      if (m && /^rs_[A-Za-z0-9_-]{43}$/.test(key)) resolve({ child, out, url: m[1], key });
    });
    child.on("exit", (code) => reject(new Error(`start exited with ${code}`)));
  });
}

test("start serves the add-in, the manifest with its own origin, and the API; the local key survives restarts", async () => {
  const dataDir = tempDir();
  const first = await startCommand(dataDir);
  try {
    expect(first.out).toMatch(/Manifest: \S+\/manifest\.xml/);
    expect(first.out).toMatch(/Sideload/);
    const manifest = await fetch(`${first.url}/manifest.xml`);
    if (fs.existsSync(path.join(ROOT, "manifest.xml"))) {
      expect(manifest.status).toBe(200);
      const xml = await manifest.text();
      expect(xml).toContain(first.url);
      expect(xml).not.toContain("https://localhost:3000");
    }
    if (fs.existsSync(path.join(ROOT, "dist", "addin", "taskpane.html"))) {
      expect((await fetch(`${first.url}/taskpane.html`)).status).toBe(200);
    }
    const res = await fetch(`${first.url}/route-optimizer/api/external/operators`, {
      headers: { "x-api-key": first.key },
    });
    expect(res.status).toBe(200);
  } finally {
    await kill(first.child, "SIGTERM");
  }
  const second = await startCommand(dataDir);
  await kill(second.child, "SIGTERM");
  expect(second.key).toBe(first.key);
}, 60_000);

test("serve --tls --cert --key answers over HTTPS", async () => {
  const dir = tempDir();
  const cert = path.join(dir, "c.pem");
  const key = path.join(dir, "k.pem");
  try {
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        key,
        "-out",
        cert,
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
      ],
      { stdio: "ignore" }
    );
  } catch {
    console.warn("openssl not available: TLS test skipped");
    return;
  }
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
    const body = await new Promise<string>((resolve, reject) => {
      https
        .get(`${url}/health`, { ca: fs.readFileSync(cert) }, (res) => {
          let b = "";
          res.on("data", (c) => (b += c));
          res.on("end", () => resolve(b));
        })
        .on("error", reject);
    });
    expect(JSON.parse(body).status).toBe("ok");
  } finally {
    await kill(child, "SIGTERM");
  }
}, 60_000);
