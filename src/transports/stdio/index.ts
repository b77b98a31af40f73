export {
  serveStdio,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
} from './serve-stdio.js';
export type { StdioOptions, StdioConnection } from './serve-stdio.js';
export { LineDecoder } from './line-decoder.js';
export type { LineEvent } from './line-decoder.js';
