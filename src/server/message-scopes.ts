/** The OAuth scopes entries declare, and those one message needs, for transports to refuse early. */
import type { ServerCore } from './core.js';
import { readScopes } from './methods/scopes.js';

/** See `McpServer.declaredScopes`. */
export function declaredScopes(core: ServerCore): readonly string[] {
  if (!core.hasScopedEntries()) return [];
  const scopes = new Set<string>();
  const lists = [
    core.tools.list(),
    core.prompts.list(),
    core.resources.list(),
    core.templates.list().map((t) => t.definition),
  ];
  for (const list of lists)
    for (const entry of list) for (const s of entry.scopes ?? []) scopes.add(s);
  return [...scopes];
}

/** See `McpServer.scopesFor`. */
export function scopesFor(core: ServerCore, message: unknown): readonly string[] | undefined {
  if (!core.hasScopedEntries() || typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; params?: { name?: unknown; uri?: unknown } };
  const { name, uri } = m.params ?? {};
  if (m.method === 'tools/call' && typeof name === 'string') return core.tools.get(name)?.scopes;
  if (m.method === 'prompts/get' && typeof name === 'string') return core.prompts.get(name)?.scopes;
  if (
    (m.method === 'resources/read' || m.method === 'resources/subscribe') &&
    typeof uri === 'string'
  )
    return readScopes(core, uri);
  if (m.method === 'completion/complete') return completionScopes(core, m.params);
  return undefined;
}

/** What completing `params.ref` needs: its prompt's scopes, else its template's or resource's. */
function completionScopes(core: ServerCore, params: unknown): readonly string[] | undefined {
  const ref = (params as { ref?: { type?: unknown; name?: unknown; uri?: unknown } } | undefined)
    ?.ref;
  if (typeof ref !== 'object' || ref === null) return undefined;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string')
    return core.prompts.get(ref.name)?.scopes;
  if (ref.type !== 'ref/resource' || typeof ref.uri !== 'string') return undefined;
  const template = core.templates.get(ref.uri);
  return template ? template.definition.scopes : readScopes(core, ref.uri);
}
