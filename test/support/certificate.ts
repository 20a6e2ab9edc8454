/** A throwaway TLS certificate for the tests that serve HTTPS. */
import { execFileSync } from "node:child_process";
import path from "node:path";

/** A self-signed certificate for localhost and 127.0.0.1, valid one day, written into `dir`. */
export function throwawayCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
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
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" }
  );
  return { cert, key };
}
