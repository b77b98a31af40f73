/** The 2026-07-28 envelope around every request and result: `_meta` in, `resultType` and `_meta` out. */
import { META } from '../protocol/meta-keys.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { Era } from '../protocol/versions.js';
import type { ServerCore } from './core.js';

type Result = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The checks of a 2026-07-28 request's `_meta` keys (-32602 naming the field). The spec puts
 * them first: a transport checks its own envelope (HTTP headers, -32020) only once they pass,
 * and the engine checks the version (-32022) after both. Exported to transports
 * (`mcpkit/server/transport`) so that their edge runs the same checks as the engine.
 */
export function checkModernMeta(meta: unknown, method: string): ProtocolError | undefined {
  if (!isObject(meta))
    return ProtocolError.invalidParams(
      `${method}: params._meta is required (2026-07-28 requests carry protocolVersion and clientCapabilities there)`,
      { field: 'params._meta' },
    );
  if (typeof meta[META.protocolVersion] !== 'string') {
    const field = `params._meta["${META.protocolVersion}"]`;
    return ProtocolError.invalidParams(`${method}: ${field} is required and must be a string`, {
      field,
    });
  }
  if (!isObject(meta[META.clientCapabilities])) {
    const field = `params._meta["${META.clientCapabilities}"]`;
    return ProtocolError.invalidParams(
      `${method}: ${field} is required and must be an object ({} for none)`,
      { field },
    );
  }
  return undefined;
}

/** Why a method is not served in 2026-07-28, when it is a known method of an older revision. */
export function notModernWhy(method: string): string | undefined {
  if (method === 'initialize') return '2026-07-28 has no initialize: send _meta with every request';
  if (method === 'ping' || method === 'logging/setLevel') return 'removed in 2026-07-28';
  if (method === 'resources/subscribe' || method === 'resources/unsubscribe')
    return 'use subscriptions/listen';
  return undefined;
}

/** Adds `ttlMs`/`cacheScope` where the handler left them out. */
export function addCacheHints(core: ServerCore, result: Result, kind: 'list' | 'read'): void {
  const defaults = kind === 'list' ? core.options.cache : core.options.readCache;
  result['ttlMs'] ??= defaults?.ttlMs ?? 0;
  result['cacheScope'] ??= defaults?.cacheScope ?? (kind === 'list' ? 'public' : 'private');
}

/** `resultType` and `serverInfo` in `_meta`, on every modern result. */
export function modernResult(core: ServerCore, result: Result): Result {
  result['resultType'] ??= 'complete';
  const meta = result['_meta'];
  result['_meta'] = isObject(meta) ? { ...meta, [META.serverInfo]: core.info } : core.resultMeta;
  return result;
}

/** `result` as its response carries it: in 2026-07-28 with its cache hints and `_meta`. */
export function finalResult(
  core: ServerCore,
  era: Era,
  cache: 'list' | 'read' | undefined,
  result: Result,
): Result {
  if (era === 'legacy') return result;
  if (cache) addCacheHints(core, result, cache);
  return modernResult(core, result);
}
