/**
 * The time limit of a streamed read (streamed-file.ts): each call it makes on the file system
 * waits at most `readTimeoutMs`, as a whole read does, so that a file on a hung mount cuts its
 * answer instead of holding it open for ever; the call given up on counts as a stalled read.
 */
import { McpKitError } from '../../errors/mcpkit-error.js';
import type { ReadStalls } from './read-stalls.js';
import { withinTime } from './read-timeout.js';

/** What bounds a streamed read; without it, nothing does. */
export interface StreamLimits {
  /** How long one step (open, settle, a chunk's read and stat) may wait (ms). */
  readonly readTimeoutMs: number;
  /** The provider's stalled reads: a step given up on is counted there until it returns. */
  readonly stalls?: ReadStalls | undefined;
}

/** The steps of one streamed read of `relative` (root-relative: errors never name the host path). */
export class StreamSteps {
  /** A step was given up on: what it holds is closed when it returns, never waited for here. */
  abandoned = false;

  constructor(
    private readonly relative: string,
    private readonly limits: StreamLimits = { readTimeoutMs: Number.POSITIVE_INFINITY },
  ) {}

  /** Throws STREAM_FAILED when a read of this file must not touch the disk now (read-stalls.ts). */
  admit(): void {
    const refused = this.limits.stalls?.refusal(this.relative, this.relative);
    if (refused) throw new McpKitError('STREAM_FAILED', refused.message, { cause: refused });
  }

  /**
   * `work`, or STREAM_FAILED naming the file and the limit once it has waited `readTimeoutMs`.
   * The call goes on (an OS call cannot be taken back): it is counted as stalled, and `release`
   * frees what it holds (`undefined` when it failed) once it returns.
   */
  async run<T>(work: Promise<T>, release: (value: T | undefined) => unknown): Promise<T> {
    try {
      return await withinTime(work, this.limits.readTimeoutMs, this.relative, (pending) => {
        this.abandoned = true;
        const returned = pending
          .then(release, () => release(undefined))
          .then(undefined, () => undefined);
        this.limits.stalls?.abandon(this.relative, returned);
      });
    } catch (error) {
      if (!this.abandoned) throw error;
      throw new McpKitError('STREAM_FAILED', (error as Error).message, { cause: error });
    }
  }
}
