/**
 * Timing a whole child process: wall-clock seconds from spawn to exit, and the CPU seconds (user +
 * system) the child itself used, reported by a preloaded exit hook. On a shared machine the CPU
 * time is the steadier figure: it does not count the time the child waited for a core.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const MARK = "@@child-cpu-seconds";
const HOOK = `process.on("exit", () => { const u = process.cpuUsage(); require("fs").writeSync(2, "\\n${MARK} " + (u.user + u.system) / 1e6 + "\\n"); });\n`;

let hookFile: string | undefined;

function hook(): string {
  if (!hookFile) {
    hookFile = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), "route-sheets-bench-")),
      "cpu-hook.js"
    );
    fs.writeFileSync(hookFile, HOOK);
    process.on("exit", () => fs.rmSync(path.dirname(hookFile!), { recursive: true, force: true }));
  }
  return hookFile;
}

export interface ChildTime {
  /** Wall-clock seconds, spawn to exit. */
  s: number;
  /** CPU seconds the child used (user + system). */
  cpuS: number;
  out: string;
}

/** Runs `node <args>` to the end; throws with its stderr when it fails. */
export function timeNode(args: string[], env: NodeJS.ProcessEnv = process.env): ChildTime {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ["-r", hook(), ...args], {
    env,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} failed: ${r.stderr}`);
  const m = new RegExp(`${MARK} ([0-9.e+-]+)`).exec(r.stderr);
  return { s, cpuS: m ? Number(m[1]) : NaN, out: r.stdout };
}
