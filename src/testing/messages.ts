// Test support only: not part of the mcpkit package (excluded from the build and not published).
/** Builders for raw JSON-RPC messages in tests. */
export const MODERN = '2026-07-28';

export function modernMeta(
  extra: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
) {
  return {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1.0.0' },
    ...extra,
  };
}

let nextId = 1;

export function modern(
  method: string,
  params: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = {},
) {
  const { _meta, ...rest } = params as { _meta?: Record<string, unknown> };
  return {
    jsonrpc: '2.0' as const,
    id: nextId++,
    method,
    params: { ...rest, _meta: modernMeta(_meta, capabilities) },
  };
}

export function legacy(method: string, params?: Record<string, unknown>) {
  return params === undefined
    ? { jsonrpc: '2.0' as const, id: nextId++, method }
    : { jsonrpc: '2.0' as const, id: nextId++, method, params };
}

export const initializeRequest = (capabilities: Record<string, unknown> = {}) =>
  legacy('initialize', {
    protocolVersion: '2025-11-25',
    capabilities,
    clientInfo: { name: 'legacy-test', version: '1.0.0' },
  });

/** The headers of a 2026-07-28 POST: JSON or SSE accepted, version, method and name. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}
