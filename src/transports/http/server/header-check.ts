import type { Tool } from '../../../protocol/types.js';
import type { ProtocolError } from '../../../errors/protocol-error.js';
import { headerMismatch as mismatch } from '../../../errors/wire-errors.js';
import type { HttpExchange } from './exchange.js';
import { decodeHeaderValue, headerFormOf } from '../../../protocol/header-values.js';
import { nameFieldOf } from '../../../protocol/methods.js';
import { deepField } from '../../../protocol/depth.js';
import { classify, type RequestId } from '../../../protocol/jsonrpc.js';
import { META } from '../../../protocol/meta-keys.js';
import { checkModernMeta } from '../../../server/transport.js';

type Body = Record<string, unknown>;
type InputSchemaOf = (name: string) => Readonly<Tool['inputSchema']> | undefined;

/**
 * The -32020 a 2026-07-28 request is answered with here, at the edge, before the engine sees it;
 * only when the engine would not refuse it first, in the spec's order. A message that is no
 * valid request, nests past `maxDepth` or lacks a `_meta` key (-32602) goes on to the engine,
 * which answers it; so does one whose headers agree (the engine checks the version, -32022).
 */
export function headerMismatchAtEdge(
  ex: HttpExchange,
  body: Body,
  maxDepth: number,
  toolInputSchema: InputSchemaOf,
): { id: RequestId; error: ProtocolError } | undefined {
  const params = (body['params'] ?? {}) as Body;
  const method = String(body['method']);
  if (checkModernMeta(params['_meta'], method)) return undefined;
  const version = (params['_meta'] as Body)[META.protocolVersion] as string;
  const error = checkModernHeaders(ex, method, params, version, toolInputSchema);
  if (!error) return undefined;
  // Only on a mismatch is it worth asking whether the engine would refuse the message first.
  const c = classify(body);
  if (c.kind !== 'request' || deepField(c.message, maxDepth) !== undefined) return undefined;
  return { id: c.message.id, error };
}

/**
 * Checks the 2026-07-28 request headers against the body: `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*`, then `MCP-Protocol-Version` against `_meta`'s version (a string: the `_meta`
 * keys were checked). Returns the -32020 error to answer with, if any.
 */
export function checkModernHeaders(
  ex: HttpExchange,
  method: string,
  params: Body,
  version: string,
  toolInputSchema: InputSchemaOf,
): ProtocolError | undefined {
  const headerMethod = ex.header('mcp-method');
  if (headerMethod === undefined) return mismatch('Mcp-Method header is required', 'Mcp-Method');
  if (headerMethod.trim() !== method) {
    return mismatch(
      `Mcp-Method header ${JSON.stringify(headerMethod)} does not match method ${JSON.stringify(method)}`,
      'Mcp-Method',
    );
  }
  // `method` is the client's: never look it up on Object.prototype ("constructor").
  const field = nameFieldOf(method);
  if (field) {
    const bodyName = params[field];
    const raw = ex.header('mcp-name');
    if (raw === undefined) return mismatch(`Mcp-Name header is required for ${method}`, 'Mcp-Name');
    const headerName = decodeHeaderValue(raw.trim());
    if (headerName === undefined)
      return mismatch('Mcp-Name header has a malformed =?base64?…?= value', 'Mcp-Name');
    if (headerName !== bodyName) {
      return mismatch(
        `Mcp-Name header ${JSON.stringify(headerName)} does not match params.${field}`,
        'Mcp-Name',
      );
    }
  }
  if (method === 'tools/call') {
    const problem = checkParamHeaders(ex, toolInputSchema(String(params['name'])), params);
    if (problem) return problem;
  }
  const headerVersion = ex.header('mcp-protocol-version');
  if (headerVersion === undefined) {
    return mismatch(
      'MCP-Protocol-Version header is required and must equal _meta protocolVersion',
      'MCP-Protocol-Version',
    );
  }
  if (headerVersion.trim() !== version) {
    return mismatch(
      `MCP-Protocol-Version header ${JSON.stringify(headerVersion)} does not match _meta protocolVersion ${JSON.stringify(version)}`,
      'MCP-Protocol-Version',
    );
  }
  return undefined;
}

function checkParamHeaders(
  ex: HttpExchange,
  inputSchema: Readonly<Tool['inputSchema']> | undefined,
  params: Body,
): ProtocolError | undefined {
  const properties = inputSchema?.['properties'];
  if (typeof properties !== 'object' || properties === null) return undefined;
  const args = (params['arguments'] ?? {}) as Record<string, unknown>;
  for (const [prop, schema] of Object.entries(properties as Record<string, unknown>)) {
    const headerName = (schema as Record<string, unknown> | null)?.['x-mcp-header'];
    if (typeof headerName !== 'string') continue;
    const full = `Mcp-Param-${headerName}`;
    const raw = ex.header(full.toLowerCase());
    const expected = headerFormOf(Object.hasOwn(args, prop) ? args[prop] : undefined);
    if (raw === undefined) {
      if (expected === undefined) continue;
      return mismatch(`${full} header is required: argument "${prop}" is mirrored in it`, full);
    }
    const actual = decodeHeaderValue(raw.trim());
    if (actual === undefined)
      return mismatch(`${full} header has a malformed =?base64?…?= value`, full);
    if (actual !== expected) {
      return mismatch(`${full} header does not match argument "${prop}"`, full);
    }
  }
  return undefined;
}
