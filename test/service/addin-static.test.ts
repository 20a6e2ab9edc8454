/**
 * The add-in's static files on the real server (loopback): traversal attempts answer 404 and bad
 * Range headers 416, both as problem+json. Raw sockets, because fetch() normalises `..` away.
 */
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { RunningService, startService } from "../../src/service/server";
import { SqliteStore } from "../../src/service/store/sqlite";
import { tempDir, testEngine } from "./support";

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** One HTTP/1.1 request written as is (no URL normalisation), answer parsed. */
function rawGet(url: string, target: string, extraHeaders = ""): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1", () =>
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}Connection: close\r\n\r\n`
      )
    );
    let data = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (data += chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const [head, ...rest] = data.split("\r\n\r\n");
      const [statusLine, ...lines] = head.split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(":");
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body: rest.join("\r\n\r\n") });
    });
  });
}

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
  store = SqliteStore.open(dataDir);
  running = await startService({
    port: 0,
    host: "127.0.0.1",
    dataDir,
    store,
    engine: testEngine(),
    optimizer: null,
    addin: { addinDir },
    config: { logLevel: "silent", logRequests: false },
  });
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
});
