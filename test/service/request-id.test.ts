/**
 * requestIdFrom: the header's id is used only when it is well-formed and the request's connection
 * comes from a trusted proxy, on every request of a connection (the decision is kept per socket).
 */
import fc from "fast-check";
import { IncomingMessage } from "node:http";
import { Socket } from "node:net";
import { addressList, isListed } from "../../src/service/limits";
import { requestIdFrom } from "../../src/service/server";

const TRUSTED = ["127.0.0.1/32", "10.0.0.0/8", "::1/128"];

const address = fc.oneof(
  fc.ipV4(),
  fc.ipV4().map((a) => `::ffff:${a}`),
  fc.constantFrom("127.0.0.1", "::ffff:127.0.0.1", "::1", "10.1.2.3", "192.168.0.1", "2001:db8::1")
);
const headerValue = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._:-]{8,40}$/),
  fc.string({ maxLength: 12 }),
  fc.constant(undefined)
);

function request(socket: Socket, id: string | undefined): IncomingMessage {
  return { headers: id === undefined ? {} : { "x-request-id": id }, socket } as IncomingMessage;
}

test("the header's id is used exactly when it is well-formed and the peer is a trusted proxy, request after request", () => {
  const trusted = addressList(TRUSTED);
  fc.assert(
    fc.property(
      fc.array(fc.record({ peer: address, ids: fc.array(headerValue, { maxLength: 5 }) }), {
        minLength: 1,
        maxLength: 6,
      }),
      (connections) => {
        const genReqId = requestIdFrom("X-Request-Id", TRUSTED)!;
        for (const { peer, ids } of connections) {
          const socket = { remoteAddress: peer } as Socket;
          for (const id of ids) {
            const got = genReqId(request(socket, id));
            const expected =
              id !== undefined && /^[A-Za-z0-9._:-]{8,128}$/.test(id) && isListed(trusted, peer);
            if (expected) expect(got).toBe(id);
            else expect(got).toMatch(/^[0-9a-f-]{36}$/);
          }
        }
      }
    )
  );
});

test("without a header name there is no generator; without trusted proxies every id is fresh", () => {
  expect(requestIdFrom(undefined, TRUSTED)).toBeUndefined();
  const genReqId = requestIdFrom("x-request-id", [])!;
  const socket = { remoteAddress: "127.0.0.1" } as Socket;
  const a = genReqId(request(socket, "abcdefgh-1234"));
  const b = genReqId(request(socket, "abcdefgh-1234"));
  expect(a).not.toBe("abcdefgh-1234");
  expect(a).not.toBe(b);
});
