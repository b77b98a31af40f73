/**
 * One server's outbound budget (`maxResponseTotalBytes`): bytes of answers being produced or
 * waiting to be written, over all its connections. An answer in memory holds its size until
 * written, a streamed one its window until it ends. Large part reads reserve first and may wait
 * (at most {@link AnswerBudget.waitMs}, then a busy error); other answers never wait, but are
 * counted, so that part reads wait behind them.
 */
import { ProtocolError } from '../errors/protocol-error.js';
import { ERROR_CODES } from '../protocol/error-codes.js';

/** Default `maxResponseTotalBytes`: 64 MiB, as the inbound total (`maxBodyTotalBytes`). */
export const DEFAULT_MAX_RESPONSE_TOTAL_BYTES = 64 * 1024 * 1024;
/** How long a part read waits for room before its busy error. */
export const DEFAULT_ANSWER_WAIT_MS = 5_000;
/**
 * What a streamed answer holds while it is written: the chunk being read (48 KiB) and what the
 * response buffered (its 16 KiB mark and the last chunk encoded, 64 KiB of base64).
 */
export const STREAM_WINDOW_BYTES = 128 * 1024;

interface Waiter {
  readonly least: number;
  readonly most: number;
  readonly admit: (granted: number) => void;
}

/** One server's outbound budget; see the file comment. */
export class AnswerBudget {
  private used = 0;
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly maxBytes: number = DEFAULT_MAX_RESPONSE_TOTAL_BYTES,
    readonly waitMs: number = DEFAULT_ANSWER_WAIT_MS,
  ) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 1)
      throw new RangeError(
        `maxResponseTotalBytes must be a positive integer of bytes, got ${String(maxBytes)}`,
      );
  }

  /** Bytes held now. */
  get heldBytes(): number {
    return this.used;
  }

  /** A new, empty share for one answer. */
  lease(): AnswerLease {
    return new AnswerLease(this);
  }

  /** @internal Adds `bytes` at once: what is made already must be written. */
  take(bytes: number): void {
    this.used += bytes;
  }

  /**
   * @internal Gives `bytes` back and admits the waiting reservations that now fit, oldest
   * first: a small one is not held behind a large one that does not fit yet.
   */
  give(bytes: number): void {
    this.used = Math.max(0, this.used - bytes);
    for (let i = 0; i < this.waiting.length;) {
      const next = this.waiting[i] as Waiter;
      const granted = this.grant(next.least, next.most, this.waiting.length - 1);
      if (granted === 0) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.used += granted;
      next.admit(granted);
    }
  }

  /**
   * @internal Holds from `least` to `most` bytes, as many as there is room for, once there is
   * room for `least`; waits at most `waitMs`, then rejects with a busy ProtocolError naming the
   * option (or the reason when `signal` aborts first). Resolves with the bytes held.
   */
  reserve(least: number, most: number, signal?: AbortSignal): Promise<number> {
    const now = this.grant(least, most, this.waiting.length);
    if (now > 0) {
      this.used += now;
      return Promise.resolve(now);
    }
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    return new Promise<number>((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const waiter: Waiter = {
        least,
        most,
        admit: (granted) => {
          done();
          resolve(granted);
        },
      };
      const leave = (error: unknown): void => {
        done();
        const at = this.waiting.indexOf(waiter);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(error);
      };
      const onAbort = (): void => leave(signal?.reason);
      const timer = setTimeout(() => leave(this.busy(least)), this.waitMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  /**
   * What may be held now of [least, most]: 0 when not even `least` fits; alone, `most`; while
   * `others` wait, `least`, so that a queue drains in small steps rather than large ones.
   */
  private grant(least: number, most: number, others: number): number {
    if (this.used === 0) return most;
    const room = this.maxBytes - this.used;
    if (room < least) return 0;
    return others > 0 ? least : Math.min(most, room);
  }

  private busy(bytes: number): ProtocolError {
    return new ProtocolError(
      ERROR_CODES.INTERNAL_ERROR,
      `Server busy: answers being produced or waiting to be written hold ${this.used} bytes of ` +
        `the ${this.maxBytes} allowed (maxResponseTotalBytes, --max-response-total-bytes); this ` +
        `part (${bytes} bytes) waited ${this.waitMs} ms for room. Try again shortly, or read a ` +
        'smaller part',
      {
        reason: 'busy',
        limit: 'maxResponseTotalBytes',
        maxResponseTotalBytes: this.maxBytes,
        heldBytes: this.used,
        bytes,
        waitedMs: this.waitMs,
      },
    );
  }
}

/**
 * One answer's share of the budget: what its producer reserved and its transport holds, given
 * back once by {@link AnswerLease.release} (when the answer was written, or dropped).
 */
export class AnswerLease {
  private held = 0;
  private released = false;

  constructor(private readonly budget: AnswerBudget) {}

  /** Bytes this answer holds now. */
  get bytes(): number {
    return this.held;
  }

  /**
   * Waits for room for `least` to `most` bytes more (see AnswerBudget.reserve) and holds as
   * many as there is room for: the bytes held, from `least` to `most`. Throws the busy error
   * past the wait.
   */
  async reserve(least: number, most: number, signal?: AbortSignal): Promise<number> {
    if (most <= 0) return 0;
    const granted = await this.budget.reserve(Math.min(least, most), most, signal);
    if (this.released) this.budget.give(granted);
    else this.held += granted;
    return granted;
  }

  /** Holds at least `bytes` in all, at once (an answer made must be written). */
  holdAtLeast(bytes: number): void {
    if (this.released || bytes <= this.held) return;
    this.budget.take(bytes - this.held);
    this.held = bytes;
  }

  /** Gives back what is held past `bytes` (a reservation larger than what was produced). */
  trimTo(bytes: number): void {
    if (this.released || this.held <= bytes) return;
    this.budget.give(this.held - Math.max(0, bytes));
    this.held = Math.max(0, bytes);
  }

  /** Gives everything back; later calls do nothing. */
  release(): void {
    if (this.released) return;
    this.released = true;
    const held = this.held;
    this.held = 0;
    this.budget.give(held);
  }
}
