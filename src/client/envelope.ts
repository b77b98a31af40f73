/** What every outgoing message carries: the per-request `_meta` and the HTTP headers. */
import { MAX_MESSAGE_BYTES_META, META, encodeHeaderValue } from '../protocol/index.js';
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';

export { MAX_MESSAGE_BYTES_META };

export interface EnvelopeContext {
  era: Era;
  protocolVersion: string;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  maxMessageBytes: number;
}

type Params = Record<string, unknown>;

/** `params` with the per-request `_meta` the era requires, the caller's own keys kept. */
export function withMeta(
  env: EnvelopeContext,
  params: Params | undefined,
  extra?: Record<string, unknown>,
): Params {
  const own = params?.['_meta'];
  const meta: Record<string, unknown> = {
    ...(typeof own === 'object' && own !== null ? (own as Record<string, unknown>) : {}),
    ...extra,
    [MAX_MESSAGE_BYTES_META]: env.maxMessageBytes,
  };
  if (env.era === 'modern') {
    meta[META.protocolVersion] = env.protocolVersion;
    meta[META.clientCapabilities] = env.capabilities;
    meta[META.clientInfo] = env.clientInfo;
  }
  return { ...params, _meta: meta };
}

const NAMED: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

/** The standard headers of a POST: version, method and (for three methods) the name. */
export function standardHeaders(
  protocolVersion: string | undefined,
  method: string,
  params: Params | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'Mcp-Method': method };
  if (protocolVersion !== undefined) headers['MCP-Protocol-Version'] = protocolVersion;
  const field = Object.hasOwn(NAMED, method) ? NAMED[method] : undefined;
  const name = field ? params?.[field] : undefined;
  if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
  return headers;
}
