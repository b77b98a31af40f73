/**
 * `mcpkit/client`: an MCP client for 2026-07-28 and 2025-11-25 servers, I/O-free. Give it a
 * transport from `mcpkit/stdio` or `mcpkit/http` (or use `connect()` from `mcpkit/connect`).
 *
 * @example
 * const client = await new McpClient({ transport: new StdioClientTransport({ command: 'mcpkit', args: ['serve', './docs', '--stdio'] }) }).connect();
 * const tools = await client.listTools();
 *
 * @module mcpkit/client
 */
export { McpClient } from './client.js';
export type { ListenOptions, RequestOptions } from './client.js';
export { ResilientListenStream, RESYNC_META, resyncFrames } from './resilient-listen.js';
export type { RelistenOptions } from './resilient-listen.js';
export type { NotificationListener } from './notification-listener.js';
export type { Progress } from './connection.js';
export {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_DISCOVER_TIMEOUT_MS,
  DEFAULT_MAX_PAGES,
  DEFAULT_MAX_LIST_ITEMS,
  DEFAULT_MAX_LIST_BYTES,
  DEFAULT_MAX_CURSOR_BYTES,
  DEFAULT_CACHE_ENTRIES,
  DEFAULT_MAX_INPUT_ROUNDS,
  DEFAULT_MAX_INPUT_REQUESTS,
} from './options.js';
export type { McpClientOptions, ClientWarning, CacheOptions } from './options.js';
export type { InputHandlers, InputHandlerContext, ElicitResult } from './input-handlers.js';
export { applyElicitationDefaults } from './input-handlers.js';
export { ListenStream, DEFAULT_LISTEN_QUEUE } from './listen.js';
export type { ListenNotification } from './listen.js';
export { ClientCache } from './cache.js';
export { MAX_MESSAGE_BYTES_META } from './envelope.js';
export { paramHeadersOf, paramHeaderValues } from './tool-headers.js';
export type { ParamHeader } from './tool-headers.js';
export type {
  ClientTransport,
  ClientTransportKind,
  ClientTransportSink,
  SendOptions,
} from './transport.js';
