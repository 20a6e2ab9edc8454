/** Runs the real CLI (`node bin/route-sheets.js …`, the compiled dist/) as child processes. */
import { ChildProcess, execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");
export const BIN = path.join(ROOT, "bin", "route-sheets.js");

export function requireBuild(): void {
  if (!fs.existsSync(path.join(ROOT, "dist", "cli", "main.js")))
    throw new Error("dist/ is missing: run npm run build:node first");
}

export function cli(args: string[]): string {
  return execFileSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
}

export function createKey(dataDir: string, args: string[] = []): string {
  const lines = cli(["keys", "create", "--data-dir", dataDir, ...args])
    .trimEnd()
    .split("\n");
  return lines[lines.length - 1];
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
}

/**
 * Starts `serve --port 0` and resolves with the URL it prints; a server not listening within
 * `startTimeoutMs` is killed and the promise rejects with the end of its stderr.
 */
export function serve(
  dataDir: string,
  extra: string[] = [],
  startTimeoutMs = 60_000
): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      "serve",
      "--port",
      "0",
      "--data-dir",
      dataDir,
      "--log-level",
      "warn",
      "--no-request-log",
      ...extra,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }
  );
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`serve did not start within ${startTimeoutMs / 1000} s: ${err}`));
    }, startTimeoutMs);
    child.stderr!.on("data", (c) => (err = (err + c).slice(-4000)));
    child.stdout!.on("data", (c) => {
      out += c;
      const m = /Listening on (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1] });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}: ${err}`));
    });
  });
}

export function kill(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}
