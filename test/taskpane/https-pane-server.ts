/**
 * `route-sheets start` over HTTPS with a throwaway certificate, on a free loopback port whose
 * `https://localhost:<port>` is the public URL the pane is served from: the server the pane's
 * browser tests share.
 */
import * as fs from "node:fs";
import { ServerProcess, startServer } from "../../src/bench/addin-harness";
import { throwawayCertificate } from "../support/certificate";
import { freePort } from "../support/servers";

export interface HttpsPaneServer {
  server: ServerProcess;
  /** The pane's origin (the server's --public-url). */
  origin: string;
  /** The certificate, to trust in Node's own requests to the server. */
  ca: Buffer;
}

export async function startHttpsPaneServer(dataDir: string): Promise<HttpsPaneServer> {
  const { cert, key } = throwawayCertificate(dataDir);
  const port = await freePort();
  const origin = `https://localhost:${port}`;
  const server = await startServer(dataDir, "start", [
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--cert",
    cert,
    "--key",
    key,
    "--public-url",
    origin,
  ]);
  return { server, origin, ca: fs.readFileSync(cert) };
}
