/**
 * One request of the walk, judged on the answer as sent: the raw result goes through the answer
 * checks even when the client then refuses it (INVALID_RESULT is a finding, not a crash), and a
 * failure is described for the finding the caller makes. The read budget of the run, and the
 * count of timeouts in a row that stops a walk nobody answers, live here.
 */
import { McpKitError, ProtocolError } from '../errors/index.js';
import { checkAnswer, isPreciseIssue, type AnswerContext } from './audit-answer.js';
import { fieldToPointer, quote, type Place } from './audit-findings.js';

/** The -32002 of 2025-11-25 ("resource not found"); 2026-07-28 answers -32602. */
const LEGACY_NOT_FOUND = -32002;

/** The server is gone: the walk stops (one `unreachable` finding instead of one per request). */
export class ServerGone extends Error {
  constructor(readonly reason: unknown) {
    super(describeError(reason));
  }
}

/**
 * Requests in a row that may time out before the walk stops: a server that answers nothing
 * would otherwise hold the walk for `--timeout` times every resource, argument and call.
 */
export const TIMEOUT_STREAK_LIMIT = 3;

/** Too many requests in a row timed out: the walk stops (one `walk-stopped` finding). */
export class WalkStopped extends Error {
  constructor(
    readonly last: Place,
    readonly timeouts: number,
    readonly reason: unknown,
  ) {
    super(describeError(reason));
  }
}

export function isTimeout(error: unknown): boolean {
  return error instanceof McpKitError && error.code === 'REQUEST_TIMEOUT';
}

/** Timeouts in a row; any answer (a result or an error) resets the count. */
export class TimeoutStreak {
  count = 0;

  constructor(readonly limit = TIMEOUT_STREAK_LIMIT) {}

  /** Counts one request's outcome; throws WalkStopped at the limit. */
  record(place: Place, error: unknown): void {
    if (!isTimeout(error)) {
      this.count = 0;
      return;
    }
    this.count++;
    if (this.count >= this.limit) throw new WalkStopped(place, this.count, error);
  }
}

function isGone(error: unknown): boolean {
  if (!(error instanceof McpKitError)) return false;
  if (
    error.code === 'SERVER_EXITED' ||
    error.code === 'PEER_CLOSED' ||
    error.code === 'NOT_CONNECTED'
  )
    return true;
  // An HTTP request that got no answer at all (connection refused or reset).
  return error.code === 'HTTP_ERROR' && typeof (error as { status?: unknown }).status !== 'number';
}

/** The client refused an answer it got (the answer checks have judged it). */
export function isInvalidResult(error: unknown): boolean {
  return error instanceof McpKitError && error.code === 'INVALID_RESULT';
}

/** An error as a finding quotes it: the JSON-RPC code and message, or the local code. */
export function describeError(error: unknown): string {
  if (error instanceof ProtocolError) return `error ${error.code}: ${quote(error.message, 300)}`;
  if (error instanceof McpKitError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export interface Judged<T> {
  /** The raw result, when the server answered one. */
  raw?: unknown;
  /** What the client returned (absent when it threw). */
  value?: T;
  error?: unknown;
}

/**
 * Runs `send` with an `onRawResult` hook, judges the raw answer (`checkAnswer`, then `inspect`:
 * the caller's content checks), and reports a 2026-07-28 server's -32002. A client refusal
 * (INVALID_RESULT) of an answer in which no check found anything becomes a `schema-violation`
 * in the client's words. Throws ServerGone when the server went away, WalkStopped when this was
 * one timeout too many (`timeouts`).
 */
export async function judged<T>(
  place: Place,
  ctx: AnswerContext & { timeouts?: TimeoutStreak },
  send: (onRawResult: (raw: unknown) => void) => Promise<T>,
  inspect?: (raw: unknown) => Promise<void> | void,
): Promise<Judged<T>> {
  const out: Judged<T> = {};
  let answered = false;
  const before = ctx.log.findings.length;
  try {
    out.value = await send((raw) => {
      // Input rounds: the last answer is the one that counts.
      answered = true;
      out.raw = raw;
    });
  } catch (error) {
    if (isGone(error)) throw new ServerGone(error);
    out.error = error;
  }
  ctx.timeouts?.record(place, out.error);
  if (answered) {
    checkAnswer(out.raw, place, ctx);
    await inspect?.(out.raw);
  }
  if (
    out.error instanceof ProtocolError &&
    out.error.code === LEGACY_NOT_FOUND &&
    ctx.era === 'modern'
  ) {
    ctx.log.add({
      code: 'legacy-not-found-code',
      message: `a 2026-07-28 server answered -32002 (2025-11-25's "resource not found"); 2026-07-28 uses -32602 with data.uri`,
      ...place,
    });
  }
  const refusal = isInvalidResult(out.error) ? (out.error as McpKitError) : undefined;
  if (
    answered &&
    refusal &&
    !isPreciseIssue(refusal.message) &&
    ctx.log.findings.length === before
  ) {
    const error = refusal;
    const field = (error.cause as { field?: unknown } | undefined)?.field;
    ctx.log.add({
      code: 'schema-violation',
      message: error.message,
      ...place,
      ...(typeof field === 'string' ? { path: fieldToPointer(field) } : {}),
    });
  }
  return out;
}

/** The bytes the run may still read (`--budget`): decoded bytes, UTF-8 for text. */
export class ReadBudget {
  used = 0;
  /** What was not read for want of budget. */
  readonly skipped: string[] = [];
  /** Links not read for want of budget (each has its `link-not-checked`). */
  linksSkipped = 0;

  constructor(readonly limit: number) {}

  get left(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** Whether a read of `size` (unknown: assume it fits) may start. */
  fits(size: number | undefined): boolean {
    if (this.left === 0) return false;
    if (size === undefined || Number.isNaN(size) || size < 0) return true;
    return size <= this.left;
  }

  spend(bytes: number): void {
    this.used += bytes;
  }
}
