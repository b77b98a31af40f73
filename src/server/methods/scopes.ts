/** Per-entry OAuth scopes in the engine: lists filtered, calls refused before the handler. */
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import { missingScopes, type AuthInfo } from '../auth-info.js';
import type { ServerCore } from '../core.js';

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

/**
 * `wire` without the items whose entry's scopes `auth` lacks (as it is when none is hidden).
 * `wire[i]` is `entries[i]`'s, as a registry's `wire()` and `list()` are.
 */
export function visibleTo<W, E>(
  core: ServerCore,
  auth: AuthInfo | undefined,
  wire: readonly W[],
  entries: readonly E[],
  scopesOf: (e: E) => readonly string[] | undefined = (e) =>
    (e as { scopes?: readonly string[] }).scopes,
): readonly W[] {
  if (!auth || !core.hasScopedEntries()) return wire;
  let visible: W[] | undefined;
  for (let i = 0; i < entries.length; i++) {
    const hidden = missingScopes(scopesOf(entries[i]!), auth).length > 0;
    if (hidden) visible ??= wire.slice(0, i);
    else visible?.push(wire[i]!);
  }
  return visible ?? wire;
}

/**
 * The scopes reading `uri` needs: its static resource's, else those of the first template
 * serving it (a refused match needs none: it is refused anyway).
 */
export function readScopes(core: ServerCore, uri: string): readonly string[] | undefined {
  if (!core.hasScopedEntries()) return undefined;
  const entry = core.resources.get(uri);
  if (entry) return entry.scopes;
  const hit = core.templateMatches.hit(core.templates.list(), uri, 0);
  return hit && !('refused' in hit) ? hit.entry.definition.scopes : undefined;
}

/** Throws insufficient_scope when `auth` lacks `scopes` of `what`. */
export function requireScopes(
  what: string,
  scopes: readonly string[] | undefined,
  auth: AuthInfo | undefined,
): void {
  if (missingScopes(scopes, auth).length > 0) throw insufficientScope(what, scopes ?? []);
}
