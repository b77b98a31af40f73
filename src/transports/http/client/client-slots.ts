import type { Abort } from './client-abort.js';

/**
 * At most `limit` requests at once, the others waiting in order: the connection bound of the
 * fetch path (node:http's agent has its own `maxSockets`). An aborted waiter leaves the queue.
 */
export class Slots {
  private used = 0;
  private waiting: Array<() => void> = [];
  private head = 0;

  constructor(readonly limit: number) {}

  /** Resolves with the slot's release (call it once) when one is free; rejects on abort. */
  acquire(signal: Abort): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.used < this.limit) {
      this.used++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      let off = (): void => undefined;
      const grant = (): void => {
        off();
        resolve(this.releaser());
      };
      this.waiting.push(grant);
      off = signal.listen(() => {
        const at = this.waiting.indexOf(grant, this.head);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal.reason);
      });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting[this.head];
      if (next === undefined) {
        this.used--;
        return;
      }
      // The slot passes to the next waiter: `used` stays.
      this.head++;
      if (this.head > 64 && this.head * 2 > this.waiting.length) {
        this.waiting = this.waiting.slice(this.head);
        this.head = 0;
      }
      next();
    };
  }
}
