/** Lets a long scan share the event loop: it runs in short slices and yields between them. */

/**
 * Longest a search runs before it lets other work run (ms). With the 4 searches the server runs
 * at once, a request waits at most a few slices, wherever the scan is (files read or cached).
 */
export const SEARCH_SLICE_MS = 3;

/** A scan's clock: `due` once its slice is spent, `pause` to yield and start a new one. */
export class Pace {
  private sliceEnd: number;

  constructor(private readonly sliceMs = SEARCH_SLICE_MS) {
    this.sliceEnd = performance.now() + sliceMs;
  }

  /** The slice is spent: `await pause()` before more work. */
  get due(): boolean {
    return performance.now() >= this.sliceEnd;
  }

  /**
   * Yields a whole turn of the event loop (setImmediate: timers, I/O and other requests run; a
   * microtask would not let them), then starts a new slice.
   */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.sliceEnd = performance.now() + this.sliceMs;
  }
}
