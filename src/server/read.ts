import { ERROR_CODES } from '../protocol/error-codes.js';
import type { ResourceContents } from '../protocol/types.js';
import type { Era } from '../protocol/versions.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { matchSafely } from '../uri/index.js';
import type { RequestContext } from './context.js';
import type { McpServer } from './server.js';
import type { PartialContents, ReadReturn } from './types.js';

type Result = Record<string, unknown>;

export function resourceNotFound(uri: string, era: Era, why = ''): ProtocolError {
  const code =
    era === 'legacy' ? ERROR_CODES.LEGACY_RESOURCE_NOT_FOUND : ERROR_CODES.INVALID_PARAMS;
  return new ProtocolError(code, `Resource not found: ${uri}${why}`, { uri });
}

function normalizeContents(
  uri: string,
  value: ReadReturn,
  mimeType: string | undefined,
): ResourceContents[] {
  if (typeof value === 'string') {
    return [mimeType === undefined ? { uri, text: value } : { uri, mimeType, text: value }];
  }
  const list: Array<ResourceContents | PartialContents> = Array.isArray(value)
    ? value
    : 'contents' in value
      ? value.contents
      : [value];
  return list.map((item) => {
    const out = { ...item, uri: item.uri ?? uri } as ResourceContents;
    if (out.mimeType === undefined && mimeType !== undefined) out.mimeType = mimeType;
    return out;
  });
}

function withCache(result: Result, hints: { ttlMs?: number; cacheScope?: string }): Result {
  if (hints.ttlMs !== undefined) result['ttlMs'] = hints.ttlMs;
  if (hints.cacheScope !== undefined) result['cacheScope'] = hints.cacheScope;
  return result;
}

/**
 * Reads a resource the way `resources/read` does: registered resources, then templates (with
 * their variables decoded and checked), then the link store. Throws not-found or refusals.
 */
export async function readResource(
  server: McpServer,
  uri: string,
  ctx: RequestContext,
): Promise<Result> {
  const entry = server.resources.get(uri);
  if (entry) {
    const value = await entry.read(uri, {}, ctx);
    if (value === undefined) throw resourceNotFound(uri, ctx.era);
    return withCache(
      { contents: normalizeContents(uri, value, entry.resource.mimeType) },
      entry.cache,
    );
  }
  for (const t of server.templates.list()) {
    const match = matchSafely(t.parsed, uri);
    if (match === undefined) continue;
    if (!match.ok) {
      const which = match.variable ? ` (variable "${match.variable}")` : '';
      throw ProtocolError.invalidParams(
        `Refused resource URI ${JSON.stringify(uri)}${which}: ${match.problem}`,
        { uri },
      );
    }
    const value = await t.read(uri, match.variables, ctx);
    if (value === undefined) continue;
    return withCache(
      { contents: normalizeContents(uri, value, t.template.mimeType) },
      t.definition,
    );
  }
  if (server.linkStore.owns(uri)) {
    const found = await server.linkStore.get(uri);
    if ('found' in found) {
      const a = found.found;
      const contents =
        a.text !== undefined
          ? { uri, mimeType: a.mimeType, text: a.text }
          : { uri, mimeType: a.mimeType, blob: a.blob ?? '' };
      return {
        contents: [contents],
        ttlMs: Math.max(0, a.expiresAt - Date.now()),
        cacheScope: 'private',
      };
    }
    if ('expired' in found)
      throw resourceNotFound(
        uri,
        ctx.era,
        ' (this artifact expired: call the tool that produced it again)',
      );
  }
  throw resourceNotFound(uri, ctx.era);
}

/** Whether a link to `uri` would resolve: a resource, a template that matches safely, or a live artifact. */
export async function resolvesUri(server: McpServer, uri: string): Promise<boolean> {
  if (server.resources.get(uri)) return true;
  for (const t of server.templates.list()) {
    if (matchSafely(t.parsed, uri)?.ok) return true;
  }
  if (server.linkStore.owns(uri)) return 'found' in (await server.linkStore.get(uri));
  return false;
}
