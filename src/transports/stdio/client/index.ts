/**
 * stdio for clients: start a server process and talk to it over its stdin and stdout. The
 * server side is `mcpkit/stdio`.
 * @module mcpkit/stdio/client
 */
export {
  StdioClientTransport,
  DEFAULT_CLIENT_MAX_LINE_BYTES,
  DEFAULT_CLOSE_TIMEOUT_MS,
} from './client-transport.js';
export type { StdioClientOptions } from './client-transport.js';
export { DEFAULT_STDERR_BUFFER_BYTES } from './client-stderr.js';
export { DEFAULT_INHERITED_ENV_VARS } from './client-child.js';
