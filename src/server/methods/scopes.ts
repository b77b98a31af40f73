/** Per-entry OAuth scopes in the engine: lists filtered, calls refused before the handler. */
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { missingScopes, type AuthInfo } from '../auth-info.js';

/**
 * A caller lacking an entry's scopes. HTTP answers 403 `insufficient_scope` before the engine
 * sees the request; this is what any other transport carrying a caller gets.
 */
export function insufficientScope(what: string, scopes: readonly string[]): ProtocolError {
  return new ProtocolError(
    ERROR_CODES.INVALID_REQUEST,
    `Forbidden: ${what} needs the scope ${scopes.join(' ')} (insufficient_scope)`,
    { error: 'insufficient_scope', scope: scopes.join(' ') },
  );
}

/** `wire` without the items whose entry's scopes `auth` lacks (as it is when none is hidden). */
export function visibleTo<W, E extends { scopes?: readonly string[] | undefined }>(
  auth: AuthInfo | undefined,
  wire: readonly W[],
  entries: readonly E[],
  wireKey: (w: W) => string,
  entryKey: (e: E) => string,
): readonly W[] {
  if (!auth) return wire;
  let hidden: Set<string> | undefined;
  for (const entry of entries)
    if (missingScopes(entry.scopes, auth).length > 0) (hidden ??= new Set()).add(entryKey(entry));
  return hidden ? wire.filter((w) => !hidden.has(wireKey(w))) : wire;
}
