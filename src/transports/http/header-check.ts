import { ERROR_CODES } from '../../protocol/error-codes.js';
import { META } from '../../protocol/meta-keys.js';
import { ProtocolError } from '../../errors/protocol-error.js';
import type { McpServer } from '../../server/server.js';
import type { HttpExchange } from './exchange.js';
import { decodeHeaderValue, headerFormOf } from './header-values.js';

const NAME_FIELD: Record<string, 'name' | 'uri'> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
};

function mismatch(message: string, header: string): ProtocolError {
  return new ProtocolError(ERROR_CODES.HEADER_MISMATCH, message, { header });
}

/**
 * Checks the 2026-07-28 request headers against the body: `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*`. Returns the -32020 error to answer with, if any.
 */
export function checkModernHeaders(
  ex: HttpExchange,
  server: McpServer,
  method: string,
  params: Record<string, unknown>,
): ProtocolError | undefined {
  const meta = params['_meta'];
  const bodyVersion =
    typeof meta === 'object' && meta !== null
      ? (meta as Record<string, unknown>)[META.protocolVersion]
      : undefined;
  // The version header is checked by the dispatcher (in the spec's order); a body without a
  // version is the dispatcher's to refuse (-32602).
  if (typeof bodyVersion !== 'string') return undefined;
  const headerMethod = ex.header('mcp-method');
  if (headerMethod === undefined) return mismatch('Mcp-Method header is required', 'Mcp-Method');
  if (headerMethod.trim() !== method) {
    return mismatch(
      `Mcp-Method header ${JSON.stringify(headerMethod)} does not match method ${JSON.stringify(method)}`,
      'Mcp-Method',
    );
  }
  // `method` is the client's: never look it up on Object.prototype ("constructor").
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method] : undefined;
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
  if (method === 'tools/call') return checkParamHeaders(ex, server, params);
  return undefined;
}

function checkParamHeaders(
  ex: HttpExchange,
  server: McpServer,
  params: Record<string, unknown>,
): ProtocolError | undefined {
  const entry = server.tools.get(String(params['name']));
  const properties = entry?.tool.inputSchema['properties'];
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
