/**
 * How long fetched signing keys (a JWKS) are used before they are fetched again: the freshness
 * the authorization server gave them (`Cache-Control: max-age`, less `Age`, RFC 9111), bounded.
 * The floor keeps a `no-cache` key set from making every request wait on the authorization
 * server; the ceiling makes a rotated-out key stop working within a day whatever the server said.
 */

/** The shortest time keys are kept (1 minute). */
export const MIN_KEYS_AGE_MS = 60_000;
/** The longest time keys are kept (24 hours). */
export const MAX_KEYS_AGE_MS = 24 * 60 * 60_000;
/** The time keys are kept when the answer says nothing about it (10 minutes). */
export const DEFAULT_KEYS_AGE_MS = 10 * 60_000;

/** Whole seconds as HTTP writes them (RFC 9111 §1.2.2), else undefined. */
function deltaSeconds(raw: string): number | undefined {
  const value = raw.trim().replace(/^"(.*)"$/, '$1');
  return /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/** The time to keep keys fetched with these response headers (`cache-control`, `age`). */
export function keysLifetimeMs(cacheControl: string | undefined, age?: string): number {
  let maxAge: number | undefined;
  for (const directive of (cacheControl ?? '').split(',')) {
    const [name = '', value] = directive.split('=', 2);
    const key = name.trim().toLowerCase();
    if (key === 'no-store' || key === 'no-cache') return MIN_KEYS_AGE_MS;
    if (key !== 'max-age' || value === undefined) continue;
    const seconds = deltaSeconds(value);
    // Conflicting max-age directives: the shorter one is the safe reading.
    if (seconds !== undefined) maxAge = Math.min(maxAge ?? Infinity, seconds);
  }
  if (maxAge === undefined) return DEFAULT_KEYS_AGE_MS;
  const fresh = (maxAge - (deltaSeconds(age ?? '') ?? 0)) * 1000;
  return Math.min(MAX_KEYS_AGE_MS, Math.max(MIN_KEYS_AGE_MS, fresh));
}
