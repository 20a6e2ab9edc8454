/**
 * HTTP/1.1 written by hand over real sockets to a test server on loopback: for what fetch() will
 * not send (`..` in a path, which it normalises away) or cannot show (connection slots, a TLS
 * handshake, a socket the server closes).
 */
import * as net from "node:net";
import * as tls from "node:tls";

export interface RawAnswer {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
  /** The answer as it came, status line first. */
  text: string;
}

/** A GET of `target` written as is (no URL normalisation); `extraHeaders` each end in \r\n. */
export function getRequest(target: string, extraHeaders = ""): string {
  return `GET ${target} HTTP/1.1\r\nHost: localhost\r\n${extraHeaders}\r\n`;
}

/** Opens a raw TCP connection to 127.0.0.1; resolves once connected. */
export function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => resolve(socket));
    socket.on("error", reject);
  });
}

/** Whether the server closes the socket (without the client ending it). */
export function closedByServer(socket: net.Socket): Promise<true> {
  return new Promise((resolve) => {
    socket.on("error", () => undefined);
    if (socket.destroyed) resolve(true);
    socket.on("close", () => resolve(true));
  });
}

/** One GET over an open socket, kept open; the status code, or null if the socket was closed. */
export function requestOver(socket: net.Socket, target: string): Promise<number | null> {
  return new Promise((resolve) => {
    let text = "";
    socket.on("data", (d) => {
      text += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (m) resolve(Number(m[1]));
    });
    socket.on("close", () => resolve(null));
    socket.on("error", () => resolve(null));
    socket.write(getRequest(target));
  });
}

/**
 * One GET on a connection of its own (`Connection: close`), read to the server's end and parsed.
 * An https: URL is asked over TLS, the certificate not checked (the tests' throwaway one).
 */
export function rawGet(url: string, target: string, extraHeaders = ""): Promise<RawAnswer> {
  const { protocol, port } = new URL(url);
  const request = getRequest(target, `${extraHeaders}Connection: close\r\n`);
  return new Promise((resolve, reject) => {
    const socket =
      protocol === "https:"
        ? tls.connect({ port: Number(port), host: "127.0.0.1", rejectUnauthorized: false }, () =>
            socket.write(request)
          )
        : net.connect(Number(port), "127.0.0.1", () => socket.write(request));
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk) => (text += chunk));
    socket.on("error", reject);
    socket.on("end", () => resolve(parseAnswer(text)));
  });
}

function parseAnswer(text: string): RawAnswer {
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  return {
    status: Number(statusLine.split(" ")[1]),
    headers,
    body: rest.join("\r\n\r\n"),
    text,
  };
}
