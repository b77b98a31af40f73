/**
 * Streamable HTTP for clients: the transport a client talks to a server's URL through. The
 * server side is `mcpkit/http`.
 * @module mcpkit/http/client
 */
export { HttpClientTransport } from './client-transport.js';
export {
  DEFAULT_CLIENT_MAX_RECONNECTS,
  DEFAULT_CLIENT_MAX_RESPONSE_BYTES,
} from './client-options.js';
export type { HttpClientOptions, HttpRequesterChoice } from './client-options.js';
export type { HttpStatusError } from './client-failures.js';
export type { AuthChallenge, HttpClientAuth } from '../../../auth/client-hook.js';
