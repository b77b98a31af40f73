/** The `WWW-Authenticate: Bearer …` challenge (RFC 6750 §3, RFC 9728 §5.1). */

export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/** A quoted-string value: backslash and quote escaped, anything outside printable ASCII dropped. */
function quoted(value: string): string {
  return `"${value.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

export function bearerChallenge(
  resourceMetadata: string,
  error?: BearerError,
  scopes?: readonly string[],
): string {
  const params = [`resource_metadata=${quoted(resourceMetadata)}`];
  if (scopes && scopes.length > 0) params.push(`scope=${quoted(scopes.join(' '))}`);
  if (error) params.push(`error=${quoted(error)}`);
  return `Bearer ${params.join(', ')}`;
}
