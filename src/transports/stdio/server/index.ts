/**
 * stdio for servers: serve on a process's stdin and stdout, one JSON-RPC message a line. The
 * client side is `mcpkit/stdio/client`.
 * @module mcpkit/stdio
 */
export {
  serveStdio,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
} from './serve-stdio.js';
export type { StdioOptions, StdioConnection } from './serve-stdio.js';
export { LineDecoder } from '../line-decoder.js';
export type { LineEvent, LineDecoderOptions } from '../line-decoder.js';
