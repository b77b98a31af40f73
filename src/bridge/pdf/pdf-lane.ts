/**
 * One PDF extraction at a time per bridge: the memory cap watches the process's RSS, which only
 * means something while a single worker runs, and a worker costs tens of MiB before it reads a
 * byte. Waiting for the lane counts against the caller's `--pdf-timeout`.
 */
export type LaneEntry = 'entered' | 'timeout' | 'cancelled';

export class PdfLane {
  #busy = false;
  readonly #waiting: Array<() => void> = [];

  /** Takes the lane (call `leave()` after), or says why not before `deadline` (ms since epoch). */
  enter(deadline: number, signal?: AbortSignal): Promise<LaneEntry> {
    if (signal?.aborted) return Promise.resolve('cancelled');
    if (!this.#busy) {
      this.#busy = true;
      return Promise.resolve('entered');
    }
    const left = deadline - Date.now();
    if (left <= 0) return Promise.resolve('timeout');
    return new Promise<LaneEntry>((resolve) => {
      const done = (entry: LaneEntry): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.#waiting.indexOf(wake);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve(entry);
      };
      // The lane is handed over busy: nobody else can take it in between.
      const wake = (): void => done('entered');
      const onAbort = (): void => done('cancelled');
      const timer = setTimeout(() => done('timeout'), left);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(wake);
    });
  }

  /** Hands the lane to the next waiter, or frees it. */
  leave(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#busy = false;
  }
}
