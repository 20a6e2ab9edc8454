/** Types of servers.js: real PostgreSQL, Redis and nginx on loopback for tests and benchmarks. */
export interface PostgresServer {
  /** The postmaster (its backends are its children). */
  pid: number;
  port: number;
  /** URL of the `postgres` maintenance database. */
  url: string;
  /** Creates an empty database and resolves with its URL. */
  createDatabase(prefix?: string): Promise<string>;
  stop(): Promise<void>;
}

export interface RedisServer {
  pid: number;
  port: number;
  url: string;
  stop(): Promise<void>;
}

export interface NginxServer {
  /** The master (its workers are its children). */
  pid: number;
  port: number;
  url: string;
  errorLog(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number>;
/** `durable`: keep fsync and synchronous commits on (benchmarks); tests turn them off. */
export function startPostgres(options?: { durable?: boolean }): Promise<PostgresServer>;
export function startRedis(): Promise<RedisServer>;
/** `tls`: terminate TLS with this certificate (the url is then https://). */
export function startNginx(
  upstreams: string[],
  options?: { workers?: number; tls?: { cert: string; key: string } }
): Promise<NginxServer>;
export function nginxConfig(options: {
  port: number;
  dir: string;
  upstreams: string[];
  workers: number;
  tls?: { cert: string; key: string };
}): string;
export function waitForPort(
  port: number,
  timeoutMs: number,
  failed: () => string | null
): Promise<void>;
