/** Token buckets per key as a plugin: the root gets the limiter and the default setting. */
import fp from "fastify-plugin";
import { RateLimitSetting } from "../config";
import { RateLimiter } from "../rate-limit/limiter";
import { MemoryRateLimiter } from "../rate-limit/memory";

declare module "fastify" {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
    defaultRateLimit: RateLimitSetting;
  }
}

export interface RateLimitPluginOptions {
  /** Shared buckets (Redis) or, by default, this process's memory. Closed with the app. */
  rateLimiter?: RateLimiter;
  defaultRate: RateLimitSetting;
}

export const rateLimitPlugin = fp(
  async (app, options: RateLimitPluginOptions) => {
    const limiter = options.rateLimiter ?? new MemoryRateLimiter();
    app.decorate("rateLimiter", limiter);
    app.decorate("defaultRateLimit", options.defaultRate);
    app.addHook("onClose", async () => limiter.close());
  },
  { name: "route-sheets-rate-limit", fastify: "5.x" }
);
