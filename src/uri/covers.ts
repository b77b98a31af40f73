/**
 * Whether a subscription to `subscribed` covers an update of `uri`: the same URI, or a
 * sub-resource of it, where the subscribed URI is followed by `/`, `#` or `?` (or itself ends
 * with `/`). `file:///a` covers `file:///a/b`, `file:///a#x` and `file:///a?v=2`, never
 * `file:///ab`. Both eras' subscriptions use this one rule.
 */
export function coversUri(subscribed: string, uri: string): boolean {
  if (uri === subscribed) return true;
  if (subscribed === '' || !uri.startsWith(subscribed)) return false;
  if (subscribed.endsWith('/')) return true;
  const next = uri.charCodeAt(subscribed.length);
  return next === 0x2f || next === 0x23 || next === 0x3f; // '/', '#', '?'
}
