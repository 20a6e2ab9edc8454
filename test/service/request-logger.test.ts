/**
 * Request loggers built on first use write exactly what pino's own child logger writes, at every
 * level of the root and of the child.
 */
import * as fc from "fast-check";
import Fastify from "fastify";
import type { FastifyBaseLogger } from "fastify";
import { lazyRequestLogger } from "../../src/service/request-logger";

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;

/** A root logger as the service builds it (Fastify's pino), writing into `lines`. */
function collecting(level: string): { logger: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  // No timestamp, so the two loggers' lines compare as text.
  const logger = Fastify({
    logger: {
      level,
      timestamp: false,
      base: undefined,
      stream: { write: (line: string) => lines.push(line) },
    },
  }).log;
  return { logger, lines };
}

test("same lines as pino's child, whatever the levels and messages", () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...LEVELS, "silent"),
      fc.option(fc.constantFrom(...LEVELS), { nil: undefined }),
      fc.array(fc.tuple(fc.constantFrom(...LEVELS), fc.string({ maxLength: 12 })), {
        maxLength: 12,
      }),
      (rootLevel, childLevel, messages) => {
        const a = collecting(rootLevel);
        const b = collecting(rootLevel);
        const options = childLevel ? { level: childLevel } : {};
        const real = a.logger.child({ reqId: "req-1" }, options);
        const lazy = lazyRequestLogger(b.logger, { reqId: "req-1" }, options);
        expect(lazy.level).toBe(real.level);
        for (const [level, msg] of messages) {
          real[level]({ n: msg.length }, msg);
          lazy[level]({ n: msg.length }, msg);
        }
        expect(b.lines).toEqual(a.lines);
        if (messages.length)
          expect(b.lines.every((l) => JSON.parse(l).reqId === "req-1")).toBe(true);
      }
    )
  );
});
