/**
 * The memory every replay lane of one server shares (`ServerOptions.maxReplayBytes`): each lane
 * keeps its own answers and keys, but a client that opens many connections (2025-11-25 sessions,
 * stdio children share nothing anyway) cannot multiply what one may keep.
 */

/** What all replay lanes of one server keep at most, by default (32 MiB). */
export const DEFAULT_MAX_REPLAY_BYTES = 32 * 1024 * 1024;

export class ReplayBudget {
  private used = 0;

  /** `limit`: bytes (encoded answers, and keys counted a byte per character); 0 keeps nothing. */
  constructor(readonly limit: number = DEFAULT_MAX_REPLAY_BYTES) {
    if (!Number.isSafeInteger(limit) || limit < 0)
      throw new RangeError(`maxReplayBytes must be a whole number of bytes, got ${String(limit)}`);
  }

  /** What the lanes keep now. */
  get size(): number {
    return this.used;
  }

  /** Whether `bytes` more fit; if so they are counted. */
  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  /** Whether `bytes` more would fit, without counting them. */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}
