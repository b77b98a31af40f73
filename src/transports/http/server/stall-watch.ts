import { IdTable } from '../../../protocol/id-table.js';

/**
 * One timer for every body an endpoint is reading: a body silent for `idleMs` is told so within
 * `idleMs / 2` more (never sooner). A body only sets a number when bytes arrive: no timer each.
 */
export class StallWatch {
  private readonly watched = new IdTable<Watched>();
  private nextId = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  /** Ticks of `idleMs / 2`; a body that saw none for three has stalled (idleMs to 1.5x). */
  private tick = 0;

  constructor(private readonly idleMs: number) {}

  /** Watches one body; `onStall` runs once if it makes no progress for `idleMs`. */
  watch(onStall: () => void): Watched {
    const id = this.nextId;
    this.nextId = (id + 1) & 0x7fffffff;
    const entry: Watched = { seen: this.tick, onStall, stop: () => this.watched.delete(id) };
    if (this.idleMs <= 0) return entry;
    this.watched.set(id, entry);
    if (!this.timer) this.start();
    return entry;
  }

  /**
   * Not inline in `watch`: the timer's callback would share that scope, and keep the first
   * body's entry (its request and response) for as long as the timer runs.
   */
  private start(): void {
    this.timer = setInterval(() => this.sweep(), Math.max(1, Math.floor(this.idleMs / 2)));
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** Marks progress: call when bytes arrive. */
  progress(entry: Watched): void {
    entry.seen = this.tick;
  }

  private sweep(): void {
    // Stopped by a sweep that finds nothing, not by the last body: under load the set empties
    // and fills again between requests, and a timer per request is what this avoids.
    if (this.watched.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    this.tick++;
    for (const entry of this.watched.snapshot()) {
      // Three ticks: progress just before a tick still gets the whole idleMs (at most 1.5x).
      if (this.tick - entry.seen >= 3) {
        entry.stop();
        entry.onStall();
      }
    }
  }
}

export interface Watched {
  seen: number;
  onStall: () => void;
  stop: () => void;
}
