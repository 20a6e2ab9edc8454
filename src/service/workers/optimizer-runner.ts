/**
 * Where route searches run. Searches can take seconds, so the service never runs them on its event
 * loop: a Piscina pool of worker threads (each with its own copy of the optimizer) does, and every
 * search has a time budget. An optimizer object handed in ready-made (tests, embedding) runs
 * inline, still under the budget.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import Piscina from "piscina";
import { RouteSheetsError } from "../../engine/errors";
import {
  Operator,
  RawQuery,
  RouteOptimizer,
  RouteSearchResult,
} from "../../engine/optimizer/types";
import { SEARCH_FLAGS } from "./optimizer-worker";
import { searchResultJson } from "./search-json";
import type { OptimizerTask, OptimizerTaskResult, TaskFailure } from "./optimizer-worker";

/** The search ran out of budget or the service is shutting down / saturated. */
export class SearchFailed extends Error {
  constructor(
    readonly failure: TaskFailure | { failure: "busy" } | { failure: "aborted"; started?: boolean }
  ) {
    super(`route search failed: ${failure.failure}`);
  }
}

export interface OptimizerRunner {
  /**
   * The search's 200 body as JSON (the route's response schema, serialised off the event loop
   * by the pool). `signal`: aborts the search (its client went away); it then rejects with
   * SearchFailed "aborted".
   */
  search(query: RawQuery, budgetMs: number, signal?: AbortSignal): Promise<string>;
  operators(): Promise<Operator[]>;
  /** Resolves true once the optimizer answers (loaded), false when it cannot be loaded. */
  ready(): Promise<boolean>;
  /** Abandons searches still running after `graceMs`, then stops the threads. */
  close(graceMs: number): Promise<void>;
}

/** Threads for searches: every core but one for the event loop, at least one. */
export function defaultThreads(): number {
  const cores =
    typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(8, cores - 1));
}

/** The compiled worker: next to this file in dist/, or dist/ when running from the TypeScript sources (tests). */
function workerFile(): string {
  const here = path.join(__dirname, "optimizer-worker.js");
  if (fs.existsSync(here)) return here;
  return path.resolve(
    __dirname,
    "..",
    "..",
    "..",
    "dist",
    "service",
    "workers",
    "optimizer-worker.js"
  );
}

function unwrap<T>(r: OptimizerTaskResult): T {
  if ("error" in r) {
    if (r.error.failure === "domain")
      throw new RouteSheetsError(r.error.kind, r.error.detail, r.error.parameter);
    throw new SearchFailed(r.error);
  }
  return ("json" in r ? r.json : r.ok) as T;
}

/** Searches that may wait for a thread, per thread, unless configured (`optimizer.queuePerThread`). */
export const DEFAULT_QUEUE_PER_THREAD = 8;

export class PooledOptimizerRunner implements OptimizerRunner {
  private readonly pool: Piscina<OptimizerTask, OptimizerTaskResult>;
  private readonly inFlight = new Set<AbortController>();
  /** Most tasks running or waiting at once: past it a task is refused ("busy", 503). */
  readonly maxInFlight: number;
  private closing = false;

  /** `workerFile`: the module that runs tasks; the default is ours (tests give stand-ins). */
  constructor(options: {
    dataDir?: string;
    threads?: number;
    workerFile?: string;
    queuePerThread?: number;
  }) {
    const threads = options.threads ?? defaultThreads();
    // Our own bound: Piscina puts abortable tasks (ours all are) on a queue its maxQueue does not
    // count, so its limit never applied.
    this.maxInFlight = threads * (1 + (options.queuePerThread ?? DEFAULT_QUEUE_PER_THREAD));
    this.pool = new Piscina({
      filename: options.workerFile ?? workerFile(),
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
      workerData: { dataDir: options.dataDir },
    });
  }

  /** Tasks running or waiting for a thread now. */
  get pending(): number {
    return this.inFlight.size;
  }

  private async run<T>(task: OptimizerTask, signal?: AbortSignal): Promise<T> {
    if (this.closing || signal?.aborted) throw new SearchFailed({ failure: "aborted" });
    if (this.inFlight.size >= this.maxInFlight) throw new SearchFailed({ failure: "busy" });
    const controller = new AbortController();
    // A search its client left: a running one is told to stop (the flag beside its deadline) and
    // its thread stays; Piscina's abort would end the thread, so it only takes a queued one off.
    const flags = task.kind === "search" ? new Int32Array(new SharedArrayBuffer(8)) : undefined;
    const started = () => flags !== undefined && Atomics.load(flags, SEARCH_FLAGS.started) === 1;
    const abort = () => {
      if (flags && started()) Atomics.store(flags, SEARCH_FLAGS.cancelled, 1);
      else controller.abort();
    };
    signal?.addEventListener("abort", abort, { once: true });
    this.inFlight.add(controller);
    try {
      const result = await this.pool.run(
        task.kind === "search" && flags ? { ...task, flags } : task,
        {
          signal: controller.signal,
        }
      );
      if (signal?.aborted) throw new SearchFailed({ failure: "aborted", started: started() });
      return unwrap<T>(result);
    } catch (e) {
      if (e instanceof RouteSheetsError || e instanceof SearchFailed) throw e;
      if (controller.signal.aborted || signal?.aborted)
        throw new SearchFailed({ failure: "aborted", started: started() });
      if (/queue is at limit/i.test((e as Error).message))
        throw new SearchFailed({ failure: "busy" });
      throw e;
    } finally {
      signal?.removeEventListener("abort", abort);
      this.inFlight.delete(controller);
    }
  }

  async search(query: RawQuery, budgetMs: number, signal?: AbortSignal): Promise<string> {
    const answer = await this.run<string | RouteSearchResult>(
      { kind: "search", query, budgetMs },
      signal
    );
    // A stand-in thread (tests) may answer the object: serialised here the same way.
    return typeof answer === "string" ? answer : searchResultJson(answer);
  }

  operators(): Promise<Operator[]> {
    return this.run({ kind: "operators" });
  }

  async ready(): Promise<boolean> {
    try {
      // The start-up probe does not count against the bound on callers' tasks.
      unwrap<Operator[]>(await this.pool.run({ kind: "operators" }));
      return true;
    } catch {
      return false;
    }
  }

  async close(graceMs: number): Promise<void> {
    this.closing = true;
    const deadline = Date.now() + graceMs;
    while (this.inFlight.size && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, Math.min(50, Math.max(1, deadline - Date.now()))));
    // Still running: abandon them (their callers answer 503) and stop the threads.
    for (const c of this.inFlight) c.abort();
    await this.pool.destroy();
  }
}

/** Runs a ready-made optimizer on the calling thread (tests, embedding): budgeted, not off-loop. */
export class InlineOptimizerRunner implements OptimizerRunner {
  constructor(private readonly optimizer: RouteOptimizer) {}

  async search(query: RawQuery, budgetMs: number, signal?: AbortSignal): Promise<string> {
    if (signal?.aborted) throw new SearchFailed({ failure: "aborted" });
    const { describeFailure } =
      require("./optimizer-worker") as typeof import("./optimizer-worker");
    try {
      return searchResultJson(this.optimizer.search(query, { deadline: Date.now() + budgetMs }));
    } catch (e) {
      const f = describeFailure(e);
      if (f.failure === "domain") throw e;
      throw new SearchFailed(f);
    }
  }

  async operators(): Promise<Operator[]> {
    return this.optimizer.operators();
  }

  async ready(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {}
}
