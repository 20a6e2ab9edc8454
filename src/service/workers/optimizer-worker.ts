/**
 * Piscina worker: each worker thread loads the engine and the route optimizer of the data directory
 * once, then answers searches. Results and errors cross the thread boundary as plain objects.
 */
import { isMainThread } from "node:worker_threads";
import { ErrorKind, isRouteSheetsError } from "../../engine/errors";
import { SearchBudgetExceeded } from "../../engine/optimizer/search/mc-csa";
import {
  Operator,
  RawQuery,
  RouteOptimizer,
  RouteSearchResult,
} from "../../engine/optimizer/types";

export type OptimizerTask =
  | {
      kind: "search";
      query: RawQuery;
      budgetMs: number;
      /** Shared with the caller (SharedArrayBuffer): [STARTED, CANCELLED], see SEARCH_FLAGS. */
      flags?: Int32Array;
    }
  | { kind: "operators" };

/** The places in a search's shared flags: set by the thread when it starts; by the caller to stop. */
export const SEARCH_FLAGS = { started: 0, cancelled: 1 } as const;

/** What went wrong, without the class (lost between threads). */
export type TaskFailure =
  | { failure: "domain"; kind: ErrorKind; detail: string; parameter?: string }
  | { failure: "budget" }
  | { failure: "unavailable"; detail: string };

/** A search answers `json` (its 200 body, serialised in the thread); operators answer `ok`. */
export type OptimizerTaskResult =
  { json: string } | { ok: RouteSearchResult } | { ok: Operator[] } | { error: TaskFailure };

interface WorkerSetup {
  dataDir?: string;
}

let loaded: { optimizer?: RouteOptimizer; error?: string } | undefined;

// Searches yield the CPU to the event loop: on Linux a thread has its own nice value, and
// setPriority(pid 0) changes only the calling thread. Only in a search thread: the event loop's
// thread loads this module too (SEARCH_FLAGS, describeFailure), and lowered there it would queue
// every request behind the machine's other work. Best effort elsewhere.
if (!isMainThread)
  try {
    (require("node:os") as typeof import("node:os")).setPriority(10);
  } catch {
    /* not permitted or not supported: searches keep the default priority */
  }

function optimizer(): RouteOptimizer {
  if (!loaded) {
    // Lazy: a worker pays the load once, on its first task.
    const { workerData } = require("node:worker_threads") as typeof import("node:worker_threads");
    const setup = (workerData ?? {}) as WorkerSetup;
    try {
      const { loadEngine } =
        require("../../data/load-engine") as typeof import("../../data/load-engine");
      const { loadOptimizer } =
        require("../../data/optimizer") as typeof import("../../data/optimizer");
      const engine = loadEngine({ dataDir: setup.dataDir });
      loaded = { optimizer: loadOptimizer({ dataDir: setup.dataDir, engine }) };
    } catch (e) {
      loaded = { error: `route optimizer failed to load: ${(e as Error).message}` };
    }
  }
  if (!loaded.optimizer) throw new Unavailable(loaded.error ?? "route optimizer not loaded");
  return loaded.optimizer;
}

class Unavailable extends Error {}

export default function run(task: OptimizerTask): OptimizerTaskResult {
  try {
    if (task.kind === "operators") return { ok: optimizer().operators() };
    const flags = task.flags;
    if (flags) Atomics.store(flags, SEARCH_FLAGS.started, 1);
    const result = optimizer().search(task.query, {
      deadline: Date.now() + task.budgetMs,
      // Cooperative: the thread stops the search and stays, with its optimizer loaded.
      cancelled: flags ? () => Atomics.load(flags, SEARCH_FLAGS.cancelled) === 1 : undefined,
    });
    // Serialised here, not on the event loop (~6 ms for a worst-case answer under load).
    const { searchResultJson } = require("./search-json") as typeof import("./search-json");
    return { json: searchResultJson(result) };
  } catch (e) {
    return { error: describeFailure(e) };
  }
}

export function describeFailure(e: unknown): TaskFailure {
  if (e instanceof SearchBudgetExceeded) return { failure: "budget" };
  if (e instanceof Unavailable) return { failure: "unavailable", detail: e.message };
  if (isRouteSheetsError(e))
    return { failure: "domain", kind: e.kind, detail: e.detail, parameter: e.parameter };
  throw e;
}
