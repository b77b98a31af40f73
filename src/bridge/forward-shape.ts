/**
 * What crosses the bridge, shaped for each side's era: the host's request without its own
 * envelope (the upstream client adds its own), the upstream's result in the host's era, and an
 * upstream failure as a JSON-RPC error that says where it happened.
 */
import { isMcpKitError, ProtocolError } from '../errors/index.js';
import { META } from '../protocol/meta-keys.js';
import type { Era, Implementation, Tool } from '../protocol/index.js';

type Obj = Record<string, unknown>;

/** The `_meta` keys that belong to one connection's envelope, never forwarded to the other. */
const ENVELOPE_KEYS = new Set<string>([
  META.protocolVersion,
  META.clientCapabilities,
  META.clientInfo,
  META.progressToken,
  'dev.mcpkit/maxMessageBytes',
]);

/** The methods the bridge answers by asking the upstream. */
export const FORWARDED_METHODS = new Set([
  'tools/list',
  'tools/call',
  'prompts/list',
  'prompts/get',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'completion/complete',
]);

const LISTS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

/** The host's params as the upstream gets them: its envelope keys out, the rest unchanged. */
export function upstreamParams(params: Obj): Obj {
  const meta = params['_meta'];
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return params;
  const kept: Obj = {};
  let any = false;
  for (const [key, value] of Object.entries(meta as Obj)) {
    if (ENVELOPE_KEYS.has(key)) continue;
    kept[key] = value;
    any = true;
  }
  const { _meta: _dropped, ...rest } = params;
  return any ? { ...rest, _meta: kept } : rest;
}

/**
 * The upstream's result in the host's era. 2026-07-28: `resultType`, cache hints where the
 * upstream gave none, and `serverInfo` (the bridge presents the upstream's own, so a result from
 * a 2026-07-28 upstream is unchanged). 2025-11-25: those fields out, and tools whose output
 * schema is not an object listed without it (as a 2025-11-25 server does).
 */
export function hostResult(method: string, result: Obj, era: Era, info: Implementation): Obj {
  const out: Obj = { ...result };
  if (era === 'modern') {
    out['resultType'] ??= 'complete';
    if (out['resultType'] === 'complete' && (LISTS.has(method) || method === 'resources/read')) {
      out['ttlMs'] ??= 0;
      out['cacheScope'] ??= LISTS.has(method) ? 'public' : 'private';
    }
    const meta = out['_meta'];
    out['_meta'] =
      typeof meta === 'object' && meta !== null
        ? { ...(meta as Obj), [META.serverInfo]: info }
        : { [META.serverInfo]: info };
    return out;
  }
  delete out['resultType'];
  delete out['ttlMs'];
  delete out['cacheScope'];
  const meta = out['_meta'];
  if (typeof meta === 'object' && meta !== null && META.serverInfo in meta) {
    const { [META.serverInfo]: _info, ...rest } = meta as Obj;
    if (Object.keys(rest).length === 0) delete out['_meta'];
    else out['_meta'] = rest;
  }
  if (method === 'tools/list' && Array.isArray(out['tools'])) {
    out['tools'] = (out['tools'] as Tool[]).map((t) => {
      if (t.outputSchema === undefined || t.outputSchema['type'] === 'object') return t;
      const { outputSchema: _dropped, ...rest } = t;
      return rest;
    });
  }
  return out;
}

/**
 * An upstream failure as the host sees it: the upstream's own JSON-RPC error as it was; a
 * timeout, a lost or refused connection as -32603 naming the upstream and the method.
 */
export function hostError(method: string, error: unknown): ProtocolError {
  if (error instanceof ProtocolError) return error;
  const why = isMcpKitError(error)
    ? `${error.message} (${error.code})`
    : error instanceof Error
      ? error.message
      : String(error);
  return new ProtocolError(-32603, `${method}: the upstream server failed: ${why}`, {
    upstream: true,
    ...(isMcpKitError(error) ? { code: error.code } : {}),
  });
}
