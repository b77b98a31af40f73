import type { Abort } from './client-abort.js';
import {
  DEFAULT_RECONNECT_DELAY_MS,
  MAX_RECONNECT_DELAY_MS,
  MIN_RECONNECT_DELAY_MS,
} from './client-options.js';

/** How long to wait before reconnecting: the server's `retry:` (floored, capped) or the default. */
export function reconnectDelay(retryMs: number | undefined): number {
  const asked = Math.max(retryMs ?? DEFAULT_RECONNECT_DELAY_MS, MIN_RECONNECT_DELAY_MS);
  return Math.min(asked, MAX_RECONNECT_DELAY_MS);
}

/** Waits `ms`; false as soon as `signal` aborts (the request was cancelled, the client closed). */
export function sleep(ms: number, signal: Abort): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const stop = signal.listen(() => {
      clearTimeout(timer);
      resolve(false);
    });
    const timer = setTimeout(() => {
      stop();
      resolve(true);
    }, ms);
  });
}
