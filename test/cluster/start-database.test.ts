/**
 * `start` is serve with local defaults and honours DATABASE_URL (issue 30.1): on a shared
 * PostgreSQL database it makes no local account (no 1,000,000-credit key in a team's database),
 * and the add-in's Id it serves is the database's.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Pool } from "pg";
import { BIN, kill, requireBuild, ROOT } from "../service/child";
import { tempDir } from "../service/support";
import { throwawayCertificate } from "../support/certificate";
import { PostgresServer, startPostgres } from "../support/servers";

let postgres: PostgresServer;

beforeAll(async () => {
  requireBuild();
  postgres = await startPostgres();
}, 120_000);

afterAll(async () => {
  await postgres?.stop();
});

test("start with DATABASE_URL: that database's accounts (none created), its add-in Id in the manifest", async () => {
  const database = await postgres.createDatabase("start");
  const home = tempDir();
  const { cert, key } = throwawayCertificate(home);
  const child = spawn(
    process.execPath,
    [
      BIN,
      "start",
      "--port",
      "0",
      "--host",
      "127.0.0.1",
      "--data-dir",
      path.join(home, "data"),
      "--cert",
      cert,
      "--key",
      key,
    ],
    {
      cwd: ROOT,
      env: { ...process.env, HOME: home, DATABASE_URL: database },
      stdio: ["ignore", "pipe", "pipe"],
    }
  );
  try {
    const out = await new Promise<string>((resolve, reject) => {
      let text = "";
      child.stdout!.on("data", (c) => {
        text += c;
        if (text.includes("Accounts are those of the database") || /\nrs_\S+\n$/.test(text))
          resolve(text);
      });
      child.on("exit", (code) => reject(new Error(`start exited with ${code}`)));
    });
    expect(out).toContain("route-sheets keys create --database");
    expect(out).not.toMatch(/^rs_/m);
    const pool = new Pool({ connectionString: database });
    try {
      expect((await pool.query("SELECT COUNT(*)::int AS n FROM accounts")).rows[0].n).toBe(0);
      const id = (await pool.query("SELECT addin_id FROM addin_identity")).rows[0].addin_id;
      const saved = fs.readFileSync(path.join(home, "data", "manifest.xml"), "utf8");
      expect(/<Id>([^<]+)<\/Id>/.exec(saved)![1]).toBe(id);
    } finally {
      await pool.end();
    }
  } finally {
    await kill(child, "SIGTERM");
    fs.rmSync(home, { recursive: true, force: true });
  }
}, 180_000);
