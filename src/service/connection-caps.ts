/**
 * Caps that keep one client from holding the server: open connections per client address, a share
 * of all connections kept free for addresses not yet connected, and, behind a trusted proxy (whose
 * connections every client shares), requests in flight per forwarded client address.
 *
 * A client address is an IPv4 address, or an IPv6 /64: one host usually owns a whole /64, so
 * counting exact IPv6 addresses would leave it 2^64 caps.
 */
import { FastifyBaseLogger, FastifyInstance } from "fastify";
import { isIPv4, isIPv6, Server as NetServer, Socket } from "node:net";
import { ServiceConfig } from "./config";
import { addressList, isListed } from "./limits";
import { ServiceProblem } from "./problem";

/** The address a cap counts: IPv4 (IPv4-mapped IPv6 too) as it is, IPv6 by its /64 prefix. */
export function addressGroup(address: string | undefined): string {
  if (!address) return "";
  const plain = address.replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1];
  if (isIPv4(plain) || !isIPv6(plain)) return plain;
  return ipv6Hextets(plain).slice(0, 4).join(":") + "::/64";
}

/** The eight 16-bit groups of an IPv6 address, lower-case hex without leading zeros. */
function ipv6Hextets(address: string): string[] {
  let text = address.toLowerCase();
  // An embedded IPv4 tail (::1.2.3.4) is two groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text =
      text.slice(0, v4.index) + ((a << 8) | b).toString(16) + ":" + ((c << 8) | d).toString(16);
  }
  const [head, tail] = text.split("::");
  const front = head ? head.split(":") : [];
  const back = tail === undefined ? [] : tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array(8 - front.length - back.length).fill("0");
  return [...front, ...zeros, ...back].map((h) => parseInt(h, 16).toString(16));
}

export type CapSettings = Pick<
  ServiceConfig,
  "maxConnections" | "maxConnectionsPerIp" | "connectionsKeptForNewAddresses"
>;

/** One warning per address and minute at most: a client at its cap keeps hitting it. */
function capWarner(log: () => FastifyBaseLogger | undefined) {
  const warned = new Map<string, number>();
  return (address: string, what: string) => {
    const now = Date.now();
    if ((warned.get(address) ?? 0) > now - 60_000) return;
    if (warned.size > 10_000) warned.clear();
    warned.set(address, now);
    log()?.warn(`client address ${address} reached ${what}; more are refused until some close`);
  };
}

/**
 * Open connections per client address, counted at TCP accept (before any TLS): one more than
 * `maxConnectionsPerIp` is closed at once. Once all but `connectionsKeptForNewAddresses` of
 * `maxConnections` are open, only addresses with no open connection are admitted, so a few busy
 * addresses cannot fill the server. Connections from trusted proxies are not capped here (every
 * client behind them shares them; see `limitForwardedClients`) but count in the total.
 */
export function limitConnections(
  server: NetServer,
  config: CapSettings,
  trustedProxies: readonly string[],
  log: () => FastifyBaseLogger | undefined = () => undefined
): void {
  const exempt = addressList(trustedProxies);
  const open = new Map<string, number>();
  const warn = capWarner(log);
  const reserveFrom = Math.max(0, config.maxConnections - config.connectionsKeptForNewAddresses);
  let total = 0;
  server.on("connection", (socket: Socket) => {
    total++;
    socket.once("close", () => total--);
    const ip = socket.remoteAddress;
    if (isListed(exempt, ip)) return;
    const group = addressGroup(ip);
    const n = open.get(group) ?? 0;
    if (n >= config.maxConnectionsPerIp) {
      warn(
        group,
        `the cap of ${config.maxConnectionsPerIp} open connections (maxConnectionsPerIp)`
      );
      socket.destroy();
      return;
    }
    if (n > 0 && total > reserveFrom) {
      warn(
        group,
        `the connections kept for new addresses (${config.connectionsKeptForNewAddresses} of maxConnections ${config.maxConnections})`
      );
      socket.destroy();
      return;
    }
    open.set(group, n + 1);
    socket.once("close", () => {
      const left = (open.get(group) ?? 1) - 1;
      if (left > 0) open.set(group, left);
      else open.delete(group);
    });
  });
}

/**
 * Behind a trusted proxy, the cap applies to each forwarded client address (the request's IP as
 * the trusted X-Forwarded-For gives it): at most `maxConnectionsPerIp` of its requests in flight on
 * this instance; one more answers 429 with Retry-After. A client address that is itself trusted
 * (the proxy's own, or a load test on the proxy's machine) is not capped.
 */
export function limitForwardedClients(
  app: FastifyInstance,
  config: CapSettings,
  trustedProxies: readonly string[]
): void {
  if (!trustedProxies.length) return;
  const trusted = addressList(trustedProxies);
  /**
   * Per proxy connection, the client its last X-Forwarded-For named: a proxy's connection carries
   * one client's requests after another, often the same one, and working out the address
   * (proxy-addr walking the header, a BlockList check) costs microseconds every request would pay.
   */
  const lastClient = new WeakMap<Socket, { header: unknown; group: string | null }>();
  const notProxied = { header: undefined, group: null };
  const inFlight = new Map<string, number>();
  const warn = capWarner(() => app.log);
  // Callback hooks: no promise per request on the path every proxied request takes.
  app.addHook("onRequest", (request, reply, done) => {
    const socket = request.raw.socket;
    // Injected requests (tests, start's saved manifest) have no real socket.
    if (!socket) return done();
    const header = request.headers["x-forwarded-for"];
    let last = lastClient.get(socket);
    if (last === undefined) {
      last = isListed(trusted, socket.remoteAddress) ? { header: {}, group: null } : notProxied;
      lastClient.set(socket, last);
    }
    if (last === notProxied) return done();
    if (last.header !== header) {
      // null: a client that is itself trusted (the proxy's own address, a test on its machine).
      last.group = isListed(trusted, request.ip) ? null : addressGroup(request.ip);
      last.header = header;
    }
    const group = last.group;
    if (group === null) return done();
    const n = inFlight.get(group) ?? 0;
    if (n >= config.maxConnectionsPerIp) {
      warn(
        group,
        `the cap of ${config.maxConnectionsPerIp} requests in flight (maxConnectionsPerIp)`
      );
      return done(
        new ServiceProblem(
          "Too Many Requests",
          `More than ${config.maxConnectionsPerIp} requests at once from your address (maxConnectionsPerIp); wait for answers before sending more.`,
          undefined,
          { "retry-after": "1" }
        )
      );
    }
    inFlight.set(group, n + 1);
    reply.raw.once("close", () => {
      const left = (inFlight.get(group) ?? 1) - 1;
      if (left > 0) inFlight.set(group, left);
      else inFlight.delete(group);
    });
    done();
  });
}
