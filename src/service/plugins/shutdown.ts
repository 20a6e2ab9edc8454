/**
 * Shutdown within `shutdownMs`: searches still running then are abandoned (their requests answer
 * 503), and connections still open (slow clients) are destroyed.
 */
import fp from "fastify-plugin";
import { OptimizerRunner } from "../workers/optimizer-runner";

export const shutdownPlugin = fp(
  async (app, options: { shutdownMs: number; runner?: OptimizerRunner }) => {
    let stopped: Promise<void> = Promise.resolve();
    app.addHook("preClose", (done) => {
      const grace = options.shutdownMs;
      stopped = options.runner ? options.runner.close(grace) : Promise.resolve();
      setTimeout(() => app.server.closeAllConnections?.(), grace + 250).unref();
      done();
    });
    app.addHook("onClose", async () => {
      await stopped;
    });
  },
  { name: "route-sheets-shutdown", fastify: "5.x" }
);
