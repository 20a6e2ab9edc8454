/**
 * Request loggers made on first use. Fastify gives every request a child of the root logger
 * (bound to its request id); building a pino child costs a few microseconds per request, paid by
 * every request although almost none logs anything (request logging off, level warn). This
 * stand-in holds the parent and the bindings, and builds the real child only when a message at
 * an enabled level is written (or a child or level is asked for), so logged lines are the same.
 */
import type { FastifyBaseLogger } from "fastify";

type Bindings = Record<string, unknown>;
/** pino's child options (level, serializers…). */
type ChildLoggerOptions = { level?: string } & Record<string, unknown>;

type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/** A logger that also says which levels it writes (pino's loggers do). */
type ParentLogger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

class LazyRequestLogger {
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: ParentLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions
  ) {}

  private real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options as never));
  }

  /** Whether a message at `level` would be written: without a level of its own, the parent's. */
  private writes(level: Level): boolean {
    if (this.#child || this.options.level !== undefined || !this.parent.isLevelEnabled) return true;
    return this.parent.isLevelEnabled(level);
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.writes(level)) return;
    const logger = this.real() as unknown as Record<Level, (...a: unknown[]) => void>;
    logger[level](...args);
  }

  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
  silent(): void {}

  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    const real = this.#child as ParentLogger | undefined;
    if (real?.isLevelEnabled) return real.isLevelEnabled(level);
    return this.writes(level as Level);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options as never);
  }
}

/** Fastify's `childLoggerFactory`: the request's logger, built when first written to. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions
): FastifyBaseLogger {
  return new LazyRequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;
}
