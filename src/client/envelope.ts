/** What every outgoing message carries: the per-request `_meta` and the HTTP headers. */
import { MAX_MESSAGE_BYTES_META, META, encodeHeaderValue } from '../protocol/index.js';
import type { ClientCapabilities, Era, Implementation } from '../protocol/index.js';
import { nameFieldOf } from '../protocol/methods.js';

export { MAX_MESSAGE_BYTES_META };

export interface EnvelopeContext {
  era: Era;
  protocolVersion: string;
  clientInfo: Implementation;
  capabilities: ClientCapabilities;
  maxMessageBytes: number;
}

/** An envelope with the `_meta` every request of it carries, built once (never mutated). */
export interface Envelope extends EnvelopeContext {
  readonly meta: Readonly<Record<string, unknown>>;
}

type Params = Record<string, unknown>;

/** The envelope of `env`: its shared `_meta` built once. */
export function envelopeOf(env: EnvelopeContext): Envelope {
  const meta: Record<string, unknown> = { [MAX_MESSAGE_BYTES_META]: env.maxMessageBytes };
  if (env.era === 'modern') {
    meta[META.protocolVersion] = env.protocolVersion;
    meta[META.clientCapabilities] = env.capabilities;
    meta[META.clientInfo] = env.clientInfo;
  }
  return { ...env, meta: Object.freeze(meta) };
}

/** `params` with the per-request `_meta` the era requires, the caller's own keys kept. */
export function withMeta(
  env: Envelope,
  params: Params | undefined,
  extra?: Record<string, unknown>,
): Params {
  const own = params?.['_meta'];
  const base = env.meta;
  const mine = typeof own === 'object' && own !== null;
  const meta = mine || extra ? { ...(mine ? (own as Params) : {}), ...extra, ...base } : base;
  return { ...params, _meta: meta };
}

/** The standard headers of a POST: version, method and (for three methods) the name. */
export function standardHeaders(
  protocolVersion: string | undefined,
  method: string,
  params: Params | undefined,
): Record<string, string> {
  const headers: Record<string, string> = { 'Mcp-Method': method };
  if (protocolVersion !== undefined) headers['MCP-Protocol-Version'] = protocolVersion;
  const field = nameFieldOf(method);
  const name = field ? params?.[field] : undefined;
  if (typeof name === 'string') headers['Mcp-Name'] = encodeHeaderValue(name);
  return headers;
}
