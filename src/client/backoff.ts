/** Waiting between attempts: `Retry-After` when the service sends one, else exponential backoff with jitter. */

export interface BackoffOptions {
  /** First delay ceiling in milliseconds. */
  baseMs: number;
  /** Largest delay in milliseconds, also the cap for `Retry-After`. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 250, maxMs: 10_000 };

/** Parses `Retry-After` (delta-seconds or an HTTP date) into milliseconds; undefined when absent or unreadable. */
export function parseRetryAfter(
  value: string | null | undefined,
  now = Date.now()
): number | undefined {
  if (value == null || value.trim() === "") return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before retry number `attempt` (0 = first retry): a random point in the upper half of
 * [0, base·2^attempt]. The jitter spreads clients refused at the same moment; the floor keeps
 * a retry from firing straight back.
 */
export function backoffDelayMs(
  attempt: number,
  retryAfter: string | null | undefined,
  options: BackoffOptions = DEFAULT_BACKOFF,
  random: () => number = Math.random,
  now = Date.now()
): number {
  const fromHeader = parseRetryAfter(retryAfter, now);
  if (fromHeader !== undefined) return Math.min(fromHeader, options.maxMs);
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
