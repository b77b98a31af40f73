// MCP messages and headers, both eras, as the stress clients put them on the wire.
export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';
const NEEDS_NAME = new Set(['tools/call', 'resources/read', 'prompts/get']);

export const modernMeta = (extra = {}) => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
  ...extra,
});

/** A 2026-07-28 request: `_meta` carries the version and the client capabilities. */
export const modern = (id, method, params = {}) => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { ...params, _meta: modernMeta(params._meta) },
});

/** The name header of a request: the tool, the URI or the prompt. */
export const nameOf = (method, params = {}) =>
  method === 'resources/read' ? params.uri : NEEDS_NAME.has(method) ? params.name : undefined;

/** The HTTP headers a 2026-07-28 request needs. */
export function modernHeaders(method, name) {
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': method,
  };
  if (name !== undefined) headers['mcp-name'] = name;
  return headers;
}

export const initialize = (id) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
});

/** The URI `mcpkit serve` gives a file: file:///{+path}, relative to the served folder. */
export const fileUri = (path) => `file:///${path}`;

/** The text of a resources/read answer's first contents, or undefined. */
export const textOf = (message) => message?.result?.contents?.[0]?.text;

/** The tool names of a tools/list answer, or undefined. */
export const toolNames = (message) => message?.result?.tools?.map((t) => t.name);
