/**
 * Real PostgreSQL, Redis and nginx servers for tests and the cluster benchmark, started from the
 * Debian packages on free loopback ports in a temp directory and stopped by the caller. Plain
 * CommonJS (types in servers.d.ts) so the compiled benchmark can load it too. A server that cannot
 * start rejects with the reason and its log: tests fail, never skip.
 */
const { spawn, execFileSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const os = require("node:os");
const path = require("node:path");

const PG_BIN = process.env.PG_BIN || findPgBin();
/** nginx lives in /usr/sbin, which a non-root PATH often lacks. */
const NGINX =
  process.env.NGINX_BIN || (fs.existsSync("/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx");

function findPgBin() {
  const root = "/usr/lib/postgresql";
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, "bin", "postgres")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  return versions.length ? path.join(root, versions[0], "bin") : "";
}

/** A TCP port free on 127.0.0.1 right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts TCP connections on the port; rejects when `failed()` says why. */
async function waitForPort(port, timeoutMs, failed) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Child processes still running when this process exits are killed (no orphans after a crash). */
const children = new Set();
/** Postmaster pids: runuser does not pass signals on, so PostgreSQL is signalled directly. */
const postmasters = new Set();
process.once("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const pid of postmasters) {
    try {
      process.kill(pid, "SIGQUIT");
    } catch {
      // already gone
    }
  }
});

function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

function stopChild(child, signal = "SIGTERM", timeoutMs = 10_000) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

function collect(child) {
  const log = { text: "" };
  const add = (chunk) => {
    log.text = (log.text + chunk).slice(-8000);
  };
  child.stdout && child.stdout.on("data", add);
  child.stderr && child.stderr.on("data", add);
  return log;
}

/**
 * PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user (runuser)
 * and the temp directory is handed to that user.
 */
function asPostgres(command, args) {
  const bin = path.join(PG_BIN, command);
  if (process.getuid && process.getuid() === 0)
    return ["runuser", ["-u", "postgres", "--", bin, ...args]];
  return [bin, args];
}

async function startPostgres(options = {}) {
  if (!PG_BIN || !fs.existsSync(path.join(PG_BIN, "initdb")))
    throw new Error(
      "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (install the Debian package postgresql, or set PG_BIN)"
    );
  const dir = tempDir("route-sheets-pg-");
  const dataDir = path.join(dir, "data");
  if (process.getuid && process.getuid() === 0) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    fs.chownSync(dir, uid, gid);
  }
  const [initdb, initArgs] = asPostgres("initdb", [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "-A",
    "trust",
    "-E",
    "UTF8",
    "--locale=C",
    "--no-sync",
  ]);
  try {
    execFileSync(initdb, initArgs, { stdio: ["ignore", "pipe", "pipe"], cwd: dir });
  } catch (e) {
    throw new Error(`initdb failed: ${e.stderr ? e.stderr.toString() : e.message}`);
  }
  const port = await freePort();
  const settings = [
    "listen_addresses=127.0.0.1",
    `unix_socket_directories=${dir}`,
    "max_connections=200",
    "shared_buffers=64MB",
    // Tests kill service instances, never PostgreSQL: its own durability is not under test.
    ...(options.durable ? [] : ["fsync=off", "synchronous_commit=off", "full_page_writes=off"]),
  ];
  const [postgres, args] = asPostgres("postgres", [
    "-D",
    dataDir,
    "-p",
    String(port),
    ...settings.flatMap((s) => ["-c", s]),
  ]);
  const child = track(spawn(postgres, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] }));
  const log = collect(child);
  let exited = null;
  child.once(
    "exit",
    (code, signal) => (exited = `postgres exited (${code ?? signal}): ${log.text}`)
  );
  const base = `postgres://postgres@127.0.0.1:${port}`;
  try {
    await waitForPort(port, 30_000, () => exited);
    await waitForQuery(`${base}/postgres`, 30_000, () => exited);
  } catch (e) {
    await stopChild(child, "SIGKILL");
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`PostgreSQL did not start: ${e.message}\n${log.text}`);
  }
  const pid = postmasterPid(dataDir);
  if (pid) postmasters.add(pid);
  let databases = 0;
  return {
    pid,
    port,
    url: `${base}/postgres`,
    /** A new empty database; resolves with its URL. */
    async createDatabase(prefix = "rs") {
      const name = `${prefix}_${process.pid}_${++databases}`;
      await query(`${base}/postgres`, `CREATE DATABASE ${name}`);
      return `${base}/${name}`;
    },
    async stop() {
      // SIGINT to the postmaster itself (runuser does not pass it on): fast shutdown.
      postmasters.delete(pid);
      if (pid) {
        try {
          process.kill(pid, "SIGINT");
        } catch {
          // already gone
        }
      }
      await stopChild(child, "SIGINT", 15_000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postmasterPid(dataDir) {
  try {
    return (
      Number(fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]) || 0
    );
  } catch {
    return 0;
  }
}

async function query(url, sql) {
  const { Client } = require("pg");
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

async function waitForQuery(url, timeoutMs, failed) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const why = failed();
    if (why) throw new Error(why);
    try {
      await query(url, "SELECT 1");
      return;
    } catch (e) {
      // "the database system is starting up" until recovery is done
      if (Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

async function startRedis() {
  const port = await freePort();
  const dir = tempDir("route-sheets-redis-");
  let child;
  try {
    child = track(
      spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--save",
          "",
          "--appendonly",
          "no",
          "--dir",
          dir,
        ],
        { stdio: ["ignore", "pipe", "pipe"] }
      )
    );
  } catch (e) {
    throw new Error(
      `redis-server could not be started (install the Debian package redis-server): ${e.message}`
    );
  }
  const log = collect(child);
  let exited = null;
  child.once(
    "error",
    (e) =>
      (exited = `redis-server could not be started (install the Debian package redis-server): ${e.message}`)
  );
  child.once(
    "exit",
    (code, signal) => (exited = `redis-server exited (${code ?? signal}): ${log.text}`)
  );
  try {
    await waitForPort(port, 15_000, () => exited);
  } catch (e) {
    await stopChild(child, "SIGKILL");
    throw new Error(`Redis did not start: ${e.message}`);
  }
  return {
    pid: child.pid,
    port,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await stopChild(child, "SIGTERM");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * nginx balancing over `upstreams` (host:port), with a generated configuration in a temp prefix
 * directory (pid, logs, temp files there), in the foreground (daemon off) so stopping the child
 * stops it. `configure(upstreams)` may replace the http block body for special cases.
 */
async function startNginx(upstreams, options = {}) {
  const port = await freePort();
  const dir = tempDir("route-sheets-nginx-");
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(
    conf,
    nginxConfig({ port, dir, upstreams, workers: options.workers || 1, tls: options.tls })
  );
  let child;
  child = track(
    spawn(NGINX, ["-p", dir, "-c", conf, "-e", path.join(dir, "error.log")], {
      stdio: ["ignore", "pipe", "pipe"],
    })
  );
  const log = collect(child);
  let exited = null;
  child.once(
    "error",
    (e) => (exited = `nginx could not be started (install the Debian package nginx): ${e.message}`)
  );
  child.once("exit", (code, signal) => {
    const errors = fs.existsSync(path.join(dir, "error.log"))
      ? fs.readFileSync(path.join(dir, "error.log"), "utf8")
      : "";
    exited = `nginx exited (${code ?? signal}): ${log.text}${errors}`;
  });
  try {
    await waitForPort(port, 15_000, () => exited);
  } catch (e) {
    await stopChild(child, "SIGKILL");
    throw new Error(`nginx did not start: ${e.message}`);
  }
  return {
    pid: child.pid,
    port,
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${port}`,
    errorLog: () => fs.readFileSync(path.join(dir, "error.log"), "utf8"),
    async stop() {
      // SIGQUIT: graceful shutdown of the master and its workers.
      await stopChild(child, "SIGQUIT");
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The nginx configuration of docs/deploy.md, with paths and ports of a test run. */
function nginxConfig({ port, dir, upstreams, workers, tls }) {
  const user = process.getuid && process.getuid() === 0 ? "user nobody nogroup;\n" : "";
  return `${user}daemon off;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream route_sheets {
    least_conn;
${upstreams.map((u) => `    server ${u} max_fails=1 fail_timeout=5s;`).join("\n")}
    keepalive 64;
    # Below the instances' keep-alive timeout (5 s): nginx never reuses a connection they are closing.
    keepalive_timeout 4s;
  }
  server {
    listen 127.0.0.1:${port}${tls ? " ssl" : ""};
${tls ? `    ssl_certificate ${tls.cert};\n    ssl_certificate_key ${tls.key};\n` : ""}    # As docs/deploy.md: a client is not made to reconnect every 1,000 requests (load generators
    # race their next request against that close and count a connection reset).
    keepalive_requests 100000;
    location / {
      proxy_pass http://route_sheets;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Request-Id $request_id;
      proxy_next_upstream error timeout http_502 http_503;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      proxy_read_timeout 60s;
      # Which instance answered (tests count the spread).
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}

module.exports = { freePort, startPostgres, startRedis, startNginx, nginxConfig, waitForPort };
