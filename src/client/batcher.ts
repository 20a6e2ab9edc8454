/**
 * Collects calls that arrive within a short window and hands them over together, grouped by the
 * settings they were made with (one batch carries one key to one base URL). A group is flushed
 * after `windowMs` without a new call (Excel hands over a big sheet in bursts), at the latest
 * `maxWaitMs` after its first call, or as soon as it holds `maxBatchSize` calls.
 */
import type { ClientSettings } from "./settings";
import type { ApiCall } from "./types";
import { ApiError, unavailable } from "./errors";

export type Outcome = { ok: true; status: number; body: unknown } | { ok: false; error: ApiError };

export interface BatcherOptions {
  /** Quiet time that closes a window. */
  windowMs: number;
  /** Longest a call waits for company. */
  maxWaitMs: number;
  maxBatchSize: number;
}

/** Sends one group of calls and answers each, in order. Must not reject. */
export type GroupSender = (settings: ClientSettings, calls: ApiCall[]) => Promise<Outcome[]>;

interface Pending {
  settings: ClientSettings;
  calls: ApiCall[];
  resolvers: Array<(outcome: Outcome) => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
  openedAt: number;
  /** When the last call joined: the quiet window counts from here. */
  lastAt: number;
}

export class Batcher {
  private readonly groups = new Map<string, Pending>();
  /** Groups handed to the sender so far. */
  flushes = 0;

  constructor(
    private readonly options: BatcherOptions,
    private readonly send: GroupSender
  ) {}

  enqueue(settings: ClientSettings, call: ApiCall): Promise<Outcome> {
    // One batch carries one key to one base URL: a key left out here would send calls with another's key.
    const key = `${settings.baseUrl}\n${settings.apiKey}`;
    let group = this.groups.get(key);
    const now = Date.now();
    if (!group) {
      group = { settings, calls: [], resolvers: [], timer: undefined, openedAt: now, lastAt: now };
      this.groups.set(key, group);
    }
    const promise = new Promise<Outcome>((resolve) => group!.resolvers.push(resolve));
    group.calls.push(call);
    group.lastAt = now;
    if (group.calls.length >= this.options.maxBatchSize) this.flush(key, group);
    else if (!group.timer) this.arm(key, group, this.options.windowMs);
    return promise;
  }

  /**
   * One timer per open group: when it fires, the group goes if it has been quiet for `windowMs`
   * or open for `maxWaitMs`; else the timer is set again for the rest. (Re-setting a timer on
   * every call cost more than the calls themselves on a 5,000-row column.)
   */
  private arm(key: string, group: Pending, ms: number): void {
    group.timer = setTimeout(
      () => {
        group.timer = undefined;
        const now = Date.now();
        const quietLeft = group.lastAt + this.options.windowMs - now;
        const waitLeft = group.openedAt + this.options.maxWaitMs - now;
        if (quietLeft <= 0 || waitLeft <= 0) this.flush(key, group);
        else this.arm(key, group, Math.min(quietLeft, waitLeft));
      },
      Math.max(0, ms)
    );
  }

  private flush(key: string, group: Pending): void {
    if (this.groups.get(key) !== group) return;
    this.groups.delete(key);
    if (group.timer) clearTimeout(group.timer);
    this.flushes++;
    this.send(group.settings, group.calls).then(
      (outcomes) => settleInSlices(group.resolvers, (i) => outcomes[i] ?? missing()),
      () => settleInSlices(group.resolvers, () => missing())
    );
  }
}

/** Calls answered before the page gets a turn: a 1,000-call batch is handed back in a few slices. */
const SLICE = 250;

/**
 * Answers the calls a slice at a time, giving the page (Excel's UI, the task pane) a turn between
 * slices: every answer runs its caller's work at once, and a whole batch at once froze the pane.
 */
function settleInSlices(
  resolvers: Array<(o: Outcome) => void>,
  outcome: (i: number) => Outcome
): void {
  const settle = (from: number) => {
    const to = Math.min(resolvers.length, from + SLICE);
    for (let i = from; i < to; i++) resolvers[i](outcome(i));
    if (to < resolvers.length) setTimeout(() => settle(to), 0);
  };
  settle(0);
}

function missing(): Outcome {
  return { ok: false, error: unavailable("The batch answer had no entry for this call") };
}
