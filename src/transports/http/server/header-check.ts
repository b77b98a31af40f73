import type { Tool } from '../../../protocol/types.js';
import type { ProtocolError } from '../../../errors/protocol-error.js';
import { headerMismatch as mismatch } from '../../../errors/wire-errors.js';
import type { HttpExchange } from './exchange.js';
import { decodeHeaderValue, headerFormOf } from '../../../protocol/header-values.js';
import { nameFieldOf } from '../../../protocol/methods.js';

/**
 * Checks the 2026-07-28 request headers against the body: `Mcp-Method`, `Mcp-Name` and
 * `Mcp-Param-*`, then `MCP-Protocol-Version` against `_meta`'s version. Returns the -32020 error
 * to answer with, if any. The engine calls it (through `checkEnvelope`) once the `_meta` keys
 * are known to be there, before it checks the version itself.
 */
export function checkModernHeaders(
  ex: HttpExchange,
  method: string,
  params: Record<string, unknown>,
  version: string,
  toolInputSchema: (name: string) => Tool['inputSchema'] | undefined,
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
  inputSchema: Tool['inputSchema'] | undefined,
  params: Record<string, unknown>,
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
