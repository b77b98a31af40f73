/** @module mcpkit/stdio */
export {
  serveStdio,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
} from './serve-stdio.js';
export type { StdioOptions, StdioConnection } from './serve-stdio.js';
export { LineDecoder } from './line-decoder.js';
export type { LineEvent } from './line-decoder.js';
export type { LineDecoderOptions } from './line-decoder.js';
export {
  StdioClientTransport,
  DEFAULT_CLIENT_MAX_LINE_BYTES,
  DEFAULT_CLOSE_TIMEOUT_MS,
} from './client-transport.js';
export type { StdioClientOptions } from './client-transport.js';
export { DEFAULT_STDERR_BUFFER_BYTES } from './client-stderr.js';
export { DEFAULT_INHERITED_ENV_VARS } from './client-child.js';
