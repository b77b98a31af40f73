/** Lets a long scan share the event loop: it runs in short slices and yields between them. */

/**
 * Longest a search runs before it lets other work run (ms). The searches running at once (4 by
 * default) each take a slice per turn of the loop: a request waits about that many slices,
 * wherever the scans are (files read or cached).
 */
export const SEARCH_SLICE_MS = 2;

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
