/**
 * When a caller's authorization runs out, for what outlives one request (a listen stream): at
 * the token's `exp`; for a token already past it when the stream opened (accepted within the
 * clock skew resource servers allow), at the end of that skew, when a new request with it would
 * be refused. So a client that listens again with the same token is not cut again at once.
 */
import type { AuthInfo } from './auth-info.js';

/** The clock skew a resource server allows past a token's `exp` (60 s; mcpkit/auth's). */
export const TOKEN_CLOCK_SKEW_S = 60;

/** setTimeout's longest wait; a later expiry re-arms. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `fire` once when `auth`'s token runs out; returns the function that cancels it. Without
 * an expiry (no auth layer, a token without `exp`) nothing is ever fired.
 */
export function onTokenExpiry(
  auth: AuthInfo | undefined,
  fire: () => void,
  now: () => number = Date.now,
): () => void {
  const exp = auth?.expiresAt;
  if (exp === undefined || !Number.isFinite(exp)) return () => undefined;
  const expMs = exp * 1000;
  const at = expMs > now() ? expMs : expMs + TOKEN_CLOCK_SKEW_S * 1000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const wait = at - now();
    if (wait <= 0) {
      timer = undefined;
      fire();
      return;
    }
    timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
    // A stream's connection keeps the process alive, not its expiry.
    timer.unref?.();
  };
  arm();
  return () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
}
