/**
 * Bounds on reading request bodies (node and web adapters): maxBodyBytes per body,
 * maxBodyTotalBytes for all at once, bodyTimeoutMs for a stall. Without the last two, clients that
 * send all but the last byte of large bodies hold that memory until the runtime's request timeout
 * (Node: 300 s), and enough of them exhaust it.
 */

import type { StallWatch } from './stall-watch.js';

/** Why a body was not read. An object, so that no body text can pass for one. */
export interface BodyRefusal {
  /**
   * 'unserialisable': a body a framework parsed already that cannot be written as JSON again;
   * 'spent': a body someone else read (a parser) and did not hand over.
   */
  refused: 'too-large' | 'timeout' | 'busy' | 'unserialisable' | 'spent';
}

/** What reading a body resolves with: its text, or why it was not read. */
export type BodyOutcome = string | BodyRefusal;

export interface BodyLimits {
  /** The largest body in bytes (maxBodyBytes). */
  maxBytes: number;
  /** A body that sends nothing for this long resolves 'timeout' (bodyTimeoutMs; 0: never). */
  idleMs: number;
  /** The endpoint's budget for bytes held by bodies being read. */
  budget: BodyBudget;
  /** The endpoint's one timer for stalled bodies (made from `idleMs` when absent). */
  stalls?: StallWatch;
}

export const TOO_LARGE: BodyRefusal = Object.freeze({ refused: 'too-large' });
export const BUSY: BodyRefusal = Object.freeze({ refused: 'busy' });
export const TIMED_OUT: BodyRefusal = Object.freeze({ refused: 'timeout' });
export const UNSERIALISABLE: BodyRefusal = Object.freeze({ refused: 'unserialisable' });
export const SPENT: BodyRefusal = Object.freeze({ refused: 'spent' });

/** Bytes held by request bodies being read, across the requests of one endpoint. */
export class BodyBudget {
  private held = 0;

  constructor(readonly capBytes: number) {}

  get used(): number {
    return this.held;
  }

  /** Takes `bytes` if they fit under the cap. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.capBytes) return false;
    this.held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.held -= bytes;
  }
}

/**
 * One body's share of the budget: its declared Content-Length reserved up front (refused before
 * any byte is buffered), a chunked body's as bytes arrive. `release` is idempotent: call it
 * whenever reading stops.
 */
export class BodyTally {
  private reserved = 0;
  private size = 0;
  private released = false;

  constructor(private readonly limits: BodyLimits) {}

  /** Checks the declared length: undefined to go on reading, or why not to. */
  declare(contentLength: string | null | undefined): BodyRefusal | undefined {
    if (contentLength === null || contentLength === undefined || contentLength === '')
      return undefined;
    const declared = Number(contentLength);
    if (!Number.isFinite(declared) || declared < 0) return undefined;
    if (declared > this.limits.maxBytes) return TOO_LARGE;
    return this.grow(declared) ? undefined : BUSY;
  }

  /** Counts `bytes` more: undefined to keep them, or why not (then release). */
  add(bytes: number): BodyRefusal | undefined {
    this.size += bytes;
    if (this.size > this.limits.maxBytes) return TOO_LARGE;
    return this.grow(this.size) ? undefined : BUSY;
  }

  /** The bytes kept so far. */
  get bytes(): number {
    return this.size;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.limits.budget.give(this.reserved);
    this.reserved = 0;
  }

  private grow(to: number): boolean {
    if (this.released) return false;
    if (to <= this.reserved) return true;
    if (!this.limits.budget.take(to - this.reserved)) return false;
    this.reserved = to;
    return true;
  }
}

/** Seconds a client refused for the budget should wait: by then every stalled body timed out. */
export function retryAfterSeconds(idleMs: number): string {
  return String(Math.max(1, Math.ceil(idleMs / 1000)));
}
