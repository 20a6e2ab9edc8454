/**
 * The add-in's static files on the real server (loopback): traversal attempts answer 404 and bad
 * Range headers 416, both as problem+json. Raw sockets, because fetch() normalises `..` away.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { OfficeAddinManifest } from "office-addin-manifest";
import {
  ADDIN_ID_FILE,
  ADDIN_VERSION_FILE,
  normalizeAddinId,
  normalizeAddinName,
} from "../../src/service/addin-manifest";
import { RunningService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import { RawAnswer, rawGet } from "../support/raw-http";
import { startQuietService, tempDir } from "./support";

const INLINE = "window.probe = 1;";
const PAGE = "<p>task pane</p>";
const SCRIPTED = `<script src="https://appsforoffice.microsoft.com/lib/1/hosted/office.js"></script><script>${INLINE}</script><p>pane</p>`;
let root: string;
let store: SqliteStore;
let running: RunningService;

beforeAll(async () => {
  root = tempDir("route-sheets-static-");
  const addinDir = path.join(root, "addin");
  fs.mkdirSync(path.join(addinDir, "sub"), { recursive: true });
  fs.writeFileSync(path.join(addinDir, "taskpane.html"), PAGE);
  fs.writeFileSync(path.join(addinDir, "sub", "file.js"), "export {};\n");
  fs.writeFileSync(path.join(addinDir, "scripted.html"), SCRIPTED);
  fs.writeFileSync(path.join(addinDir, "taskpane.js"), "//# sourceMappingURL=taskpane.js.map\n");
  fs.writeFileSync(path.join(addinDir, "taskpane.js.map"), '{"sources":["../src/taskpane.ts"]}');
  // A file next to the add-in directory: what a traversal would try to read.
  fs.writeFileSync(path.join(root, "secret.txt"), "top secret");
  const dataDir = path.join(root, "data");
  ({ running, store } = await startQuietService({ dataDir, optimizer: null, addin: { addinDir } }));
}, 120_000);

afterAll(async () => {
  await running?.close();
  await store?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

function expectProblem(answer: RawAnswer, status: number, title: string): void {
  expect(answer.status).toBe(status);
  expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(answer.body);
  expect(body).toEqual(
    expect.objectContaining({ title, status, type: expect.stringMatching(/problems\//) })
  );
  expect(answer.body).not.toContain("top secret");
}

test("a file of the add-in is served, and a valid range is 206", async () => {
  const whole = await rawGet(running.url, "/taskpane.html");
  expect(whole.status).toBe(200);
  expect(whole.body).toBe(PAGE);
  const part = await rawGet(running.url, "/taskpane.html", "Range: bytes=0-2\r\n");
  expect(part.status).toBe(206);
  expect(part.headers["content-range"]).toBe(`bytes 0-2/${PAGE.length}`);
  expect(part.body).toBe(PAGE.slice(0, 3));
});

test.each([
  "/../secret.txt",
  "/%2e%2e/secret.txt",
  "/%2E%2E/secret.txt",
  "/..%2fsecret.txt",
  "/%2e%2e%2fsecret.txt",
  "/sub/..%2f..%2fsecret.txt",
  "/sub/%2e%2e/%2e%2e/secret.txt",
  "/..%5csecret.txt",
  "/..\\secret.txt",
  "/%00",
  "/taskpane.html%00.js",
])("traversal attempt %s answers 404 Not Found as problem+json", async (target) => {
  expectProblem(await rawGet(running.url, target), 404, "Not Found");
});

test.each(["bytes=100-200", "bytes=5-2", "bytes=abc", "bytes=-0"])(
  "Range %s answers 416 with Content-Range bytes */size as problem+json",
  async (range) => {
    const answer = await rawGet(running.url, "/taskpane.html", `Range: ${range}\r\n`);
    expectProblem(answer, 416, "Incorrect Values");
    expect(answer.headers["content-range"]).toBe(`bytes */${PAGE.length}`);
    expect(JSON.parse(answer.body).detail).toMatch(/Range/);
  }
);

test("the API's own errors keep their form next to the static files", async () => {
  const unknown = await rawGet(running.url, "/nope.js");
  expectProblem(unknown, 404, "Not Found");
  const noKey = await rawGet(running.url, "/route-information/api/distance");
  expectProblem(noKey, 401, "No Key");
  const help = await rawGet(running.url, "/help/NOPE");
  expectProblem(help, 404, "Not Found");
});

/**
 * One add-in per deployment: each data directory gets an Id of its own (kept across restarts),
 * the version rises when the add-in build changes, --addin-id / --addin-name are honoured, and the
 * manifest stays readable by Microsoft's reader. Help links are written by the server alone.
 */
describe("the manifest each deployment serves", () => {
  const MANIFEST = path.join(__dirname, "..", "..", "manifest.xml");
  let base: string;
  let addinDir: string;
  const servers: Array<{ running: RunningService; store: SqliteStore }> = [];

  beforeAll(() => {
    base = tempDir("route-sheets-deploy-");
    addinDir = path.join(base, "addin");
    fs.mkdirSync(addinDir, { recursive: true });
    fs.writeFileSync(path.join(addinDir, "taskpane.html"), PAGE);
    fs.writeFileSync(path.join(addinDir, "functions.js"), "/* build 1 */\n");
    fs.writeFileSync(
      path.join(addinDir, "functions.json"),
      JSON.stringify({
        functions: [
          { id: "DISTANCE", name: "DISTANCE", helpUrl: "https://example.invalid/elsewhere" },
          { id: "LANE", name: "LANE" },
        ],
      })
    );
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.running.close();
      await s.store.close();
    }
    fs.rmSync(base, { recursive: true, force: true });
  });

  /** Starts a server on `dataDir`, returns its manifest as served, then stops it. */
  async function manifestOf(dataDir: string, addin: { id?: string; name?: string } = {}) {
    const { running, store } = await startQuietService({
      dataDir,
      optimizer: null,
      addin: { addinDir, manifestFile: MANIFEST },
      addinIdentity: addin,
    });
    try {
      const answer = await rawGet(running.url, "/manifest.xml");
      expect(answer.status).toBe(200);
      const functions = JSON.parse((await rawGet(running.url, "/functions.json")).body) as {
        functions: Array<{ id: string; helpUrl: string }>;
      };
      const file = path.join(base, `served-${Math.random().toString(36).slice(2)}.xml`);
      fs.writeFileSync(file, answer.body);
      const read = await OfficeAddinManifest.readManifestFile(file);
      // The manifest names the server as localhost (its own origin when there is no --public-url).
      const url = running.url.replace("://127.0.0.1", "://localhost");
      return { xml: answer.body, read, functions: functions.functions, url };
    } finally {
      await running.close();
      await store.close();
    }
  }

  const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
  const repoId = /<Id>([^<]+)<\/Id>/.exec(fs.readFileSync(MANIFEST, "utf8"))![1];

  test("two data directories: two Ids, each kept across restarts, none the repository's", async () => {
    const a = path.join(base, "a");
    const b = path.join(base, "b");
    const first = await manifestOf(a);
    const second = await manifestOf(b);
    expect(first.read.id).toMatch(GUID);
    expect(second.read.id).toMatch(GUID);
    expect(first.read.id).not.toBe(second.read.id);
    expect([first.read.id, second.read.id]).not.toContain(repoId);
    // Kept in the database (service.db here), not in a file of the data directory.
    expect(fs.existsSync(path.join(a, ADDIN_ID_FILE))).toBe(false);
    const again = await manifestOf(a);
    expect(again.read.id).toBe(first.read.id);
    expect(again.read.version).toBe(first.read.version);
    // Read by office-addin-manifest as a whole manifest, not only the Id.
    expect(first.read.displayName).toBe("Route Sheets");
    expect(first.read.officeAppType).toBe("TaskPaneApp");
    expect(first.read.defaultSettings?.sourceLocation).toBe(`${first.url}/taskpane.html`);
  });

  test("a data directory of an earlier version keeps its Id and its version does not go down", async () => {
    const dir = path.join(base, "legacy");
    fs.mkdirSync(dir, { recursive: true });
    const id = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
    fs.writeFileSync(path.join(dir, ADDIN_ID_FILE), id.toUpperCase() + "\n");
    fs.writeFileSync(
      path.join(dir, ADDIN_VERSION_FILE),
      JSON.stringify({ fingerprint: "older", build: 41 })
    );
    const served = await manifestOf(dir);
    expect(served.read.id).toBe(id);
    expect(served.read.version).toMatch(/\.42$/);
  });

  test("the version rises when the add-in build changes, and only then", async () => {
    const dir = path.join(base, "versions");
    const v1 = (await manifestOf(dir)).read.version!;
    expect(v1).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect((await manifestOf(dir)).read.version).toBe(v1);
    fs.writeFileSync(path.join(addinDir, "functions.js"), "/* build 2 */\n");
    const v2 = (await manifestOf(dir)).read.version!;
    const parts = (v: string) => v.split(".").map(Number);
    expect(parts(v2).slice(0, 3)).toEqual(parts(v1).slice(0, 3));
    expect(parts(v2)[3]).toBe(parts(v1)[3] + 1);
    // A source map or the build stamp is not the add-in Office loads.
    fs.writeFileSync(path.join(addinDir, "functions.js.map"), "{}");
    fs.writeFileSync(path.join(addinDir, ".built"), new Date().toISOString());
    expect((await manifestOf(dir)).read.version).toBe(v2);
  });

  test("--addin-id and --addin-name are honoured (XML-escaped), the ribbon says the name too", async () => {
    const id = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    const served = await manifestOf(path.join(base, "named"), {
      id,
      name: "Route Sheets (staging) & <test>",
    });
    expect(served.read.id).toBe(id.toLowerCase());
    expect(served.read.displayName).toBe("Route Sheets (staging) & <test>");
    expect(served.xml).toContain(
      '<bt:String id="TaskpaneButton.Label" DefaultValue="Route Sheets (staging) &amp; &lt;test&gt;"/>'
    );
    expect(() => normalizeAddinId("not-a-guid")).toThrow(/--addin-id must be a GUID/);
    expect(() => normalizeAddinName("  ")).toThrow(/--addin-name must not be blank/);
    expect(() => normalizeAddinName("x".repeat(126))).toThrow(/at most 125 characters/);
  });

  test("help links: written by the server alone, on its own origin, whatever the build had", async () => {
    const served = await manifestOf(path.join(base, "help"));
    expect(served.functions.map((f) => f.helpUrl)).toEqual([
      `${served.url}/help/ROUTE.DISTANCE#ROUTE.DISTANCE`,
      `${served.url}/help/ROUTE.LANE#ROUTE.LANE`,
    ]);
  });
});

test("/addin/listening: whether a port of this computer accepts connections (for the pane's diagnosis)", async () => {
  const port = Number(new URL(running.url).port);
  const open = await rawGet(running.url, `/addin/listening?port=${port}`);
  expect(open.status).toBe(200);
  expect(JSON.parse(open.body)).toEqual({ port, listening: true });
  const probe = net.createServer();
  const closed = await new Promise<number>((resolve) =>
    probe.listen(0, "127.0.0.1", () => resolve((probe.address() as net.AddressInfo).port))
  );
  await new Promise((resolve) => probe.close(resolve));
  const shut = await rawGet(running.url, `/addin/listening?port=${closed}`);
  expect(JSON.parse(shut.body)).toEqual({ port: closed, listening: false });
  for (const bad of ["abc", "0", "65536", "1.5"]) {
    const answer = await rawGet(running.url, `/addin/listening?port=${bad}`);
    expectProblem(answer, 400, "Incorrect Values");
    expect(JSON.parse(answer.body).detail).toMatch(/^port must be a whole number from 1 to 65535/);
  }
});

test("/addin/listening refuses requests that may come through a proxy (forwarding headers)", async () => {
  const port = Number(new URL(running.url).port);
  for (const header of [
    "X-Forwarded-For: 203.0.113.9",
    "Forwarded: for=203.0.113.9",
    "X-Real-IP: 203.0.113.9",
  ]) {
    const answer = await rawGet(running.url, `/addin/listening?port=${port}`, `${header}\r\n`);
    expectProblem(answer, 404, "Not Found");
  }
});

describe("security headers of the pane (issue 21)", () => {
  test("the page has a Content-Security-Policy allowing its own inline script by hash, and nosniff", async () => {
    const answer = await rawGet(running.url, "/scripted.html");
    expect(answer.status).toBe(200);
    expect((await rawGet(running.url, "/taskpane.html")).headers["content-security-policy"]).toBe(
      answer.headers["content-security-policy"]
    );
    const csp = answer.headers["content-security-policy"];
    expect(csp).toBeDefined();
    const hash = require("node:crypto").createHash("sha256").update(INLINE).digest("base64");
    expect(csp).toContain(`'sha256-${hash}'`);
    expect(csp).toMatch(/script-src 'self'[^;]* https:\/\/appsforoffice\.microsoft\.com/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    // Plain HTTP: no HSTS (it is sent over HTTPS only; see abuse-limits.test.ts).
    expect(answer.headers["strict-transport-security"]).toBeUndefined();
  });

  test("source maps are not served (404), the scripts are", async () => {
    expect((await rawGet(running.url, "/taskpane.js")).status).toBe(200);
    expectProblem(await rawGet(running.url, "/taskpane.js.map"), 404, "Not Found");
    expectProblem(await rawGet(running.url, "/TASKPANE.JS.MAP?x=1"), 404, "Not Found");
  });

  test.each([
    "/taskpane.js.map/",
    "/taskpane.js%2emap",
    "/taskpane.js%2Emap",
    "/taskpane%2ejs%2emap",
    "/sub/../taskpane.js.map",
    "/sub/%2e%2e/taskpane.js.map",
    "/taskpane.js.map.",
    "/taskpane.js.map//",
  ])(
    "a source map asked for as %s is judged by its decoded, normalised path: 404",
    async (target) => {
      const answer = await rawGet(running.url, target);
      expectProblem(answer, 404, "Not Found");
      expect(answer.body).not.toContain("sources");
    }
  );
});
