/**
 * Scope selection (MCP authorization, "Scope selection strategy"): the challenge's `scope`, else
 * the PRM's `scopes_supported`, else none; unioned with what was asked before on
 * re-authorization; `offline_access` added only when the authorization server offers it.
 */
import type { AuthorizationServerMetadata } from './types.js';

function split(scope: string | undefined): string[] {
  return scope === undefined ? [] : scope.split(/\s+/).filter(Boolean);
}

/** The union of scope strings, order kept (undefined when empty). */
export function unionScopes(...scopes: Array<string | undefined>): string | undefined {
  const set = new Set<string>();
  for (const scope of scopes) for (const s of split(scope)) set.add(s);
  return set.size === 0 ? undefined : [...set].join(' ');
}

/** True when every scope of `wanted` is in `held` (and `wanted` names at least one). */
export function coversScopes(held: string | undefined, wanted: string | undefined): boolean {
  const have = new Set(split(held));
  const need = split(wanted);
  return need.length > 0 && need.every((s) => have.has(s));
}

export function selectScope(
  challenged: string | undefined,
  supported: string[] | undefined,
  metadata: AuthorizationServerMetadata,
  prior: string | undefined,
): string | undefined {
  const base =
    challenged ??
    (Array.isArray(supported) && supported.length > 0 ? supported.join(' ') : undefined);
  const scope = unionScopes(prior, base);
  if (scope === undefined) return undefined;
  const offered =
    Array.isArray(metadata.scopes_supported) &&
    metadata.scopes_supported.includes('offline_access');
  return offered ? unionScopes(scope, 'offline_access') : scope;
}
