/** How long to wait before reconnecting to Redis after a drop. */
export interface BackoffOptions {
  /** First delay (default 100 ms); each attempt doubles it. */
  baseMs?: number;
  /** Longest delay (default 5 s): a Redis that is back is found within this. */
  maxMs?: number;
}

export const DEFAULT_BACKOFF_BASE_MS = 100;
export const DEFAULT_BACKOFF_MAX_MS = 5000;

/**
 * The delay before reconnect attempt `attempt` (1 for the first): exponential, capped, with
 * "equal jitter" (half fixed, half random) so that many instances that lost Redis at the same
 * moment do not all come back in the same millisecond.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions = {},
  random: () => number = Math.random,
): number {
  const base = Math.max(1, finite(options.baseMs, DEFAULT_BACKOFF_BASE_MS));
  const max = Math.max(base, finite(options.maxMs, DEFAULT_BACKOFF_MAX_MS));
  // 2 ** 30 already exceeds any sane cap; clamping the exponent keeps the product finite.
  const exponent = Math.min(Math.max(0, Math.floor(finite(attempt, 1)) - 1), 30);
  const ceiling = Math.min(max, base * 2 ** exponent);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function finite(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isFinite(value) ? value : fallback;
}
