/** Reserved `_meta` keys of 2026-07-28. */
export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
  progressToken: 'progressToken',
} as const;

/** Our own `_meta` namespace. */
export const MCPKIT_META_PREFIX = 'dev.mcpkit/';

/** The largest message a client accepts, announced on each request (and in `initialize`). */
export const MAX_MESSAGE_BYTES_META = 'dev.mcpkit/maxMessageBytes';

/**
 * On a 2025-11-25 server-to-client request of `ctx.ask`: the input's key, so that a bridge in
 * front of the server names it as a 2026-07-28 `input_required` would.
 */
export const INPUT_KEY_META = 'dev.mcpkit/inputKey';
