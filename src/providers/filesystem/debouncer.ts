/**
 * Runs a task once a burst of triggers has gone quiet, and never two runs at once: triggers
 * during a run make one more run after it. A burst that never goes quiet still runs every
 * `maxWaitMs`, so that a file written without pause is announced while it is being written.
 */
export class Debouncer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the first trigger of the burst waiting for its run came. */
  private firstAt = 0;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly quietMs: number,
    private readonly maxWaitMs = Math.max(quietMs * 10, 1),
  ) {}

  /** Something happened: run the task `quietMs` after the last trigger (or `maxWaitMs` after the first). */
  trigger(): void {
    if (this.closed) return;
    const now = Date.now();
    if (this.timer === undefined) this.firstAt = now;
    else clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.quietMs, this.firstAt + this.maxWaitMs - now));
    this.timer = setTimeout(() => this.fire(), wait);
    this.timer.unref?.();
  }

  /** Whether a run is waiting for its time or running. */
  get pending(): boolean {
    return this.timer !== undefined || this.running !== undefined;
  }

  /** Resolves when no run is due nor running (for tests and a graceful stop). */
  async idle(): Promise<void> {
    while (this.pending && !this.closed) {
      await (this.running ?? new Promise((r) => setTimeout(r, this.quietMs)));
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private fire(): void {
    this.timer = undefined;
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.task()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.fire();
        }
      });
  }
}
