/**
 * Turns for long computations (large batches) cut in slices: one slice per event-loop turn in all,
 * in turn order, however many computations are running. Each computation awaits `next()` before a
 * slice; the others' requests are read and answered between slices. With a setImmediate per
 * computation instead, every running batch would add a slice to every turn, so n batches would
 * delay a cheap call by n slices per turn.
 */
export class SliceScheduler {
  private readonly waiting: Array<() => void> = [];
  private scheduled = false;

  /** Resolves at a later event-loop turn (check phase), after the computations queued before. */
  next(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.grant);
      }
    });
  }

  /** How many computations wait for a turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** One turn: the first in line runs its slice (in the microtasks right after this callback). */
  private readonly grant = (): void => {
    this.waiting.shift()?.();
    if (this.waiting.length > 0) setImmediate(this.grant);
    else this.scheduled = false;
  };
}
