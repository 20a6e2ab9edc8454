/**
 * Sends HTTP requests politely and boundedly: a concurrency cap, a minimum gap between request
 * starts, a timeout per attempt (AbortController), retries with backoff for 429, 5xx and network
 * failures, and a pause shared by all requests after a 429. Never waits past the caller's deadline.
 */
import { backoffDelayMs, BackoffOptions, DEFAULT_BACKOFF, sleep as realSleep } from "./backoff";
import { ApiError, timedOut, unavailable } from "./errors";

/** The part of a fetch Response the client reads. */
export interface ResponseLike {
  status: number;
  statusText?: string;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}

export interface RequestInitLike {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export type FetchLike = (url: string, init: RequestInitLike) => Promise<ResponseLike>;

export interface HttpRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface HttpAnswer {
  status: number;
  statusText: string;
  /** Parsed JSON; the raw text when it is not JSON; null when empty. */
  body: unknown;
  retryAfter: string | null;
}

export interface TransportOptions {
  fetch: FetchLike;
  /** Requests in flight at once. */
  concurrency: number;
  /** Minimum milliseconds between two request starts. */
  minIntervalMs: number;
  /** Timeout of one attempt. */
  requestTimeoutMs: number;
  /** Retries after a network failure, timeout or 5xx. */
  maxRetries: number;
  /** Retries after 429 (each honours Retry-After), as long as the deadline allows. */
  maxRateLimitRetries: number;
  backoff: BackoffOptions;
  random: () => number;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

export const DEFAULT_TRANSPORT: Omit<TransportOptions, "fetch"> = {
  concurrency: 6,
  minIntervalMs: 2,
  requestTimeoutMs: 10_000,
  maxRetries: 2,
  maxRateLimitRetries: 10,
  backoff: DEFAULT_BACKOFF,
  random: Math.random,
  now: () => Date.now(),
  sleep: realSleep,
};

export class Transport {
  /** HTTP requests actually sent (attempts, including retries). */
  requestsSent = 0;
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private nextStartAt = 0;
  private pausedUntil = 0;

  constructor(private readonly options: TransportOptions) {}

  /**
   * Resolves with the final HTTP answer (which may still be a 429 or 5xx once retries or time run
   * out); rejects with an ApiError of status 0 when no answer arrived at all.
   */
  async send(request: HttpRequest, deadline: number): Promise<HttpAnswer> {
    const o = this.options;
    let failures = 0;
    let rateLimited = 0;
    let lastRateLimit: HttpAnswer | undefined;
    /** After no answer or a 5xx: waits out the backoff and says to retry, while retries and time last. */
    const retryAfterFailure = async (): Promise<boolean> => {
      const delay = backoffDelayMs(failures, null, o.backoff, o.random);
      if (failures >= o.maxRetries || o.now() + delay >= deadline) return false;
      failures++;
      await o.sleep(delay);
      return true;
    };
    for (;;) {
      const waitForPause = this.pausedUntil - o.now();
      if (waitForPause > 0) {
        if (o.now() + waitForPause >= deadline) {
          // Say what the service said (429) rather than "no answer", when it was this request's.
          if (lastRateLimit) return lastRateLimit;
          throw timedOut("The service asked to slow down and the time limit ran out");
        }
        await o.sleep(waitForPause);
      }
      let answer: HttpAnswer;
      try {
        answer = await this.attempt(request, deadline);
      } catch (error) {
        if (await retryAfterFailure()) continue;
        throw error;
      }
      if (answer.status === 429) {
        lastRateLimit = answer;
        const delay = backoffDelayMs(rateLimited, answer.retryAfter, o.backoff, o.random);
        this.pausedUntil = Math.max(this.pausedUntil, o.now() + delay);
        if (rateLimited < o.maxRateLimitRetries && o.now() + delay < deadline) {
          rateLimited++;
          continue;
        }
        return answer;
      }
      if (answer.status >= 500 && (await retryAfterFailure())) continue;
      return answer;
    }
  }

  /** One attempt inside a concurrency slot, aborted at the per-request timeout or the deadline. */
  private async attempt(request: HttpRequest, deadline: number): Promise<HttpAnswer> {
    const o = this.options;
    await this.acquire();
    try {
      const gap = this.nextStartAt - o.now();
      this.nextStartAt = Math.max(o.now(), this.nextStartAt) + o.minIntervalMs;
      if (gap > 0) await o.sleep(gap);
      const budget = Math.min(o.requestTimeoutMs, deadline - o.now());
      if (budget <= 0) throw timedOut("No answer within the time limit");
      const controller = new AbortController();
      let timedOutFlag = false;
      const timer = setTimeout(() => {
        timedOutFlag = true;
        controller.abort();
      }, budget);
      try {
        this.requestsSent++;
        const response = await o.fetch(request.url, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
        });
        const text = await response.text();
        return {
          status: response.status,
          statusText: response.statusText ?? "",
          body: parseBody(text),
          retryAfter: response.headers.get("retry-after"),
        };
      } catch (error) {
        if (error instanceof ApiError) throw error;
        if (timedOutFlag) throw timedOut(`No answer within ${Math.round(budget / 1000)} s`);
        throw unavailable(error instanceof Error ? error.message : String(error));
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

function parseBody(text: string): unknown {
  if (text.trim() === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
