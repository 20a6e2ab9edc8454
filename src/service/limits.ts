/**
 * Limits that keep one client from taking the server away from the others (connection caps: see
 * connection-caps.ts): TLS handshakes that never finish, deeply nested JSON, the idempotency table's growth,
 * and (for logs) key-shaped text. Each is a small function `buildApp` applies.
 */
import { FastifyError, FastifyInstance } from "fastify";
import { BlockList, isIPv4, isIPv6, Server as NetServer, Socket } from "node:net";
import { redactKeys } from "./store/keys";
import { Store } from "./store/store";

/** `a.b.c.d/n`, `a.b.c.d`, `v6::/n` or `v6::` as a BlockList; throws a message naming --trust-proxy. */
export function addressList(cidrs: readonly string[]): BlockList {
  const list = new BlockList();
  for (const raw of cidrs) {
    const [address, bits, extra] = raw.trim().split("/");
    const type = isIPv4(address) ? "ipv4" : isIPv6(address) ? "ipv6" : undefined;
    const max = type === "ipv4" ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!type || extra !== undefined || !/^\d+$/.test(bits ?? String(max)) || prefix > max)
      throw new Error(
        `--trust-proxy must be an IP address or CIDR such as 127.0.0.1/32, 10.0.0.0/8 or ::1/128; got "${raw}".`
      );
    list.addSubnet(address, prefix, type);
  }
  return list;
}

/** Whether a socket's peer address is in the list (IPv4-mapped IPv6 addresses count as IPv4). */
export function isListed(list: BlockList, address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return list.check(mapped[1], "ipv4");
  return list.check(address, isIPv4(address) ? "ipv4" : "ipv6");
}

/**
 * HTTPS: a connection whose TLS handshake has not finished `ms` after it was accepted (e.g. it
 * never sends a ClientHello) is closed; Node's own handshake timeout starts only with the
 * ClientHello's first bytes.
 */
export function guardHandshakes(server: NetServer, ms: number): void {
  const pending = new WeakMap<Socket, NodeJS.Timeout>();
  server.on("connection", (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    pending.set(socket, timer);
    socket.once("close", () => clearTimeout(timer));
  });
  server.on("secureConnection", (tlsSocket: Socket & { _parent?: Socket }) => {
    // The TLS socket wraps the accepted one (its _parent when wrapped by the server).
    const raw = tlsSocket._parent ?? tlsSocket;
    const timer = pending.get(raw) ?? pending.get(tlsSocket);
    if (timer) clearTimeout(timer);
  });
}

/** Deepest nesting of arrays and objects a JSON body may have (a batch needs 3). */
export const MAX_JSON_DEPTH = 32;

/** Nesting depth of JSON text (strings skipped), without parsing it. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * application/json bodies through Fastify's own (prototype-poisoning-safe) parser, after a depth
 * check: deeply nested JSON is a 400 naming the limit, never a stack overflow further on.
 */
export function acceptJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      const err = new Error(
        `JSON nested deeper than ${MAX_JSON_DEPTH} levels; a batch is {"requests": [{…}, …]}.`
      ) as FastifyError;
      err.statusCode = 400;
      done(err, undefined);
      return;
    }
    parse(request, text, done);
  });
}

/** Deletes expired Idempotency-Key records every `everyMs` (and once at start), until the app closes. */
export function purgeIdempotencyKeys(app: FastifyInstance, store: Store, everyMs: number): void {
  const purge = () =>
    store.purgeIdempotencyKeys(Date.now()).catch((e: Error) => {
      app.log.warn(`purging expired Idempotency-Keys failed: ${e.message}`);
      return 0;
    });
  let timer: NodeJS.Timeout | undefined;
  app.addHook("onReady", async () => {
    void purge();
    timer = setInterval(() => void purge(), everyMs);
    timer.unref();
  });
  app.addHook("onClose", async () => clearInterval(timer));
}

/** pino's logMethod hook: key-shaped text in message strings and error messages is redacted. */
export function redactLogArguments(
  this: unknown,
  args: unknown[],
  method: (...a: unknown[]) => void
): void {
  const clean = args.map((a) => {
    if (typeof a === "string") return redactKeys(a);
    if (a instanceof Error) {
      a.message = redactKeys(a.message);
      return a;
    }
    if (a && typeof a === "object" && "err" in a && (a as { err: unknown }).err instanceof Error) {
      const err = (a as { err: Error }).err;
      err.message = redactKeys(err.message);
    }
    return a;
  });
  method.apply(this, clean);
}
