/** A cap on concurrent searches: a search beyond it waits briefly for a slot, then is told "busy". */

export interface SearchGateOptions {
  /** Most searches at once (default 4). */
  concurrency?: number;
  /** How long a search beyond `concurrency` waits for a slot before it is refused (default 2,000 ms; 0: at once). */
  waitMs?: number;
}

export const GATE_DEFAULTS = { concurrency: 4, waitMs: 2_000 } as const;

/** Gives back a slot; calling it again does nothing. */
export type Release = () => void;

/**
 * Counts running searches. Waiting briefly rather than refusing at once serves a client that
 * sends a few searches together (they queue, in order, behind searches that are themselves
 * bounded in time); refusing after `waitMs` keeps a flood from queueing without end.
 */
export class SearchGate {
  readonly concurrency: number;
  readonly waitMs: number;
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(options: SearchGateOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? GATE_DEFAULTS.concurrency);
    this.waitMs = Math.max(0, options.waitMs ?? GATE_DEFAULTS.waitMs);
  }

  /** Searches running now. */
  get active(): number {
    return this.running;
  }

  /**
   * A slot, or undefined when none freed up within `waitMs`. Rejects with the signal's reason
   * when the request is cancelled while it waits.
   */
  acquire(signal?: AbortSignal): Promise<Release | undefined> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.waitMs === 0) return Promise.resolve(undefined);
    return new Promise<Release | undefined>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.queue.indexOf(grant);
        if (at !== -1) this.queue.splice(at, 1);
      };
      // Called by a release that hands its slot over: `running` is already counted.
      const grant = (): void => {
        leave();
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        leave();
        reject(signal?.reason);
      };
      const timer = setTimeout(() => {
        leave();
        resolve(undefined);
      }, this.waitMs);
      timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(grant);
    });
  }

  private releaser(): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.queue.shift();
      if (next) next();
      else this.running--;
    };
  }
}
