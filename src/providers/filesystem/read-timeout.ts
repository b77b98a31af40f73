/** The time limit of one read of a file: a hung mount ends the request, not the server. */
import { readTimedOut } from './wire.js';

/** The longest delay a timer takes (Node fires a longer one after 1 ms): past it, no timer. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A timer calling `fire` after `ms`, unreferenced (it never keeps a stopping process alive);
 * none when `ms` is beyond what a timer can wait (Infinity, or over ~24.8 days).
 */
export function timerFor(ms: number, fire: () => void): NodeJS.Timeout | undefined {
  return ms < MAX_TIMER_MS ? setTimeout(fire, Math.max(0, ms)).unref() : undefined;
}

/** How long a read of one file may wait on the file system, by default (ms). */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;

/**
 * `readTimeoutMs` checked: a whole number of ms, at least 1, or Infinity (no limit; so is any
 * value past {@link MAX_TIMER_MS}).
 */
export function readTimeoutOf(value: number | undefined): number {
  const ms = value ?? DEFAULT_READ_TIMEOUT_MS;
  if (ms === Number.POSITIVE_INFINITY || (Number.isSafeInteger(ms) && ms >= 1)) return ms;
  throw new RangeError(
    `readTimeoutMs must be a whole number of milliseconds, at least 1 (got ${String(value)})`,
  );
}

/**
 * `work` when it is already done, else a promise of it that rejects with {@link readTimedOut}
 * once `ms` have passed. The work goes on meanwhile (an OS call cannot be taken back): its
 * outcome is dropped, and what it opened is closed when it returns.
 */
export function withinTime<T>(
  work: T | Promise<T>,
  ms: number,
  uri: string,
  onGiveUp?: (work: Promise<T>) => void,
): T | Promise<T> {
  if (!(work instanceof Promise) || ms >= MAX_TIMER_MS) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = timerFor(ms, () => {
      onGiveUp?.(work);
      reject(readTimedOut(uri, ms));
    });
    work.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error: unknown) => (clearTimeout(timer), reject(error)),
    );
  });
}
