/**
 * The package's front door: `import { createServer, serveStdio, text, resourceLink } from
 * 'mcpkit'`. The server, the content builders, and the stdio and node:http transports of a
 * server; everything else (the client, the host, the web handler, the folder provider, the
 * protocol types) has its own subpath.
 *
 * @module mcpkit
 */
export * from './server/index.js';
export * from './content/index.js';
export {
  serveStdio,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_STDIO_MAX_RESPONSE_BYTES,
} from './transports/stdio/server/serve-stdio.js';
export type { StdioOptions, StdioConnection } from './transports/stdio/server/serve-stdio.js';
export { serveHttp, toNodeHandler, DEFAULT_HEADER_TIMEOUT_MS } from './transports/node.js';
export type { NodeHandler, ServeHttpOptions, RunningHttpServer } from './transports/node.js';
export type { HttpOptions } from './transports/http/server/options.js';
