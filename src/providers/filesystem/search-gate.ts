/** A cap on searches that look at file texts at once: the others wait their turn, in order. */
import { timerFor } from './read-timeout.js';

export interface SearchGateOptions {
  /** Most searches at once (default 4). */
  concurrency?: number;
  /**
   * Most searches waiting for a turn (default 64): one more gets no turn at once, and answers
   * its name matches, saying why. Each waiting one holds its request and its name matches.
   */
  maxWaiting?: number;
}

export const GATE_DEFAULTS = { concurrency: 4, maxWaiting: 64 } as const;

/** What a search gets instead of a turn when `maxWaiting` others wait already. */
export interface QueueFull {
  readonly budget: 'maxWaiting';
  readonly limit: number;
}

/** Ends a turn; calling it again does nothing. */
export type Release = () => void;

/**
 * Counts running searches. One beyond the cap waits, first come first served, until a turn is
 * free or its own deadline passes: it is never refused, and its wait counts against its time
 * limit, so that it still answers within it (with what it found by name).
 */
export class SearchGate {
  readonly concurrency: number;
  readonly maxWaiting: number;
  private running = 0;
  private readonly queue: Array<() => void> = [];

  constructor(options: SearchGateOptions = {}) {
    this.concurrency = Math.max(1, options.concurrency ?? GATE_DEFAULTS.concurrency);
    this.maxWaiting = Math.max(0, options.maxWaiting ?? GATE_DEFAULTS.maxWaiting);
  }

  /**
   * A turn, or undefined when none came before `deadline` (ms since the epoch), or
   * {@link QueueFull} at once when `maxWaiting` searches wait already. Rejects with the
   * signal's reason when the request is cancelled while it waits.
   */
  acquire(deadline: number, signal?: AbortSignal): Promise<Release | QueueFull | undefined> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    if (this.queue.length >= this.maxWaiting)
      return Promise.resolve({ budget: 'maxWaiting', limit: this.maxWaiting });
    return new Promise<Release | undefined>((resolve, reject) => {
      const leave = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.queue.indexOf(grant);
        if (at !== -1) this.queue.splice(at, 1);
      };
      // Called by a release that hands its turn over: `running` is already counted.
      const grant = (): void => {
        leave();
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        leave();
        reject(signal?.reason);
      };
      const timer = timerFor(deadline - Date.now(), () => {
        leave();
        resolve(undefined);
      });
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
