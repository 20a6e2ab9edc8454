/**
 * Headers every answer gets: its request id, nosniff, HSTS on HTTPS, and `Connection: close`
 * after an early error.
 */
import fp from "fastify-plugin";
import * as tls from "node:tls";

export const answerHeadersPlugin = fp(
  async (app) => {
    const https = app.server instanceof tls.Server;
    // A callback hook, not an async one: no promise and no microtask on every answer.
    app.addHook("onSend", (request, reply, payload, done) => {
      reply.header("request-id", request.id);
      // Answers are what their Content-Type says (no sniffing a JSON answer into a script).
      reply.header("x-content-type-options", "nosniff");
      // Served over HTTPS: browsers keep to HTTPS for this host.
      if (https) reply.header("strict-transport-security", "max-age=31536000");
      // An error answered before the request body was read (401, 403, 429…): close the
      // connection, so a client trickling its body cannot keep it open.
      if (reply.statusCode >= 400 && !request.raw.complete) reply.header("connection", "close");
      done(null, payload);
    });
  },
  { name: "route-sheets-answer-headers", fastify: "5.x" }
);
