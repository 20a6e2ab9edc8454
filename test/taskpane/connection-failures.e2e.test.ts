/**
 * "Test connection" against services that cannot be reached, in headless Chromium with the pane
 * served by our real server over HTTPS: each failure gets its own cause, found against real
 * servers on 127.0.0.1: an HTTPS server whose certificate the browser does not trust, a server
 * that sends no CORS headers, a closed port, an http:// service from the https:// pane (mixed
 * content), and a server elsewhere (not on this computer) that does not answer over HTTPS.
 *
 * The browser trusts only the pane's own certificate (by its key, --ignore-certificate-errors-spki-list),
 * so the other HTTPS server's certificate is refused as a user's browser would refuse it.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import type { Browser, Page } from "playwright-core";
import {
  CHROMIUM,
  CHROMIUM_ARGS,
  createKey,
  OFFICE_STUB,
  ServerProcess,
  startServer,
} from "../../src/bench/addin-harness";
import { ensureAddinAndCliBuilt } from "../addin/build-once";
import { throwawayCertificate } from "../support/certificate";

jest.setTimeout(300_000);

const describeBrowser = fs.existsSync(CHROMIUM) ? describe : describe.skip;

/** base64 SHA-256 of a certificate's public key: what Chromium's SPKI allow-list takes. */
function spkiHash(certFile: string): string {
  const key = execFileSync("openssl", ["x509", "-in", certFile, "-pubkey", "-noout"]);
  const der = execFileSync("openssl", ["pkey", "-pubin", "-outform", "der"], { input: key });
  return execFileSync("openssl", ["dgst", "-sha256", "-binary"], { input: der }).toString("base64");
}

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))
  );

describeBrowser("connection failures, each with its cause", () => {
  let dir: string;
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let key = "";
  let untrusted: https.Server;
  let noCors: http.Server;
  const ports = { untrusted: 0, noCors: 0, closed: 0 };

  beforeAll(async () => {
    ensureAddinAndCliBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-failures-"));
    const paneDir = path.join(dir, "pane");
    const otherDir = path.join(dir, "other");
    fs.mkdirSync(paneDir);
    fs.mkdirSync(otherDir);
    const pane = throwawayCertificate(paneDir);
    const other = throwawayCertificate(otherDir);
    key = await createKey(dir, 100);

    // A route service with a certificate nobody trusts (CORS open, so only the certificate fails).
    untrusted = https.createServer(
      { cert: fs.readFileSync(other.cert), key: fs.readFileSync(other.key) },
      (_req, res) => {
        res.setHeader("access-control-allow-origin", "*");
        res.setHeader("content-type", "application/json");
        res.end("[]");
      }
    );
    ports.untrusted = await listen(untrusted);
    // A server that answers, without any CORS header.
    noCors = http.createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end("[]");
    });
    ports.noCors = await listen(noCors);
    // A port nothing listens on.
    const probe = net.createServer();
    ports.closed = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));

    const port = await new Promise<number>((resolve) => {
      const p = net.createServer();
      p.listen(0, "127.0.0.1", () => {
        const n = (p.address() as net.AddressInfo).port;
        p.close(() => resolve(n));
      });
    });
    server = await startServer(dir, "start", [
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--cert",
      pane.cert,
      "--key",
      pane.key,
      "--public-url",
      `https://localhost:${port}`,
    ]);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        ...CHROMIUM_ARGS,
        `--ignore-certificate-errors-spki-list=${spkiHash(pane.cert)}`,
        // Names that are not this computer to the browser, served by the test's 127.0.0.1 servers.
        "--host-resolver-rules=MAP *.test 127.0.0.1",
      ],
    });
    const context = await browser.newContext({ viewport: { width: 320, height: 900 } });
    page = await context.newPage();
    await page.route("https://appsforoffice.microsoft.com/lib/1/hosted/**", (route) =>
      route.fulfill({ status: 200, contentType: "application/javascript", body: OFFICE_STUB })
    );
    await page.goto(`https://localhost:${port}/taskpane.html`);
    await page.waitForSelector("body[data-ready=true]");
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    untrusted?.close();
    noCors?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Tests the connection to `url`; the service check's line. */
  const testUrl = async (url: string) => {
    await page.selectOption("#base-url-preset", "custom");
    await page.fill("#base-url", url);
    await page.fill("#api-key", key);
    await page.click("#test-connection");
    await page.waitForFunction(() => {
      const s = document.getElementById("status");
      return s && s.dataset.state !== "busy" && !!s.textContent;
    });
    expect(await page.getAttribute("#status", "data-state")).toBe("error");
    const line = await page.textContent('#connection-checks li[data-check="service"]');
    expect(await page.getAttribute('#connection-checks li[data-check="service"]', "class")).toBe(
      "check check-fail"
    );
    // The status line says the same, and never only the browser's "Failed to fetch".
    expect(await page.textContent("#status")).not.toBe("Failed to fetch");
    return line ?? "";
  };

  test("an HTTPS server whose certificate this computer does not trust", async () => {
    const url = `https://localhost:${ports.untrusted}`;
    expect(await testUrl(url)).toContain(
      `A server is running at ${url}, but this computer does not trust its HTTPS certificate`
    );
  });

  test("a server that answers without CORS headers", async () => {
    const url = `http://127.0.0.1:${ports.noCors}`;
    const line = await testUrl(url);
    expect(line).toContain(`${url} answers, but does not allow requests from this pane (CORS)`);
    expect(line).toContain(`Access-Control-Allow-Origin for https://localhost:`);
  });

  test("a closed port: the server is down", async () => {
    const url = `https://localhost:${ports.closed}`;
    expect(await testUrl(url)).toContain(
      `Nothing is running at ${url} (port ${ports.closed} is closed)`
    );
  });

  test("an http:// service elsewhere from the https:// pane: mixed content, with the https address to use", async () => {
    const url = `http://routes.test:${ports.noCors}`;
    expect(await testUrl(url)).toBe(
      `✗Problem: ${url} is http:// but this pane is loaded over https://, so the browser blocks every request to it (mixed content): use the service's https:// address (https://routes.test:${ports.noCors}).`
    );
  });

  test("an HTTPS server elsewhere that gives no usable answer: both causes, and how to tell them apart", async () => {
    const url = `https://routes.test:${ports.untrusted}`;
    expect(await testUrl(url)).toContain(
      `No answer from ${url}: either the server is down (or the address is wrong), or this computer does not trust its HTTPS certificate. Open ${url}/health in a browser`
    );
  });
});
