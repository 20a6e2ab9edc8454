/**
 * Issue 31 (Must-fix 2 and Also-fix): connection caps per client address, IPv6 grouped by /64, a
 * share of all connections kept for new addresses, the cap per forwarded client address behind a
 * trusted proxy (with a warning in the log), and the smaller findings of the same attack: key-shaped
 * text without its prefix in logged URLs, nosniff/HSTS on the HTTP parser's own answers.
 * Real servers on loopback; other client addresses are 127.0.0.x bound as the local address.
 */
import fc from "fast-check";
import * as fs from "node:fs";
import * as net from "node:net";
import { PassThrough } from "node:stream";
import * as tls from "node:tls";
import { createAccountWithKey } from "../../src/service/accounts";
import { addressGroup } from "../../src/service/connection-caps";
import { redactKeys } from "../../src/service/store/keys";
import { throwawayCertificate } from "../support/certificate";
import { closedByServer } from "../support/raw-http";
import { startQuietService, tempDir } from "./support";

// Each test starts real servers; on a busy machine the engine's load alone takes a while.
jest.setTimeout(180_000);

/** A log stream whose lines the test reads. */
function logSink() {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c) => (text += c));
  return { stream, text: () => text };
}

/** A TCP connection to the server from `localAddress` (127.0.0.x on Linux loopback). */
function connectFrom(port: number, localAddress: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: "127.0.0.1", localAddress }, () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Sends `request` over `socket`; resolves with the status, or null when the socket is closed. */
function send(socket: net.Socket, request: string): Promise<number | null> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (d) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    socket.on("close", () => resolve(null));
    socket.on("error", () => resolve(null));
    socket.write(request);
  });
}

/** Whether the server keeps the socket open for `ms` (it was admitted). */
function stillOpenAfter(socket: net.Socket, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(!socket.destroyed), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

const get = (target: string, headers = "") =>
  `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`;
/** A POST whose body never comes (with a valid key): in flight until the request timeout. */
const hanging = (key: string) => (forwardedFor: string) =>
  `POST /route-information/api/batch HTTP/1.1\r\nHost: localhost\r\nX-API-Key: ${key}\r\nX-Forwarded-For: ${forwardedFor}\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{`;

describe("addressGroup", () => {
  const hextet = fc.integer({ min: 0, max: 0xffff });
  const full = (h: number[]) => h.map((x) => x.toString(16)).join(":");
  /** The same address as the URL parser writes it (compressed, lower case). */
  const compressed = (h: number[]) => new URL(`http://[${full(h)}]/`).hostname.slice(1, -1);

  test("IPv4 as it is, IPv4-mapped IPv6 as its IPv4 address", () => {
    expect(addressGroup("203.0.113.7")).toBe("203.0.113.7");
    expect(addressGroup("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressGroup("::FFFF:127.0.0.1")).toBe("127.0.0.1");
  });

  test("IPv6 addresses of one /64 are one address however written; another /64 is another", () => {
    fc.assert(
      fc.property(
        fc.array(hextet, { minLength: 8, maxLength: 8 }),
        fc.array(hextet, { minLength: 4, maxLength: 4 }),
        fc.integer({ min: 0, max: 3 }),
        (a, tail, flip) => {
          const b = [...a.slice(0, 4), ...tail];
          expect(addressGroup(full(a))).toBe(addressGroup(compressed(b)));
          expect(addressGroup(compressed(a).toUpperCase())).toBe(addressGroup(full(b)));
          const other = [...a];
          other[flip] ^= 1;
          expect(addressGroup(compressed(other))).not.toBe(addressGroup(full(a)));
        }
      )
    );
    expect(addressGroup("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("2001:db8:1:2:ffff:ffff:ffff:fffe%eth0")).toBe("2001:db8:1:2::/64");
    expect(addressGroup("::1")).toBe("0:0:0:0::/64");
  });
});

describe("direct clients", () => {
  test("maxConnectionsPerIp per address; once all but the kept share are open, only new addresses get in; the log names the address", async () => {
    const log = logSink();
    const { running, store } = await startQuietService({
      optimizer: null,
      logStream: log.stream,
      config: {
        logLevel: "warn",
        maxConnections: 20,
        maxConnectionsPerIp: 3,
        connectionsKeptForNewAddresses: 14,
      },
    });
    const port = Number(new URL(running.url).port);
    const open: net.Socket[] = [];
    try {
      // 127.0.0.2: three admitted, the fourth closed (its cap).
      for (let i = 0; i < 3; i++) open.push(await connectFrom(port, "127.0.0.2"));
      const fourth = await connectFrom(port, "127.0.0.2");
      expect(await closedByServer(fourth)).toBe(true);
      expect(await send(open[0], get("/health"))).toBe(200);
      // 127.0.0.3: three more; 6 open = 20 − 14: the kept share begins.
      for (let i = 0; i < 3; i++) open.push(await connectFrom(port, "127.0.0.3"));
      // A second connection of an address already connected is refused now...
      open.push(await connectFrom(port, "127.0.0.4"));
      expect(await stillOpenAfter(open[6], 100)).toBe(true);
      const second = await connectFrom(port, "127.0.0.4");
      expect(await closedByServer(second)).toBe(true);
      // ...but each new address still gets one.
      for (const address of ["127.0.0.5", "127.0.0.6", "127.0.0.7"]) {
        const socket = await connectFrom(port, address);
        open.push(socket);
        expect(await send(socket, get("/health"))).toBe(200);
      }
      expect(log.text()).toContain(
        "client address 127.0.0.2 reached the cap of 3 open connections (maxConnectionsPerIp)"
      );
      expect(log.text()).toContain(
        "client address 127.0.0.4 reached the connections kept for new addresses (14 of maxConnections 20)"
      );
    } finally {
      for (const s of open) s.destroy();
      await running.close();
      await store.close();
    }
  });
});

describe("behind a trusted proxy", () => {
  test("the proxy's connections are not capped; requests in flight are capped per forwarded client address (IPv6 by /64), with a warning", async () => {
    const log = logSink();
    const { running, store } = await startQuietService({
      optimizer: null,
      logStream: log.stream,
      trustProxy: ["127.0.0.1/32"],
      config: { logLevel: "warn", maxConnectionsPerIp: 2 },
    });
    const port = Number(new URL(running.url).port);
    const hang = hanging((await createAccountWithKey(store, { credits: 10 })).key);
    const open: net.Socket[] = [];
    const fromProxy = async () => {
      const s = await connectFrom(port, "127.0.0.1");
      open.push(s);
      return s;
    };
    try {
      // Five connections from the proxy's address: far past the cap of 2, all admitted.
      for (let i = 0; i < 5; i++) await fromProxy();
      expect(await Promise.all(open.map((s) => stillOpenAfter(s, 100)))).toEqual(
        Array(5).fill(true)
      );
      // Two requests of 203.0.113.7 in flight (their bodies never come).
      void send(open[0], hang("203.0.113.7"));
      void send(open[1], hang("198.51.100.1, 203.0.113.7"));
      await new Promise((r) => setTimeout(r, 100));
      // A third from that client: 429 with Retry-After; other clients are answered.
      const third = await fromProxy();
      const answer = new Promise<string>((resolve) => {
        let text = "";
        third.on("data", (d) => (text += d));
        third.on("close", () => resolve(text));
      });
      third.write(get("/health", "X-Forwarded-For: 203.0.113.7\r\nConnection: close\r\n"));
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 429/);
      expect(text.toLowerCase()).toContain("retry-after: 1");
      expect(text).toContain("More than 2 requests at once from your address");
      expect(await send(open[2], get("/health", "X-Forwarded-For: 203.0.113.8\r\n"))).toBe(200);
      // IPv6: two in flight from one /64 hold the whole /64.
      void send(open[3], hang("2001:db8:1:2::1"));
      void send(open[4], hang("2001:db8:1:2:aaaa::9"));
      await new Promise((r) => setTimeout(r, 100));
      const v6 = await fromProxy();
      expect(await send(v6, get("/health", "X-Forwarded-For: 2001:db8:1:2::77\r\n"))).toBe(429);
      const v6other = await fromProxy();
      expect(await send(v6other, get("/health", "X-Forwarded-For: 2001:db8:1:3::77\r\n"))).toBe(
        200
      );
      // A client address that is itself trusted (a load test on the proxy's machine) is not capped.
      const local = await fromProxy();
      void send(local, hang("127.0.0.1"));
      const local2 = await fromProxy();
      void send(local2, hang("127.0.0.1"));
      const local3 = await fromProxy();
      expect(await send(local3, get("/health", "X-Forwarded-For: 127.0.0.1\r\n"))).toBe(200);
      expect(log.text()).toContain(
        "client address 203.0.113.7 reached the cap of 2 requests in flight (maxConnectionsPerIp)"
      );
      expect(log.text()).toContain("client address 2001:db8:1:2::/64 reached the cap");
    } finally {
      for (const s of open) s.destroy();
      await running.close();
      await store.close();
    }
  });

  test("a client reaching the instance directly cannot pose as forwarded: its X-Forwarded-For is ignored and its connections count", async () => {
    const { running, store } = await startQuietService({
      optimizer: null,
      trustProxy: ["127.0.0.1/32"],
      config: { maxConnectionsPerIp: 2 },
    });
    const port = Number(new URL(running.url).port);
    const open: net.Socket[] = [];
    try {
      for (let i = 0; i < 2; i++) open.push(await connectFrom(port, "127.0.0.9"));
      expect(await send(open[0], get("/health", "X-Forwarded-For: 203.0.113.50\r\n"))).toBe(200);
      const third = await connectFrom(port, "127.0.0.9");
      expect(await closedByServer(third)).toBe(true);
    } finally {
      for (const s of open) s.destroy();
      await running.close();
      await store.close();
    }
  });
});

describe("logs and parser errors", () => {
  test("a key pasted into a URL without its rs_ prefix is redacted in the request log; UUIDs and place names are not", async () => {
    const log = logSink();
    const { running, store } = await startQuietService({
      optimizer: null,
      logStream: log.stream,
      config: { logLevel: "info", logRequests: true },
    });
    const secret = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-AbCdE";
    const uuid = "f47ac10b-58cc-4372-a567-0e02b2c3d479";
    try {
      for (const target of [
        `/route-information/api/distance?origin=NLRTM&destination=DEHAM&key=${secret}`,
        `/route-information/api/distance?apikey=${encodeURIComponent(secret).replace(/A/g, "%41")}`,
        `/x/${secret}/y`,
        `/route-information/api/terminals?id=${uuid}&q=S%C3%A3o%20Paulo`,
      ])
        await (await fetch(running.url + target)).arrayBuffer();
      await new Promise((r) => setTimeout(r, 50));
      const text = log.text();
      expect(text).toContain("[REDACTED]");
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice(0, 20));
      expect(text).not.toContain(secret.slice(-20));
      expect(text).toContain(uuid);
      expect(text).toContain("S%C3%A3o%20Paulo");
    } finally {
      await running.close();
      await store.close();
    }
    expect(redactKeys(`/x?key=${secret}&a=1`)).toBe("/x?key=[REDACTED]&a=1");
    expect(redactKeys(`/x?key=rs_${secret}&a=1`)).toBe("/x?key=rs_[REDACTED]&a=1");
  });

  test("answers of the HTTP parser (malformed requests) carry nosniff, and HSTS over HTTPS", async () => {
    const dir = tempDir();
    const cert = throwawayCertificate(dir);
    const plain = await startQuietService({ optimizer: null });
    const secure = await startQuietService({ optimizer: null, tls: cert });
    const malformed = "GET / HTTP/1.1\r\nHost: localhost\r\nBad Header Line\r\n\r\n";
    const raw = (url: string) =>
      new Promise<string>((resolve, reject) => {
        const port = Number(new URL(url).port);
        const socket: net.Socket = url.startsWith("https:")
          ? tls.connect({ port, host: "127.0.0.1", rejectUnauthorized: false }, () =>
              socket.write(malformed)
            )
          : net.connect(port, "127.0.0.1", () => socket.write(malformed));
        let text = "";
        socket.on("data", (d) => (text += d));
        socket.on("error", reject);
        socket.on("close", () => resolve(text.toLowerCase()));
      });
    try {
      const overHttp = await raw(plain.running.url);
      expect(overHttp).toMatch(/^http\/1\.1 400/);
      expect(overHttp).toContain("x-content-type-options: nosniff");
      expect(overHttp).not.toContain("strict-transport-security");
      const overHttps = await raw(secure.running.url);
      expect(overHttps).toMatch(/^http\/1\.1 400/);
      expect(overHttps).toContain("x-content-type-options: nosniff");
      expect(overHttps).toContain("strict-transport-security: max-age=31536000");
    } finally {
      for (const s of [plain, secure]) {
        await s.running.close();
        await s.store.close();
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
