/** Headers every answer gets: its request id, and `Connection: close` after an early error. */
import fp from "fastify-plugin";

export const answerHeadersPlugin = fp(
  async (app) => {
    app.addHook("onSend", async (request, reply) => {
      reply.header("request-id", request.id);
      // An error answered before the request body was read (401, 403, 429…): close the
      // connection, so a client trickling its body cannot keep it open.
      if (reply.statusCode >= 400 && !request.raw.complete) reply.header("connection", "close");
    });
  },
  { name: "route-sheets-answer-headers", fastify: "5.x" }
);
